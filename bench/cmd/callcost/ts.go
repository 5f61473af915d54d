package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"
)

// tsReady reports whether node and the TypeScript client's packages are there.
func tsReady(root string) bool {
	if _, err := exec.LookPath("node"); err != nil {
		return false
	}
	_, err := os.Stat(filepath.Join(root, "bench/ts/node_modules/@modelcontextprotocol/sdk/package.json"))
	return err == nil
}

// tsOutcome is the JSON line bench/ts/client.mjs prints last.
type tsOutcome struct {
	Calls      int     `json:"calls"`
	Errors     int     `json:"errors"`
	FirstError string  `json:"firstError"`
	Seconds    float64 `json:"seconds"`
	P50us      float64 `json:"p50us"`
	P99us      float64 `json:"p99us"`
}

// measureTS runs the latency and throughput phases with the TypeScript client.
func measureTS(ctx context.Context, f *flags, root, logs string, t *target, backend *server) (result, error) {
	lat, latOut, err := runTS(ctx, f, root, logs, t, backend, 1)
	if err != nil {
		return result{}, err
	}
	thr, _, err := runTS(ctx, f, root, logs, t, backend, f.clients)
	if err != nil {
		return result{}, err
	}
	us := func(v float64) time.Duration { return time.Duration(v * float64(time.Microsecond)) }
	return resultOf(t, us(latOut.P50us), us(latOut.P99us), lat, thr), nil
}

// runTS runs client.mjs once and reads the servers' CPU between its "start"
// and "end" lines.
func runTS(ctx context.Context, f *flags, root, logs string, t *target, backend *server, clients int) (*phase, *tsOutcome, error) {
	ctx, cancel := context.WithTimeout(ctx, f.d+2*time.Minute)
	defer cancel()
	args := []string{filepath.Join(root, "bench/ts/client.mjs"), "--url", t.url, "--tool", t.tool,
		"--clients", strconv.Itoa(clients), "--seconds", strconv.FormatFloat(f.d.Seconds(), 'f', -1, 64),
		"--max-calls", strconv.Itoa(f.maxCalls)}
	if t.wrap != "" {
		args = append(args, "--wrap", t.wrap)
	}
	cmd := exec.CommandContext(ctx, "node", args...)
	logf, err := os.OpenFile(filepath.Join(logs, "ts-client.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, nil, err
	}
	defer logf.Close()
	cmd.Stderr = logf
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	m := t.meter(backend)
	var (
		before, cpu map[string]time.Duration
		out         *tsOutcome
		readErr     error
	)
	sc := bufio.NewScanner(stdout)
	for sc.Scan() && readErr == nil {
		switch line := sc.Bytes(); string(line) {
		case "start":
			before, readErr = m.read()
		case "end":
			if before == nil {
				readErr = errors.New(`"end" before "start"`)
				break
			}
			cpu, readErr = m.since(before)
		default:
			out = new(tsOutcome)
			if err := json.Unmarshal(line, out); err != nil {
				readErr = fmt.Errorf("client.mjs printed %q", line)
			}
		}
	}
	if err := cmd.Wait(); err != nil {
		return nil, nil, fmt.Errorf("client.mjs: %v: %s", err, tail(logf.Name(), 600))
	}
	if readErr != nil {
		return nil, nil, readErr
	}
	if out == nil || cpu == nil {
		return nil, nil, errors.New("client.mjs ended without its results")
	}
	p := &phase{
		calls: out.Calls, errors: out.Errors,
		elapsed: time.Duration(out.Seconds * float64(time.Second)), cpu: cpu,
	}
	if out.FirstError != "" {
		p.firstErr = errors.New(out.FirstError)
	}
	return p, out, nil
}
