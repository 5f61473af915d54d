package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestLeanMatchesSDK sends each request to the SDK's stateless JSON handler
// and to the same handler behind the lean path, and wants the same status,
// Content-Type and bytes back: the lean path may only answer what the SDK
// would have answered, and must hand everything else on untouched.
func TestLeanMatchesSDK(t *testing.T) {
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := strings.TrimPrefix(r.URL.Path, "/items/")
		if id == "500" {
			http.Error(w, "boom", http.StatusInternalServerError)
			return
		}
		// HTML-significant and non-ASCII characters test the text's escaping.
		w.Write([]byte(`{"ref":"bench-item-` + id + `","note":"<b>a & b</b> \u2028 é"}`))
	}))
	defer backend.Close()

	opts := &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}
	sdk := newHandler(config{upstream: backend.URL, opts: opts})
	lean := newHandler(config{upstream: backend.URL, opts: opts, lean: true}).(*leanHandler)
	var served atomic.Int64
	inner := lean.fetch
	lean.fetch = func(r *http.Request, id int) ([]byte, error) {
		b, err := inner(r, id)
		if err == nil {
			served.Add(1)
		}
		return b, err
	}

	call := func(id, args string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"get_item","arguments":` + args + `}}`
	}
	tests := []struct {
		name     string
		method   string
		header   map[string]string
		body     string
		wantLean bool // the lean path answers it itself
	}{
		{"plain call", "POST", nil, call("7", `{"id":7}`), true},
		{"string id", "POST", nil, call(`"req-1"`, `{"id":3}`), true},
		{"zero id", "POST", nil, call("0", `{"id":0}`), true},
		{"protocol header", "POST", map[string]string{"Mcp-Protocol-Version": "2025-06-18"}, call("8", `{"id":8}`), true},
		{"float id", "POST", nil, call("7.5", `{"id":7}`), false},
		{"string argument", "POST", nil, call("9", `{"id":"seven"}`), false},
		{"missing argument", "POST", nil, call("9", `{}`), false},
		{"extra argument", "POST", nil, call("9", `{"id":1,"x":2}`), false},
		{"backend failure", "POST", nil, call("10", `{"id":500}`), false},
		{"unknown tool", "POST", nil, `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"nope","arguments":{}}}`, false},
		{"with _meta", "POST", nil, `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"get_item","arguments":{"id":1},"_meta":{"progressToken":"t"}}}`, false},
		{"tools/list", "POST", nil, `{"jsonrpc":"2.0","id":13,"method":"tools/list"}`, false},
		{"initialize", "POST", nil, `{"jsonrpc":"2.0","id":14,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, false},
		{"notification", "POST", nil, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, false},
		{"batch", "POST", nil, "[" + call("15", `{"id":1}`) + "]", false},
		{"not JSON", "POST", nil, `{"jsonrpc":`, false},
		{"trailing data", "POST", nil, call("16", `{"id":1}`) + ` {}`, false},
		{"unsupported protocol", "POST", map[string]string{"Mcp-Protocol-Version": "1999-01-01"}, call("17", `{"id":1}`), false},
		{"wrong content type", "POST", map[string]string{"Content-Type": "text/plain"}, call("18", `{"id":1}`), false},
		{"JSON-only accept", "POST", map[string]string{"Accept": "application/json"}, call("19", `{"id":1}`), false},
		{"foreign host", "POST", map[string]string{"Host": "evil.example"}, call("20", `{"id":1}`), false},
		{"GET", "GET", nil, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := served.Load()
			want := do(t, sdk, tt.method, tt.header, tt.body)
			served.Store(before) // the SDK's own calls do not count
			got := do(t, lean, tt.method, tt.header, tt.body)
			if got.status != want.status || got.contentType != want.contentType || !bytes.Equal(got.body, want.body) {
				t.Errorf("lean answered %d %q %s\nSDK answered  %d %q %s", got.status, got.contentType, got.body, want.status, want.contentType, want.body)
			}
			if gotLean := served.Load() > before; gotLean != tt.wantLean {
				t.Errorf("answered on the lean path = %v, want %v", gotLean, tt.wantLean)
			}
		})
	}
}

type answer struct {
	status      int
	contentType string
	body        []byte
}

// do serves one request through h as if it came to 127.0.0.1.
func do(t *testing.T, h http.Handler, method string, header map[string]string, body string) answer {
	t.Helper()
	req := httptest.NewRequest(method, "http://127.0.0.1:8080/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	b, _ := io.ReadAll(rec.Result().Body)
	return answer{rec.Code, rec.Header().Get("Content-Type"), b}
}
