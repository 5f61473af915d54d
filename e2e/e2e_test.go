// Package e2e runs the built sezzlee binary the way users do: `sezzlee
// demo` and `sezzlee serve` over streamable HTTP and stdio, driven by the
// official Go MCP SDK and by the official TypeScript MCP SDK.
package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/sezzlee/sezzlee/demo"
	"github.com/sezzlee/sezzlee/envelope"
)

// bin is the sezzlee binary built once for every test.
var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sezzlee-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "sezzlee")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/sezzlee/sezzlee/cmd/sezzlee").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// proc is a running sezzlee.
type proc struct {
	cmd    *exec.Cmd
	stdout *bufio.Scanner
	stderr *lockedBuffer
	exited chan struct{}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// start runs sezzlee with args and env, stopping it (SIGINT) when the test ends.
func start(t *testing.T, env []string, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	p := &proc{cmd: cmd, stderr: &lockedBuffer{}, exited: make(chan struct{})}
	cmd.Stderr = p.stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.stdout = bufio.NewScanner(out)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-p.exited:
		case <-time.After(15 * time.Second):
			t.Errorf("sezzlee did not stop within 15s of SIGINT")
			_ = cmd.Process.Kill()
			<-p.exited
		}
	})
	return p
}

// url reads the endpoint URL sezzlee prints as its first line.
func (p *proc) url(t *testing.T) string {
	t.Helper()
	line := make(chan string, 1)
	go func() {
		if p.stdout.Scan() {
			line <- p.stdout.Text()
		}
		close(line)
		for p.stdout.Scan() {
		}
	}()
	select {
	case u, ok := <-line:
		if !ok || !strings.HasPrefix(u, "http://127.0.0.1:") {
			t.Fatalf("first line = %q, want the endpoint URL; stderr:\n%s", u, p.stderr)
		}
		return u
	case <-time.After(60 * time.Second):
		t.Fatalf("no URL within 60s; stderr:\n%s", p.stderr)
	}
	return ""
}

func connectHTTP(t *testing.T, url string, client *http.Client) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: client}, nil)
	if err != nil {
		t.Fatalf("Connect(%s): %v", url, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// result is a meta-tool's decoded answer.
type result struct {
	m     map[string]any
	raw   string
	isErr bool
}

func (r result) str(k string) string { s, _ := r.m[k].(string); return s }

func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) result {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content blocks, want 1", tool, len(res.Content))
	}
	text := res.Content[0].(*mcp.TextContent).Text
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		t.Fatalf("%s: not JSON: %v\n%s", tool, err, text)
	}
	_, hasStatus := m["status"]
	_, hasError := m["error"]
	if hasStatus || hasError {
		if err := envelope.Validate([]byte(text)); err != nil {
			t.Errorf("%s: the envelope does not match spec/invoke-result.schema.json: %v\n%s", tool, err, text)
		}
	}
	return result{m: m, raw: text, isErr: res.IsError}
}

// loop checks search, load and invoke against the demo, with a success and
// an error from each layer.
func loop(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	found := call(t, cs, "search_tools", map[string]any{"query": "place a new order"})
	hits, _ := found.m["hits"].([]any)
	if found.isErr || len(hits) == 0 || hits[0].(map[string]any)["name"] != "createOrder" {
		t.Fatalf("search_tools = %s, want createOrder first", found.raw)
	}
	def := call(t, cs, "load_tool", map[string]any{"name": "createOrder"})
	if def.isErr || def.str("version") == "" {
		t.Fatalf("load_tool = %s, want a definition with a version", def.raw)
	}
	ok := call(t, cs, "invoke_tool", map[string]any{"name": "createOrder", "version": def.str("version"),
		"arguments": map[string]any{"item": "mechanical keyboard", "quantity": 1}})
	if ok.isErr || ok.m["status"] != 201.0 || !strings.Contains(ok.raw, `"owner":"alice"`) {
		t.Errorf("createOrder = %s (isError %v), want 201 owned by alice", ok.raw, ok.isErr)
	}
	bad := call(t, cs, "invoke_tool", map[string]any{"name": "createOrder",
		"arguments": map[string]any{"item": "", "quantity": 500}})
	if !bad.isErr || bad.str("error") != "validation_failed" || bad.m["status"] != 400.0 {
		t.Errorf("createOrder(item \"\", quantity 500) = %s, want validation_failed with status 400", bad.raw)
	}
	fields := map[string]int{}
	for _, f := range asList(bad.m["fields"]) {
		fields[f.(map[string]any)["name"].(string)]++
	}
	if fields["item"] != 2 || fields["quantity"] != 1 {
		t.Errorf("fields = %v, want item twice (required, minimum length) and quantity once", fields)
	}
	unk := call(t, cs, "invoke_tool", map[string]any{"name": "createOrder",
		"arguments": map[string]any{"item": "lamp", "quantity": 1, "colour": "red"}})
	if !unk.isErr || unk.str("error") != "unknown_argument" || unk.m["status"] != nil {
		t.Errorf("createOrder(colour) = %s, want unknown_argument without status", unk.raw)
	}
	nope := call(t, cs, "load_tool", map[string]any{"name": "launchRocket"})
	if !nope.isErr || nope.str("error") != "unknown_tool" {
		t.Errorf("load_tool(launchRocket) = %s, want unknown_tool", nope.raw)
	}
}

