package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/sezzlee/sezzlee/catalog"
	"github.com/sezzlee/sezzlee/demo"
	"github.com/sezzlee/sezzlee/envelope"
	"github.com/sezzlee/sezzlee/invoke"
)

// demoSource is the bundled demo API served in-process.
func demoSource(t testing.TB, opts *demo.Options) Source {
	t.Helper()
	cat, err := catalog.Parse(demo.Description, &catalog.Options{Deferred: demo.Deferred})
	if err != nil {
		t.Fatalf("catalog.Parse(demo): %v", err)
	}
	inv, err := invoke.New(&invoke.Options{
		Backend:  invoke.Handler(demo.NewHandler(opts)),
		Timeout:  2 * time.Second,
		Deferred: DeferredFromCaller("owner"),
	})
	if err != nil {
		t.Fatalf("invoke.New: %v", err)
	}
	return Source{Catalog: cat, Invoker: inv}
}

func newServer(t testing.TB, opts *Options) *Server {
	t.Helper()
	if opts.Sources == nil {
		opts.Sources = []Source{demoSource(t, nil)}
	}
	if opts.LocalCaller == nil {
		opts.LocalCaller = &Caller{Subject: "alice"}
	}
	s, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return s
}

// connect starts h on loopback and returns a go-sdk client session to it.
func connect(t *testing.T, h http.Handler) *mcp.ClientSession {
	t.Helper()
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return connectURL(t, ts.URL, nil)
}

func connectURL(t *testing.T, url string, client *http.Client) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: client}, nil)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a meta-tool and returns its decoded JSON and isError.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (map[string]any, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("CallTool(%s): %v", name, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("CallTool(%s): %d content blocks, want 1", name, len(res.Content))
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("CallTool(%s): content is %T, want text", name, res.Content[0])
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(text.Text), &out); err != nil {
		t.Fatalf("CallTool(%s): result is not JSON: %v\n%s", name, err, text.Text)
	}
	if envelopeShaped(out) {
		if err := envelopeValid([]byte(text.Text)); err != nil {
			t.Errorf("CallTool(%s): envelope does not match the schema: %v\n%s", name, err, text.Text)
		}
	}
	return out, res.IsError
}

func envelopeShaped(m map[string]any) bool {
	_, a := m["status"]
	_, b := m["error"]
	return a || b
}

func TestToolsList(t *testing.T) {
	cs := connect(t, newServer(t, &Options{}).Handler())
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		schema, _ := json.Marshal(tool.InputSchema)
		if !bytes.Contains(schema, []byte(`"additionalProperties":false`)) {
			t.Errorf("%s: input schema %s, want additionalProperties false", tool.Name, schema)
		}
		if !strings.Contains(tool.Description, "retryable") && tool.Name == InvokeTool {
			t.Errorf("%s: description does not teach retryable", tool.Name)
		}
	}
	if got, want := strings.Join(names, ","), "invoke_tool,load_tool,search_tools"; got != want {
		t.Errorf("tools = %s, want %s", got, want)
	}
}

