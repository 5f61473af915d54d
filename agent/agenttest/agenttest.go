// Package agenttest runs sezzlee as a separate process for end-to-end tests
// of agent clients: it builds the command and starts `sezzlee demo`. Tests
// that use it skip, with a plain message, while the demo is not built yet.
package agenttest

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Build compiles cmd/sezzlee into a temporary directory and returns the
// binary's path.
func Build(tb testing.TB) string {
	tb.Helper()
	bin := filepath.Join(tb.TempDir(), "sezzlee")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/sezzlee/sezzlee/cmd/sezzlee").CombinedOutput()
	if err != nil {
		tb.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// StubMessage is what an unbuilt command prints.
const StubMessage = "not built yet"

// StartDemo runs `bin demo --listen 127.0.0.1:0`, returns the MCP URL it
// prints as its first line, and stops it when the test ends. It skips the
// test while the demo is a stub.
func StartDemo(tb testing.TB, bin string) string {
	tb.Helper()
	cmd := exec.Command(bin, "demo", "--listen", "127.0.0.1:0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	first := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		if sc.Scan() {
			first <- sc.Text()
		}
		close(first)
		for sc.Scan() { // keep reading so the demo never blocks on stdout
		}
	}()
	select {
	case url, ok := <-first:
		if !ok {
			_ = cmd.Wait()
			if strings.Contains(stderr.String(), StubMessage) {
				tb.Skip("sezzlee demo is not built yet")
			}
			tb.Fatalf("sezzlee demo printed no URL; stderr:\n%s", stderr.String())
		}
		return strings.TrimSpace(url)
	case <-time.After(30 * time.Second):
		tb.Fatalf("sezzlee demo printed no URL within 30s; stderr:\n%s", stderr.String())
	}
	return ""
}