func asList(v any) []any { l, _ := v.([]any); return l }

func TestDemoHTTP(t *testing.T) {
	p := start(t, nil, "demo", "--listen", "127.0.0.1:0")
	cs := connectHTTP(t, p.url(t), nil)
	loop(t, cs)

	t.Run("leak filter", func(t *testing.T) {
		r := call(t, cs, "invoke_tool", map[string]any{"name": "getOrderInvoice", "arguments": map[string]any{"id": 1}})
		if !r.isErr || r.m["status"] != 500.0 {
			t.Errorf("getOrderInvoice = %s, want an error with status 500", r.raw)
		}
		for _, leak := range []string{"Password", "Tr0ub4dor", "InvoiceRenderer.cs", "orders-db.internal"} {
			if strings.Contains(r.raw, leak) {
				t.Errorf("getOrderInvoice leaked %q: %s", leak, r.raw)
			}
		}
	})
	t.Run("response too large, then narrowed", func(t *testing.T) {
		r := call(t, cs, "invoke_tool", map[string]any{"name": "listOrders", "arguments": map[string]any{}})
		if !r.isErr || r.str("error") != "response_too_large" || !strings.Contains(r.raw, `{"name":"limit"`) {
			t.Errorf("listOrders = %.400s, want response_too_large naming limit in fields", r.raw)
		}
		r = call(t, cs, "invoke_tool", map[string]any{"name": "listOrders", "arguments": map[string]any{"limit": 10}})
		if r.isErr || r.m["status"] != 200.0 {
			t.Errorf("listOrders(limit 10) = %.400s, want 200", r.raw)
		}
	})
	t.Run("rate limited", func(t *testing.T) {
		var r result
		for range 2 {
			r = call(t, cs, "invoke_tool", map[string]any{"name": "getOrderStats", "arguments": map[string]any{}})
		}
		if !r.isErr || r.str("error") != "rate_limited" || r.m["retryable"] != true || r.m["retryAfterSeconds"] != 1.0 {
			t.Errorf("second getOrderStats = %s, want rate_limited, retryable, retryAfterSeconds 1", r.raw)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		start := time.Now()
		r := call(t, cs, "invoke_tool", map[string]any{"name": "exportOrders", "arguments": map[string]any{}})
		if !r.isErr || r.str("error") != "invoke_timeout" || r.m["status"] != nil {
			t.Errorf("exportOrders = %s, want invoke_timeout without status", r.raw)
		}
		if d := time.Since(start); d > 15*time.Second {
			t.Errorf("exportOrders took %v, want the demo's 5s call timeout", d)
		}
	})
	if logs := p.stderr.String(); strings.Contains(logs, "mechanical keyboard") {
		t.Errorf("an argument value reached the log:\n%s", logs)
	}
}

func TestDemoStdio(t *testing.T) {
	cmd := exec.Command(bin, "demo", "--stdio")
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	c := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	loop(t, cs)
	if err := cs.Close(); err != nil {
		t.Logf("Close: %v", err)
	}
	if !strings.Contains(stderr.String(), `"command"`) || !strings.Contains(stderr.String(), "outcome=validation_failed") {
		t.Errorf("stderr lacks the client configuration or the call log:\n%s", stderr.String())
	}
}

// TestServe runs the gateway in front of the demo API on loopback, with a
// config file: API-key authentication, the upstream's key from the
// environment, and owner filled from the caller's subject.
func TestServe(t *testing.T) {
	api := httptest.NewServer(demo.NewHandler(&demo.Options{Key: "upstream-secret"}))
	t.Cleanup(api.Close)
	dir := t.TempDir()
	spec := filepath.Join(dir, "orders.yaml")
	if err := os.WriteFile(spec, demo.Description, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "sezzlee.yaml")
	writeFile(t, cfg, fmt.Sprintf(`
auth:
  apiKeys:
    - {name: alice, env: E2E_KEY_ALICE}
sources:
  - spec: %s
    upstream: %s
    prefix: shop_
    allowPrivateNetworks: true
    deferred: {owner: subject}
    credentials:
      demoKey: {env: E2E_UPSTREAM_KEY}
`, spec, api.URL))
	p := start(t, []string{"E2E_KEY_ALICE=client-key-0123456789", "E2E_UPSTREAM_KEY=upstream-secret"},
		"serve", "--config", cfg, "--listen", "127.0.0.1:0", "--watch")
	url := p.url(t)

	resp, err := http.Post(url, "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Errorf("request without a key: status %d, want 401", resp.StatusCode)
	}

	cs := connectHTTP(t, url, &http.Client{Transport: bearer("client-key-0123456789")})
	def := call(t, cs, "load_tool", map[string]any{"name": "shop_createOrder"})
	r := call(t, cs, "invoke_tool", map[string]any{"name": "shop_createOrder", "version": def.str("version"),
		"arguments": map[string]any{"item": "lamp", "quantity": 3}})
	if r.isErr || r.m["status"] != 201.0 || !strings.Contains(r.raw, `"owner":"alice"`) {
		t.Fatalf("shop_createOrder = %s, want 201 owned by alice", r.raw)
	}
	if strings.Contains(p.stderr.String(), "upstream-secret") || strings.Contains(p.stderr.String(), "client-key") {
		t.Errorf("a secret reached the log:\n%s", p.stderr)
	}

	// --watch: a changed description is reloaded; the old version is stale.
	changed := bytes.ReplaceAll(demo.Description, []byte("maximum: 100"), []byte("maximum: 50"))
	writeFile(t, spec, string(changed))
	deadline := time.Now().Add(20 * time.Second)
	for {
		d2 := call(t, cs, "load_tool", map[string]any{"name": "shop_createOrder"})
		if d2.str("version") != def.str("version") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the description changed but shop_createOrder kept version %s; stderr:\n%s", def.str("version"), p.stderr)
		}
		time.Sleep(200 * time.Millisecond)
	}
	stale := call(t, cs, "invoke_tool", map[string]any{"name": "shop_createOrder", "version": def.str("version"),
		"arguments": map[string]any{"item": "lamp", "quantity": 3}})
	if stale.str("error") != "tool_changed" {
		t.Errorf("call pinned to the replaced version = %s, want tool_changed", stale.raw)
	}

	// SIGHUP reloads too, and a broken description keeps the current one.
	writeFile(t, spec, "openapi: [")
	_ = p.cmd.Process.Signal(syscall.SIGHUP)
	time.Sleep(time.Second)
	if r := call(t, cs, "load_tool", map[string]any{"name": "shop_createOrder"}); r.isErr {
		t.Errorf("after a failed reload load_tool = %s, want the previous definition", r.raw)
	}
	if !strings.Contains(p.stderr.String(), "reload failed") {
		t.Errorf("stderr does not report the failed reload:\n%s", p.stderr)
	}
}

