package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkCall measures one get_item call through each configuration of
// the server, in process (no listener in front of the handler), with
// -benchmem the allocations per call. The backend is an httptest server in
// the same process, so its share is in every figure; "direct" is that share
// plus the forwarding client, with no MCP at all.
func BenchmarkCall(b *testing.B) {
	item := `{"ref":"bench-item-1",` + strings.Repeat(`"pad":"0123456789abcdef0123456789abcdef",`, 24) + `"end":true}`
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(item))
	}))
	defer backend.Close()

	b.Run("direct", func(b *testing.B) {
		client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := fetch(context.Background(), client, backend.URL+"/items/1"); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, c := range []struct {
		name string
		cfg  config
	}{
		{"bare", config{opts: &mcp.StreamableHTTPOptions{}}},
		{"bare-json", config{opts: &mcp.StreamableHTTPOptions{JSONResponse: true}}},
		{"bare-stateless", config{opts: &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}}},
		{"bare-raw", config{opts: &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}, raw: true}},
		{"lean", config{opts: &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}, lean: true}},
	} {
		b.Run(c.name, func(b *testing.B) {
			c.cfg.upstream = backend.URL
			h := newHandler(c.cfg)
			session := initialize(b, h)
			body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_item","arguments":{"id":1}}}`
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest("POST", "http://127.0.0.1/mcp", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
				if session != "" {
					req.Header.Set("Mcp-Session-Id", session)
				}
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "bench-item-1") {
					b.Fatalf("answer %d: %.300s", rec.Code, rec.Body)
				}
			}
		})
	}
}

// initialize opens a session on h and returns its id ("" when stateless).
func initialize(b *testing.B, h http.Handler) string {
	b.Helper()
	post := func(session, body string) *httptest.ResponseRecorder {
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
	rec := post("", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}`)
	if rec.Code != http.StatusOK {
		b.Fatalf("initialize: %d %s", rec.Code, rec.Body)
	}
	session := rec.Header().Get("Mcp-Session-Id")
	if rec := post(session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); rec.Code != http.StatusAccepted {
		b.Fatalf("initialized: %d %s", rec.Code, rec.Body)
	}
	return session
}
