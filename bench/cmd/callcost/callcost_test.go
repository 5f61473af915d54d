package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestParseStat(t *testing.T) {
	// Fields after the name: state ppid pgrp session tty tpgid flags minflt
	// cminflt majflt cmajflt utime stime ...
	tests := []struct {
		name string
		stat string
		want time.Duration
		err  bool
	}{
		{"plain", "4242 (bareserver) S 1 4242 4242 0 -1 4194560 900 0 0 0 150 25 0 0 20 0 6", 1750 * time.Millisecond, false},
		{"name with spaces and parens", "7 (a b) (c)) R 1 7 7 0 -1 0 0 0 0 0 3 4 0 0", 70 * time.Millisecond, false},
		{"no name", "7 R 1 7", 0, true},
		{"truncated", "7 (x) R 1 7 7 0 -1 0 0 0 0", 0, true},
		{"not a number", "7 (x) R 1 7 7 0 -1 0 0 0 0 0 ab 4", 0, true},
	}
	for _, tt := range tests {
		got, err := parseStat([]byte(tt.stat))
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("%s: parseStat = %v, %v; want %v, error %v", tt.name, got, err, tt.want, tt.err)
		}
	}
}

func TestPercentile(t *testing.T) {
	var lat []time.Duration
	for i := 1; i <= 100; i++ {
		lat = append(lat, time.Duration(i))
	}
	tests := []struct {
		sorted []time.Duration
		p      float64
		want   time.Duration
	}{
		{lat, 50, 50},
		{lat, 99, 99},
		{lat, 100, 100},
		{lat, 0, 1},
		{lat[:1], 99, 1},
		{nil, 50, 0},
		{[]time.Duration{1, 2, 3}, 50, 2},
	}
	for _, tt := range tests {
		if got := percentile(tt.sorted, tt.p); got != tt.want {
			t.Errorf("percentile(%d values, %v) = %v, want %v", len(tt.sorted), tt.p, got, tt.want)
		}
	}
}

func TestSSEAnswer(t *testing.T) {
	tests := []struct {
		name, stream, want string
		err                bool
	}{
		{"one event", "event: message\ndata: {\"id\":1,\"result\":{}}\n\n", `{"id":1,"result":{}}`, false},
		{"crlf, no space", "event: message\r\ndata:{\"id\":1}\r\n\r\n", `{"id":1}`, false},
		{"notification first", "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n" +
			"id: 2\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n\n", `{"jsonrpc":"2.0","id":7,"result":{}}`, false},
		{"multi-line data", "data: {\"id\":\ndata: 1}\n\n", "{\"id\":\n1}", false},
		{"no data", ": ping\n\n", "", true},
		{"only notifications", "data: {\"method\":\"a\"}\n\ndata: {\"method\":\"b\"}\n\n", "", true},
	}
	for _, tt := range tests {
		got, err := sseAnswer([]byte(tt.stream))
		if (err != nil) != tt.err || string(got) != tt.want {
			t.Errorf("%s: sseAnswer = %q, %v; want %q, error %v", tt.name, got, err, tt.want, tt.err)
		}
	}
}

// testServer is a real go-sdk server with the two tool shapes the harness
// calls: get_item({id}) and, standing in for sezzlee's,
// invoke_tool({name: "getItem", arguments: {id}}). Item 13 fails.
func testServer() *mcp.Server {
	type args struct {
		ID   int    `json:"id"`
		Name string `json:"name,omitempty"`
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "get_item"}, func(_ context.Context, _ *mcp.CallToolRequest, in args) (*mcp.CallToolResult, any, error) {
		if in.ID == 13 {
			return nil, nil, fmt.Errorf("unlucky")
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"ref":"bench-item-` + strconv.Itoa(in.ID) + `"}`}}}, nil, nil
	})
	type wrapped struct {
		Name      string `json:"name"`
		Arguments args   `json:"arguments"`
	}
	mcp.AddTool(server, &mcp.Tool{Name: "invoke_tool"}, func(_ context.Context, _ *mcp.CallToolRequest, in wrapped) (*mcp.CallToolResult, any, error) {
		if in.Name != "getItem" {
			return nil, nil, fmt.Errorf("unknown tool %q", in.Name)
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"body":{"ref":"bench-item-` + strconv.Itoa(in.Arguments.ID) + `"}}`}}}, nil, nil
	})
	return server
}

// TestRPCSession drives a real go-sdk server in each transport mode the
// harness measures, and checks that a wrong answer is reported.
func TestRPCSession(t *testing.T) {
	server := testServer()
	for _, mode := range []struct {
		name string
		opts *mcp.StreamableHTTPOptions
	}{
		{"sse", nil},
		{"json", &mcp.StreamableHTTPOptions{JSONResponse: true}},
		{"stateless", &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, mode.opts))
			defer srv.Close()
			ctx := t.Context()
			s, err := newRPCSession(ctx, srv.Client(), srv.URL, "2025-11-25", "get_item", "")
			if err != nil {
				t.Fatalf("newRPCSession: %v", err)
			}
			if got, want := s.session != "", mode.name != "stateless"; got != want {
				t.Errorf("session id set = %v, want %v", got, want)
			}
			for id := range 3 {
				if err := s.call(ctx, id); err != nil {
					t.Errorf("call(%d): %v", id, err)
				}
			}
			if err := s.call(ctx, 13); err == nil || !strings.Contains(err.Error(), "unlucky") {
				t.Errorf("call(13) = %v, want the tool's error", err)
			}

			w, err := newRPCSession(ctx, srv.Client(), srv.URL, "2025-11-25", "getItem", "invoke_tool")
			if err != nil {
				t.Fatalf("newRPCSession (wrapped): %v", err)
			}
			if err := w.call(ctx, 42); err != nil {
				t.Errorf("wrapped call(42): %v", err)
			}
			w.tool = "nope"
			if err := w.call(ctx, 42); err == nil {
				t.Error("wrapped call to an unknown tool succeeded, want an error")
			}
		})
	}
}