type bearer string

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestUsageErrors checks that bad flags and configurations fail with one
// clear line and exit status 2, before anything listens.
func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "orders.yaml")
	writeFile(t, spec, string(demo.Description))
	badCfg := filepath.Join(dir, "bad.yaml")
	writeFile(t, badCfg, "sources:\n  - spec: x\n    upstreem: https://a.example\n")
	credCfg := filepath.Join(dir, "cred.yaml")
	writeFile(t, credCfg, fmt.Sprintf("sources:\n  - spec: %s\n    upstream: https://a.example\n    credentials:\n      demoKey: {env: E2E_SURELY_UNSET}\n", spec))
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"nothing to serve", []string{"serve"}, "nothing to serve"},
		{"spec without upstream", []string{"serve", "--spec", spec}, "--spec and --upstream go together"},
		{"unknown flag", []string{"serve", "--lisen", "x"}, "flag provided but not defined"},
		{"beyond loopback without auth", []string{"serve", "--spec", spec, "--upstream", "https://a.example", "--listen", "0.0.0.0:0"}, "requires authentication"},
		{"unknown config key", []string{"serve", "--config", badCfg}, "line 3: field upstreem not found"},
		{"missing config file", []string{"serve", "--config", filepath.Join(dir, "nope.yaml")}, "no such file"},
		{"unset credential variable", []string{"serve", "--config", credCfg}, "E2E_SURELY_UNSET is not set"},
		{"stdio and listen", []string{"serve", "--spec", spec, "--upstream", "https://a.example", "--stdio", "--listen", "127.0.0.1:0"}, "exclude each other"},
		{"demo beyond loopback", []string{"demo", "--listen", "0.0.0.0:0"}, "loopback only"},
		{"demo extra argument", []string{"demo", "now"}, "unexpected argument"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(bin, tt.args...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			cmd.Stdout = io.Discard
			err := cmd.Run()
			code := cmd.ProcessState.ExitCode()
			if code != 2 || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("exit %d (%v), stderr %q; want exit 2 and %q", code, err, stderr.String(), tt.want)
			}
		})
	}
}

