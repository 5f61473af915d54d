package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// clockTicks is USER_HZ, the unit of utime and stime in /proc/PID/stat.
// Linux fixes it at 100 for user space on every architecture Go supports.
const clockTicks = 100

// server is one process the harness started and measures.
type server struct {
	name string
	addr string // host:port it serves on
	cmd  *exec.Cmd
	log  *os.File
	done chan struct{} // closed when the process has exited
	err  error         // its exit error, valid after done
}

// freeAddr returns a loopback address that was free a moment ago.
func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// startServer runs bin with args, logging to logDir/name.log, and waits until
// addr accepts connections. The process gets SIGTERM if the harness dies.
func startServer(ctx context.Context, name, logDir, addr, bin string, args ...string) (*server, error) {
	logf, err := os.Create(filepath.Join(logDir, name+".log"))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, err
	}
	s := &server{name: name, addr: addr, cmd: cmd, log: logf, done: make(chan struct{})}
	go func() { s.err = cmd.Wait(); close(s.done) }()

	deadline := time.Now().Add(15 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			return s, nil
		}
		select {
		case <-s.done:
			return nil, fmt.Errorf("%s exited before serving (%v): %s", name, s.err, tail(logf.Name(), 600))
		case <-ctx.Done():
			s.stop()
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.stop()
			return nil, fmt.Errorf("%s did not listen on %s within 15s: %s", name, addr, tail(logf.Name(), 600))
		}
	}
}

// stop sends SIGTERM, then SIGKILL after two seconds.
func (s *server) stop() {
	select {
	case <-s.done:
	default:
		s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(2 * time.Second):
			s.cmd.Process.Kill()
			<-s.done
		}
	}
	s.log.Close()
}

// alive reports an error when the process has exited.
func (s *server) alive() error {
	select {
	case <-s.done:
		return fmt.Errorf("%s exited (%v): %s", s.name, s.err, tail(s.log.Name(), 600))
	default:
		return nil
	}
}

// cpu returns the process's user plus system CPU time so far.
func (s *server) cpu() (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(s.cmd.Process.Pid) + "/stat")
	if err != nil {
		return 0, err
	}
	return parseStat(b)
}

// parseStat reads utime plus stime from the text of /proc/PID/stat. The
// command name (field 2) may hold spaces and parentheses, so the fields are
// counted from the last ')'.
func parseStat(b []byte) (time.Duration, error) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, errors.New("stat: no ')' after the command name")
	}
	f := strings.Fields(string(b[i+1:]))
	// After the name: state(3) ppid(4) ... utime(14) stime(15), so utime is
	// f[14-3] and stime f[15-3].
	if len(f) < 13 {
		return 0, fmt.Errorf("stat: %d fields after the name, want at least 13", len(f))
	}
	ut, err1 := strconv.ParseUint(f[11], 10, 64)
	st, err2 := strconv.ParseUint(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, fmt.Errorf("stat: %w", err)
	}
	return time.Duration(ut+st) * time.Second / clockTicks, nil
}

// tail returns at most n bytes from the end of the file at path, on one line.
func tail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "(no log: " + err.Error() + ")"
	}
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return strings.Join(strings.Fields(string(b)), " ")
}
