package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// BenchmarkInvoke measures one invoke_tool call through mcpserver's handler,
// in process, the counterpart of bareserver's BenchmarkCall: with
// -benchmem, the bytes and allocations one call costs sezzlee.
func BenchmarkInvoke(b *testing.B) {
	item := `{"ref":"bench-item-1",` + strings.Repeat(`"pad":"0123456789abcdef0123456789abcdef",`, 24) + `"end":true}`
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(item))
	}))
	defer backend.Close()
	for _, mode := range []struct {
		name      string
		stateless bool
	}{{"stateful", false}, {"stateless", true}} {
		b.Run(mode.name, func(b *testing.B) {
			h, err := newHandler(b.Context(), "../../testdata/backend.yaml", backend.URL, mode.stateless)
			if err != nil {
				b.Fatal(err)
			}
			session := initialize(b, h)
			body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"invoke_tool","arguments":{"name":"getItem","arguments":{"id":1}}}}`
			b.ReportAllocs()
			for b.Loop() {
				rec := post(h, session, body)
				if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "bench-item-1") {
					b.Fatalf("answer %d: %.300s", rec.Code, rec.Body)
				}
			}
		})
	}
}

func post(h http.Handler, session, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("POST", "http://127.0.0.1/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// initialize opens a session on h and returns its id ("" when stateless).
func initialize(b *testing.B, h http.Handler) string {
	b.Helper()
	rec := post(h, "", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}`)
	if rec.Code != http.StatusOK {
		b.Fatalf("initialize: %d %s", rec.Code, rec.Body)
	}
	session := rec.Header().Get("Mcp-Session-Id")
	if rec := post(h, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); rec.Code != http.StatusAccepted {
		b.Fatalf("initialized: %d %s", rec.Code, rec.Body)
	}
	return session
}