// TestLoop runs search, load and invoke over streamable HTTP, with a
// success and an error of each layer.
func TestLoop(t *testing.T) {
	for _, stateless := range []bool{false, true} {
		name := "stateful"
		if stateless {
			name = "stateless"
		}
		t.Run(name, func(t *testing.T) {
			cs := connect(t, newServer(t, &Options{Stateless: stateless}).Handler())

			found, isErr := call(t, cs, SearchTool, map[string]any{"query": "place a new order"})
			if isErr {
				t.Fatalf("search_tools: isError, result %v", found)
			}
			hits, _ := found["hits"].([]any)
			if len(hits) == 0 || hits[0].(map[string]any)["name"] != "createOrder" {
				t.Fatalf("search_tools hits = %v, want createOrder first", hits)
			}

			def, isErr := call(t, cs, LoadTool, map[string]any{"name": "createOrder"})
			if isErr || def["name"] != "createOrder" || def["version"] == "" {
				t.Fatalf("load_tool = %v (isError %v), want createOrder with a version", def, isErr)
			}
			if strings.Contains(mustJSON(t, def["inputSchema"]), "owner") {
				t.Errorf("createOrder's input schema shows the deferred owner: %v", def["inputSchema"])
			}
			version := def["version"].(string)

			ok, isErr := call(t, cs, InvokeTool, map[string]any{
				"name": "createOrder", "version": version,
				"arguments": map[string]any{"item": "desk lamp", "quantity": 2},
			})
			if isErr || ok["status"] != 201.0 {
				t.Fatalf("createOrder = %v (isError %v), want status 201", ok, isErr)
			}
			if body, _ := ok["body"].(map[string]any); body["owner"] != "alice" {
				t.Errorf("created order's owner = %v, want alice (the local caller)", body["owner"])
			}

			bad, isErr := call(t, cs, InvokeTool, map[string]any{
				"name": "createOrder", "arguments": map[string]any{"item": "", "quantity": 2},
			})
			if !isErr || bad["error"] != string(envelope.ValidationFailed) || bad["status"] != 400.0 {
				t.Errorf("createOrder with empty item = %v (isError %v), want validation_failed with status 400", bad, isErr)
			}

			unk, isErr := call(t, cs, InvokeTool, map[string]any{
				"name": "createOrder", "arguments": map[string]any{"item": "lamp", "quantity": 2, "colour": "red"},
			})
			if !isErr || unk["error"] != string(envelope.UnknownArgument) || unk["status"] != nil {
				t.Errorf("createOrder with colour = %v (isError %v), want unknown_argument without status", unk, isErr)
			}

			missing, isErr := call(t, cs, LoadTool, map[string]any{"name": "launchRocket"})
			if !isErr || missing["error"] != string(envelope.UnknownTool) {
				t.Errorf("load_tool(launchRocket) = %v (isError %v), want unknown_tool", missing, isErr)
			}
		})
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestMetaArguments(t *testing.T) {
	cs := connect(t, newServer(t, &Options{}).Handler())
	tests := []struct {
		tool string
		args map[string]any
		code envelope.Code
	}{
		{SearchTool, map[string]any{}, envelope.InvalidType},
		{SearchTool, map[string]any{"query": "orders", "sort": "name"}, envelope.UnknownArgument},
		{SearchTool, map[string]any{"query": 7}, envelope.InvalidType},
		{LoadTool, map[string]any{}, envelope.InvalidType},
		{InvokeTool, map[string]any{"name": "getOrder", "arguments": []any{1}}, envelope.InvalidType},
		{InvokeTool, map[string]any{"name": "nope"}, envelope.UnknownTool},
	}
	for _, tt := range tests {
		got, isErr := call(t, cs, tt.tool, tt.args)
		if !isErr || got["error"] != string(tt.code) || got["status"] != nil {
			t.Errorf("%s(%v) = %v (isError %v), want %s without status", tt.tool, tt.args, got, isErr, tt.code)
		}
	}
}

// rawCall posts one JSON-RPC tools/call to a stateless handler and returns
// the raw response bytes.
func rawCall(t *testing.T, url, tool string, args string) string {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	return string(b)
}

// TestIsErrorOnTheWire checks the raw bytes: isError true on an error
// envelope, absent (not false) on success.
func TestIsErrorOnTheWire(t *testing.T) {
	ts := httptest.NewServer(newServer(t, &Options{Stateless: true}).Handler())
	t.Cleanup(ts.Close)

	ok := rawCall(t, ts.URL, InvokeTool, `{"name":"getOrder","arguments":{"id":1}}`)
	if strings.Contains(ok, "isError") {
		t.Errorf("success response mentions isError:\n%s", ok)
	}
	if !strings.Contains(ok, `\"status\":200`) {
		t.Errorf("success response lacks the envelope's status 200:\n%s", ok)
	}
	bad := rawCall(t, ts.URL, LoadTool, `{"name":"nope"}`)
	if !strings.Contains(bad, `"isError":true`) {
		t.Errorf("error response lacks \"isError\":true:\n%s", bad)
	}
}

func TestOriginAndHost(t *testing.T) {
	s := newServer(t, &Options{AllowedOrigins: []string{"https://app.example"}, Stateless: true})
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	tests := []struct {
		name, origin, host string
		want               int
	}{
		{"no origin", "", "", 200},
		{"allowed origin", "https://app.example", "", 200},
		{"foreign origin", "https://evil.example", "", 403},
		{"null origin", "null", "", 403},
		{"rebound host", "", "evil.example", 403},
		{"localhost host", "", "localhost", 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			if tt.host != "" {
				req.Host = tt.host
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.want {
				t.Errorf("status = %d, want %d", resp.StatusCode, tt.want)
			}
		})
	}
}

func TestRequestBodyBound(t *testing.T) {
	ts := httptest.NewServer(newServer(t, &Options{MaxRequestBytes: 2048, Stateless: true}).Handler())
	t.Cleanup(ts.Close)
	big := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_tools","arguments":{"query":"` + strings.Repeat("a", 4096) + `"}}}`
	req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(big))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("status = %d, want 413", resp.StatusCode)
	}
}

