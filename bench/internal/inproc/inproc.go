// Package inproc drives an MCP streamable HTTP handler in process, without a
// listener, for bench's allocation benchmarks: one request, one recorder.
package inproc

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Post sends one JSON-RPC message to h as a client on 127.0.0.1 would,
// with the session's headers when session is not empty.
func Post(h http.Handler, session, body string) *httptest.ResponseRecorder {
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

// Initialize opens a session on h (initialize, then
// notifications/initialized) and returns its id, "" when h is stateless.
func Initialize(tb testing.TB, h http.Handler) string {
	tb.Helper()
	rec := Post(h, "", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
	if rec.Code != http.StatusOK {
		tb.Fatalf("initialize: %d %s", rec.Code, rec.Body)
	}
	session := rec.Header().Get("Mcp-Session-Id")
	if rec := Post(h, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); rec.Code != http.StatusAccepted {
		tb.Fatalf("notifications/initialized: %d %s", rec.Code, rec.Body)
	}
	return session
}

// ItemServer is a backend for benchmarks: every path answers the same
// JSON object of about 1 KB, which holds the marker "bench-item-1".
func ItemServer() *httptest.Server {
	item := `{"ref":"bench-item-1",` + strings.Repeat(`"pad":"0123456789abcdef0123456789abcdef",`, 24) + `"end":true}`
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(item))
	}))
}
