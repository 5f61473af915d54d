package mcpserver

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/sezzlee/sezzlee/catalog"
	"github.com/sezzlee/sezzlee/envelope"
	"github.com/sezzlee/sezzlee/invoke"
)

// gateBackend holds every request until release is closed.
type gateBackend struct {
	started chan struct{}
	release chan struct{}
	once    sync.Once
}

func (g *gateBackend) Do(ctx context.Context, req *http.Request) (*http.Response, error) {
	g.once.Do(func() { close(g.started) })
	select {
	case <-g.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(bytes.NewReader([]byte(`{"text":"hello"}`)))}, nil
}

func notesSource(t *testing.T, file string, inv *invoke.Invoker) Source {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Parse(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	return Source{Catalog: cat, Invoker: inv}
}

func TestReload(t *testing.T) {
	gate := &gateBackend{started: make(chan struct{}), release: make(chan struct{})}
	inv, err := invoke.New(&invoke.Options{Backend: gate, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	s := newServer(t, &Options{Sources: []Source{notesSource(t, "testdata/notes-v1.yaml", inv)}})
	cs := connect(t, s.Handler())

	def, _ := call(t, cs, LoadTool, map[string]any{"name": "getNote"})
	v1 := def["version"].(string)

	type result struct {
		got   map[string]any
		isErr bool
	}
	inflight := make(chan result, 1)
	go func() {
		got, isErr := call(t, cs, InvokeTool, map[string]any{"name": "getNote", "version": v1, "arguments": map[string]any{"id": 1}})
		inflight <- result{got, isErr}
	}()
	<-gate.started

	if err := s.Reload([]Source{notesSource(t, "testdata/notes-v2.yaml", inv)}); err != nil {
		t.Fatalf("Reload: %v", err)
	}
	close(gate.release)
	r := <-inflight
	if r.isErr || r.got["status"] != 200.0 {
		t.Errorf("call in flight during the reload = %v, want it to complete with 200", r.got)
	}

	stale, isErr := call(t, cs, InvokeTool, map[string]any{"name": "getNote", "version": v1, "arguments": map[string]any{"id": 1}})
	if !isErr || stale["error"] != string(envelope.ToolChanged) {
		t.Errorf("call pinned to the replaced version = %v, want tool_changed", stale)
	}
	def2, _ := call(t, cs, LoadTool, map[string]any{"name": "getNote"})
	if v2 := def2["version"]; v2 == v1 || v2 == "" {
		t.Errorf("version after reload = %v, want a new one (was %s)", v2, v1)
	}
	fresh, isErr := call(t, cs, InvokeTool, map[string]any{"name": "getNote", "version": def2["version"], "arguments": map[string]any{"id": "n1"}})
	if isErr {
		t.Errorf("call pinned to the new version = %v, want success", fresh)
	}

	if err := s.Reload(nil); err == nil {
		t.Error("Reload(nil) succeeded, want ErrNoSources")
	}
	if def3, _ := call(t, cs, LoadTool, map[string]any{"name": "getNote"}); def3["version"] != def2["version"] {
		t.Error("a failed reload changed the served sources")
	}
}

// TestReloadUnderLoad reloads repeatedly while clients call: every call
// gets a success or tool_changed, never a transport error. Run with -race.
func TestReloadUnderLoad(t *testing.T) {
	inv, err := invoke.New(&invoke.Options{Backend: okBackend{}})
	if err != nil {
		t.Fatal(err)
	}
	v1 := notesSource(t, "testdata/notes-v1.yaml", inv)
	v2 := notesSource(t, "testdata/notes-v2.yaml", inv)
	s := newServer(t, &Options{Sources: []Source{v1}})
	cs := connect(t, s.Handler())
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			src := v1
			if i%2 == 1 {
				src = v2
			}
			if err := s.Reload([]Source{src}); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	var callers sync.WaitGroup
	for range 4 {
		callers.Add(1)
		go func() {
			defer callers.Done()
			for range 25 {
				res, err := cs.CallTool(context.Background(), callParams(InvokeTool, map[string]any{
					"name": "getNote", "version": v1.Catalog.Tools()[0].Version, "arguments": map[string]any{"id": 1},
				}))
				if err != nil {
					t.Errorf("call during reloads: %v", err)
					return
				}
				text := res.Content[0].(*mcp.TextContent).Text
				if res.IsError && !strings.Contains(text, string(envelope.ToolChanged)) {
					t.Errorf("call during reloads = %s, want success or tool_changed", text)
				}
			}
		}()
	}
	callers.Wait()
	close(stop)
	wg.Wait()
}

type okBackend struct{}

func (okBackend) Do(ctx context.Context, req *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(bytes.NewReader([]byte(`{}`)))}, nil
}