// callerBackend answers 200 with the caller its context carries, so a test
// sees what reached the invoker's hooks.
type callerBackend struct{}

func (callerBackend) Do(ctx context.Context, req *http.Request) (*http.Response, error) {
	sub := "none"
	if c, ok := CallerFromContext(ctx); ok {
		sub = c.Subject
	}
	if v, ok := ctx.Value(hostKey{}).(string); ok {
		sub += "+" + v
	}
	if req.Header.Get("Authorization") != "" {
		sub += "+leaked-authorization"
	}
	b, _ := json.Marshal(map[string]string{"caller": sub})
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(bytes.NewReader(b))}, nil
}

type hostKey struct{}

func callerSource(t testing.TB) Source {
	t.Helper()
	cat, err := catalog.Parse(demo.Description, &catalog.Options{Deferred: demo.Deferred})
	if err != nil {
		t.Fatal(err)
	}
	inv, err := invoke.New(&invoke.Options{Backend: callerBackend{}})
	if err != nil {
		t.Fatal(err)
	}
	return Source{Catalog: cat, Invoker: inv}
}

// whoAmI invokes getOrder against callerBackend and returns the caller it saw.
func whoAmI(t *testing.T, cs *mcp.ClientSession) string {
	t.Helper()
	got, isErr := call(t, cs, InvokeTool, map[string]any{"name": "getOrder", "arguments": map[string]any{"id": 1}})
	if isErr {
		t.Fatalf("getOrder: %v", got)
	}
	return got["body"].(map[string]any)["caller"].(string)
}

func TestLogsHoldNoArgumentValues(t *testing.T) {
	var buf syncBuffer
	s := newServer(t, &Options{Logger: slog.New(slog.NewJSONHandler(&buf, nil))})
	cs := connect(t, s.Handler())
	call(t, cs, InvokeTool, map[string]any{"name": "createOrder", "arguments": map[string]any{"item": "sk_live_SECRETVALUE", "quantity": 1}})
	call(t, cs, InvokeTool, map[string]any{"name": "createOrder", "arguments": map[string]any{"item": "", "quantity": 1}})
	logs := buf.String()
	if strings.Contains(logs, "SECRETVALUE") {
		t.Errorf("an argument value reached the log:\n%s", logs)
	}
	for _, want := range []string{`"tool":"createOrder"`, `"outcome":"ok"`, `"outcome":"validation_failed"`, `"status":400`, `"version":`, `"duration":`} {
		if !strings.Contains(logs, want) {
			t.Errorf("log lacks %s:\n%s", want, logs)
		}
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestServeIO(t *testing.T) {
	s := newServer(t, &Options{})
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ServeIO(ctx, sr, sw) }()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, isErr := call(t, cs, InvokeTool, map[string]any{"name": "createOrder", "arguments": map[string]any{"item": "lamp", "quantity": 1}})
	if isErr || got["body"].(map[string]any)["owner"] != "alice" {
		t.Errorf("createOrder over IO = %v, want success owned by the local caller alice", got)
	}
	cs.Close()
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Error("ServeIO did not return after the client closed")
	}
}

