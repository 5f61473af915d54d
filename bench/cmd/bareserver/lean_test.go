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

// TestLeanMatchesSDK sends each request to the SDK's handler and to the
// same handler behind the lean path, in each transport mode, and wants the
// same status, Content-Type and bytes back: the lean path may only answer
// what the SDK would have answered, and must hand everything else on
// untouched. Each handler has its own sessions, opened the same way.
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

	call := func(id, args string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"get_item","arguments":` + args + `}}`
	}
	// session names which session a request carries: "" the live one,
	// "none" no header, "unknown" an id never issued, "uninitialized" one
	// whose client never sent notifications/initialized, "deleted" one
	// ended by DELETE.
	tests := []struct {
		name     string
		method   string
		session  string
		header   map[string]string
		body     string
		wantLean bool // the lean path answers it itself
		stateful bool // only meaningful with sessions
	}{
		{name: "plain call", body: call("7", `{"id":7}`), wantLean: true},
		{name: "string id", body: call(`"req-1"`, `{"id":3}`), wantLean: true},
		{name: "zero id", body: call("0", `{"id":0}`), wantLean: true},
		{name: "protocol header", header: map[string]string{"Mcp-Protocol-Version": "2025-06-18"}, body: call("8", `{"id":8}`), wantLean: true},
		{name: "float id", body: call("7.5", `{"id":7}`)},
		{name: "string argument", body: call("9", `{"id":"seven"}`)},
		{name: "missing argument", body: call("9", `{}`)},
		{name: "extra argument", body: call("9", `{"id":1,"x":2}`)},
		{name: "backend failure", body: call("10", `{"id":500}`)},
		{name: "unknown tool", body: `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"nope","arguments":{}}}`},
		{name: "with _meta", body: `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"get_item","arguments":{"id":1},"_meta":{"progressToken":"t"}}}`},
		{name: "tools/list", body: `{"jsonrpc":"2.0","id":13,"method":"tools/list"}`},
		{name: "notification", body: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}`},
		{name: "batch", body: "[" + call("15", `{"id":1}`) + "]"},
		{name: "not JSON", body: `{"jsonrpc":`},
		{name: "trailing data", body: call("16", `{"id":1}`) + ` {}`},
		{name: "unsupported protocol", header: map[string]string{"Mcp-Protocol-Version": "1999-01-01"}, body: call("17", `{"id":1}`)},
		{name: "wrong content type", header: map[string]string{"Content-Type": "text/plain"}, body: call("18", `{"id":1}`)},
		{name: "JSON-only accept", header: map[string]string{"Accept": "application/json"}, body: call("19", `{"id":1}`)},
		{name: "foreign host", header: map[string]string{"Host": "evil.example"}, body: call("20", `{"id":1}`)},
		{name: "foreign origin", header: map[string]string{"Origin": "https://evil.example"}, body: call("21", `{"id":1}`), wantLean: false},
		{name: "GET", method: "GET", session: "none"}, // with a session, GET opens a stream that stays open
		{name: "no session", session: "none", body: call("22", `{"id":1}`), stateful: true},
		{name: "unknown session", session: "unknown", body: call("23", `{"id":1}`), stateful: true},
		{name: "uninitialized session", session: "uninitialized", body: call("24", `{"id":1}`), stateful: true},
		{name: "deleted session", session: "deleted", body: call("25", `{"id":1}`), stateful: true},
	}
	for _, mode := range []struct {
		name string
		opts mcp.StreamableHTTPOptions
	}{
		{"stateless JSON", mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}},
		{"stateful SSE", mcp.StreamableHTTPOptions{}},
		{"stateful JSON", mcp.StreamableHTTPOptions{JSONResponse: true}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			sdk := newHandler(config{upstream: backend.URL, opts: &mode.opts})
			lean := newHandler(config{upstream: backend.URL, opts: &mode.opts, lean: true}).(*leanHandler)
			var served atomic.Int64
			inner := lean.fetch
			lean.fetch = func(r *http.Request, id int) ([]byte, error) {
				b, err := inner(r, id)
				if err == nil {
					served.Add(1)
				}
				return b, err
			}
			sdkSessions, leanSessions := sessions(t, sdk), sessions(t, lean)
			for _, tt := range tests {
				if tt.stateful && mode.opts.Stateless {
					continue
				}
				t.Run(tt.name, func(t *testing.T) {
					method := tt.method
					if method == "" {
						method = "POST"
					}
					want := do(t, sdk, method, sdkSessions[tt.session], tt.header, tt.body)
					before := served.Load()
					got := do(t, lean, method, leanSessions[tt.session], tt.header, tt.body)
					if got.status != want.status || got.contentType != want.contentType || !bytes.Equal(got.body, want.body) {
						t.Errorf("lean answered %d %q %s\nSDK answered  %d %q %s", got.status, got.contentType, got.body, want.status, want.contentType, want.body)
					}
					if gotLean := served.Load() > before; gotLean != tt.wantLean {
						t.Errorf("answered on the lean path = %v, want %v", gotLean, tt.wantLean)
					}
				})
			}
		})
	}
}

// sessions opens on h the sessions the table names, each the way a client
// would, and returns their ids ("" everywhere for a stateless handler).
func sessions(t *testing.T, h http.Handler) map[string]string {
	t.Helper()
	const initialize = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	const initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	open := func(notify bool) string {
		rec := do(t, h, "POST", "", nil, initialize)
		if rec.status != http.StatusOK {
			t.Fatalf("initialize: %d %s", rec.status, rec.body)
		}
		id := rec.session
		if notify {
			if rec := do(t, h, "POST", id, nil, initialized); rec.status != http.StatusAccepted {
				t.Fatalf("notifications/initialized: %d %s", rec.status, rec.body)
			}
		}
		return id
	}
	s := map[string]string{"": open(true), "none": "", "uninitialized": open(false), "deleted": open(true)}
	if s[""] != "" {
		s["unknown"] = "NOSUCHSESSION"
		if rec := do(t, h, "DELETE", s["deleted"], nil, ""); rec.status/100 != 2 {
			t.Fatalf("DELETE: %d %s", rec.status, rec.body)
		}
	}
	return s
}

type answer struct {
	status      int
	contentType string
	session     string
	body        []byte
}

// do serves one request through h as if it came to 127.0.0.1.
func do(t *testing.T, h http.Handler, method, session string, header map[string]string, body string) answer {
	t.Helper()
	req := httptest.NewRequest(method, "http://127.0.0.1:8080/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
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
	return answer{rec.Code, rec.Header().Get("Content-Type"), rec.Header().Get("Mcp-Session-Id"), b}
}