// TestGracefulShutdown interrupts the demo while a slow call runs: the call
// still gets its envelope, and the process exits on its own.
func TestGracefulShutdown(t *testing.T) {
	p := start(t, nil, "demo", "--listen", "127.0.0.1:0")
	cs := connectHTTP(t, p.url(t), nil)
	done := make(chan result, 1)
	go func() {
		done <- call(t, cs, "invoke_tool", map[string]any{"name": "exportOrders", "arguments": map[string]any{}})
	}()
	time.Sleep(time.Second) // let the call reach the backend
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-done:
		if r.str("error") != "invoke_timeout" {
			t.Errorf("call in flight at shutdown = %s, want its invoke_timeout envelope", r.raw)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the call in flight got no answer")
	}
	select {
	case <-p.exited:
		if code := p.cmd.ProcessState.ExitCode(); code != 0 {
			t.Errorf("exit status %d after SIGTERM, want 0", code)
		}
	case <-time.After(15 * time.Second):
		t.Error("sezzlee did not exit after SIGTERM")
	}
}

// TestServeStdio runs the gateway for one client over stdio: the protocol
// has stdout to itself, and calls reach the remote API.
func TestServeStdio(t *testing.T) {
	api := httptest.NewServer(demo.NewHandler(nil))
	t.Cleanup(api.Close)
	spec := filepath.Join(t.TempDir(), "orders.yaml")
	writeFile(t, spec, string(demo.Description))
	cmd := exec.Command(bin, "serve", "--stdio", "--spec", spec, "--upstream", api.URL, "--allow-private-networks", "--prefix", "shop_", "--deferred", "owner")
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	c := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("Connect: %v\n%s", err, stderr.String())
	}
	defer cs.Close()
	r := call(t, cs, "invoke_tool", map[string]any{"name": "shop_getOrder", "arguments": map[string]any{"id": 5}})
	if r.isErr || r.m["status"] != 200.0 {
		t.Errorf("shop_getOrder over stdio = %s, want 200", r.raw)
	}
	// No caller on a bare stdio gateway: the deferred owner is missing.
	r = call(t, cs, "invoke_tool", map[string]any{"name": "shop_listOrders", "arguments": map[string]any{"limit": 1}})
	if r.str("error") != "deferred_value_missing" || r.m["status"] != nil {
		t.Errorf("shop_listOrders without a caller = %s, want deferred_value_missing", r.raw)
	}

	// --local-caller names the stdio caller, whose subject fills owner.
	cmd = exec.Command(bin, "serve", "--stdio", "--spec", spec, "--upstream", api.URL, "--allow-private-networks", "--deferred", "owner", "--local-caller", "bob")
	cmd.Stderr = &stderr
	cs2, err := c.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("Connect: %v\n%s", err, stderr.String())
	}
	defer cs2.Close()
	r = call(t, cs2, "invoke_tool", map[string]any{"name": "createOrder", "arguments": map[string]any{"item": "pen", "quantity": 1}})
	if r.isErr || r.m["status"] != 201.0 {
		t.Fatalf("createOrder as bob = %s, want 201", r.raw)
	}
	if body, _ := r.m["body"].(map[string]any); body["owner"] != "bob" {
		t.Errorf("createOrder as bob = %s, want owner bob", r.raw)
	}
}