func TestDirectCaller(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/items/5" {
			w.WriteHeader(http.StatusNotFound)
		}
		fmt.Fprintf(w, `{"ref":"bench-item-%s"}`, strings.TrimPrefix(r.URL.Path, "/items/"))
	}))
	defer srv.Close()
	d := &directCaller{hc: srv.Client(), base: srv.URL}
	if err := d.call(t.Context(), 4); err != nil {
		t.Errorf("call(4): %v", err)
	}
	if err := d.call(t.Context(), 5); err == nil {
		t.Error("call(5) on a 404 succeeded, want an error")
	}
}

// TestLoopBounds checks that a phase stops at maxCalls and counts the calls
// and errors it made.
func TestLoopBounds(t *testing.T) {
	c := &countingCaller{failEvery: 10}
	l := loop{clients: 4, d: 5 * time.Second, maxCalls: 200, keepLatency: true}
	start := time.Now()
	p, err := l.run(t.Context(), func(context.Context) (caller, error) { return c, nil }, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.calls != 200 || len(p.lat) != 200 {
		t.Errorf("calls = %d, latencies = %d, want 200 each", p.calls, len(p.lat))
	}
	if p.errors != 20 || p.firstErr == nil {
		t.Errorf("errors = %d (first %v), want 20", p.errors, p.firstErr)
	}
	if time.Since(start) > 4*time.Second {
		t.Errorf("loop took %v: it did not stop at maxCalls", time.Since(start))
	}
}

type countingCaller struct {
	n         atomic.Int64
	failEvery int64
}

func (c *countingCaller) call(context.Context, int) error {
	if c.n.Add(1)%c.failEvery == 0 {
		return fmt.Errorf("failing on purpose")
	}
	return nil
}

// FuzzSSEAnswer checks the stream reader never panics, answers exactly one
// of data and an error, and leaves its input as it was.
func FuzzSSEAnswer(f *testing.F) {
	f.Add([]byte("event: message\ndata: {\"id\":1}\n\n"))
	f.Add([]byte("data: a\ndata: b\n\ndata: {\"id\":2}\n\n"))
	f.Add([]byte("\r\n\r\n"))
	f.Fuzz(func(t *testing.T, stream []byte) {
		orig := bytes.Clone(stream)
		got, err := sseAnswer(stream)
		if (err == nil) == (got == nil) {
			t.Fatalf("sseAnswer = %q, %v: want exactly one of data and error", got, err)
		}
		if !bytes.Equal(stream, orig) {
			t.Fatalf("sseAnswer changed its input")
		}
	})
}

// FuzzParseStat checks the /proc/PID/stat reader never panics and never
// reports negative time.
func FuzzParseStat(f *testing.F) {
	f.Add([]byte("4242 (bareserver) S 1 4242 4242 0 -1 4194560 900 0 0 0 150 25 0 0 20 0 6"))
	f.Add([]byte("7 (a b) (c)) R 1 7 7 0 -1 0 0 0 0 0 3 4"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if d, err := parseStat(b); err == nil && d < 0 {
			t.Fatalf("parseStat(%q) = %v", b, d)
		}
	})
}

// TestTSClient runs bench/ts/client.mjs, the official TypeScript client,
// against a real go-sdk server in both call shapes and reads its results
// as runTS does. It needs node and npm ci in bench/ts.
func TestTSClient(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	if !tsReady(root) {
		t.Skip("node or bench/ts/node_modules missing (run npm ci in bench/ts)")
	}
	server := testServer()
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	defer srv.Close()
	for _, tt := range []struct{ tool, wrap string }{{"get_item", ""}, {"getItem", "invoke_tool"}} {
		args := []string{filepath.Join(root, "bench/ts/client.mjs"), "--url", srv.URL, "--tool", tt.tool,
			"--clients", "2", "--seconds", "0.3", "--max-calls", "12", "--warmup", "2"} // ids 0 to 11: 13 fails
		if tt.wrap != "" {
			args = append(args, "--wrap", tt.wrap)
		}
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		out, err := exec.CommandContext(ctx, "node", args...).Output()
		cancel()
		if err != nil {
			t.Fatalf("client.mjs %s: %v", tt.tool, err)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(lines) != 3 || lines[0] != "start" || lines[1] != "end" {
			t.Fatalf("client.mjs %s printed %q, want start, end and the results", tt.tool, out)
		}
		var res tsOutcome
		if err := json.Unmarshal([]byte(lines[2]), &res); err != nil {
			t.Fatalf("client.mjs %s: results: %v", tt.tool, err)
		}
		if res.Calls == 0 || res.Calls > 12 || res.Errors != 0 || res.P50us <= 0 || res.P99us < res.P50us {
			t.Errorf("client.mjs %s = %+v, want 1 to 12 calls, no errors, 0 < p50 <= p99", tt.tool, res)
		}
	}
}
