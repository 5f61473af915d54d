package main

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sezzlee/sezzlee/bench/internal/inproc"
)

// BenchmarkCall measures one get_item call through each configuration of
// the server, in process (no listener in front of the handler), with
// -benchmem the allocations per call. The backend is an httptest server in
// the same process, so its share is in every figure; "direct" is that share
// plus the forwarding client, with no MCP at all.
func BenchmarkCall(b *testing.B) {
	backend := inproc.ItemServer()
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
		{"lean-sse", config{opts: &mcp.StreamableHTTPOptions{}, lean: true}},
	} {
		b.Run(c.name, func(b *testing.B) {
			c.cfg.upstream = backend.URL
			h := newHandler(c.cfg)
			session := inproc.Initialize(b, h)
			body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_item","arguments":{"id":1}}}`
			b.ReportAllocs()
			for b.Loop() {
				rec := inproc.Post(h, session, body)
				if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "bench-item-1") {
					b.Fatalf("answer %d: %.300s", rec.Code, rec.Body)
				}
			}
		})
	}
}
