package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/sezzlee/sezzlee/bench/internal/inproc"
)

// BenchmarkInvoke measures one invoke_tool call through mcpserver's handler,
// in process, the counterpart of bareserver's BenchmarkCall: with
// -benchmem, the bytes and allocations one call costs sezzlee.
func BenchmarkInvoke(b *testing.B) {
	backend := inproc.ItemServer()
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
			session := inproc.Initialize(b, h)
			body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"invoke_tool","arguments":{"name":"getItem","arguments":{"id":1}}}}`
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