func TestNewErrors(t *testing.T) {
	src := demoSource(t, nil)
	tests := []struct {
		name string
		opts *Options
	}{
		{"nil options", nil},
		{"no sources", &Options{}},
		{"no invoker", &Options{Sources: []Source{{Catalog: src.Catalog}}}},
		{"bad prefix", &Options{Sources: []Source{{Catalog: src.Catalog, Invoker: src.Invoker, Prefix: "a b"}}}},
		{"same prefix twice", &Options{Sources: []Source{src, src}}},
		{"negative body bound", &Options{Sources: []Source{src}, MaxRequestBytes: -1}},
	}
	for _, tt := range tests {
		if _, err := New(tt.opts); err == nil {
			t.Errorf("%s: New succeeded, want an error", tt.name)
		}
	}
}

func TestPrefixes(t *testing.T) {
	a, b := demoSource(t, nil), demoSource(t, nil)
	a.Prefix, b.Prefix = "shop_", "archive_"
	cs := connect(t, newServer(t, &Options{Sources: []Source{a, b}}).Handler())
	def, isErr := call(t, cs, LoadTool, map[string]any{"name": "archive_getOrder"})
	if isErr || def["name"] != "archive_getOrder" {
		t.Errorf("load_tool(archive_getOrder) = %v, want the prefixed definition", def)
	}
	got, isErr := call(t, cs, InvokeTool, map[string]any{"name": "shop_getOrder", "arguments": map[string]any{"id": 3}})
	if isErr || got["status"] != 200.0 {
		t.Errorf("invoke shop_getOrder = %v, want status 200", got)
	}
	found, _ := call(t, cs, SearchTool, map[string]any{"query": "get one order", "limit": 4})
	for _, h := range found["hits"].([]any) {
		name := h.(map[string]any)["name"].(string)
		if !strings.HasPrefix(name, "shop_") && !strings.HasPrefix(name, "archive_") {
			t.Errorf("hit %q carries no source prefix", name)
		}
	}
	if _, isErr := call(t, cs, LoadTool, map[string]any{"name": "getOrder"}); !isErr {
		t.Error("load_tool(getOrder) without a prefix succeeded, want unknown_tool")
	}
}

// TestMain fails the run when goroutines outlive the tests: every session,
// server and client a test starts must be closed by it.
func TestMain(m *testing.M) {
	before := runtime.NumGoroutine()
	code := m.Run()
	// The fuzzing engine keeps goroutines of its own (a signal watcher),
	// so the leak check runs only on plain test runs.
	fuzzing := flag.Lookup("test.fuzz") != nil && flag.Lookup("test.fuzz").Value.String() != ""
	if code == 0 && !testing.Short() && !fuzzing {
		deadline := time.Now().Add(5 * time.Second)
		for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
			http.DefaultClient.CloseIdleConnections()
			time.Sleep(50 * time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > before {
			buf := make([]byte, 1<<20)
			fmt.Fprintf(os.Stderr, "%d goroutines leaked (%d before the tests, %d after):\n%s\n", n-before, before, n, buf[:runtime.Stack(buf, true)])
			code = 1
		}
	}
	os.Exit(code)
}

func benchConnect(b *testing.B, url string) *mcp.ClientSession {
	b.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		b.Fatal(err)
	}
	return cs
}

func callParams(name string, args map[string]any) *mcp.CallToolParams {
	return &mcp.CallToolParams{Name: name, Arguments: args}
}
