package mcpserver

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"
)

// FuzzMetaArguments feeds arbitrary bytes to each meta-tool as its
// arguments: every answer is a result or a valid error envelope, never a
// panic.
func FuzzMetaArguments(f *testing.F) {
	s := newServer(f, &Options{})
	f.Add(uint8(0), []byte(`{"query":"list my orders","limit":3,"tag":"orders"}`))
	f.Add(uint8(1), []byte(`{"name":"createOrder"}`))
	f.Add(uint8(2), []byte(`{"name":"createOrder","arguments":{"item":"a","quantity":1},"version":"x"}`))
	f.Add(uint8(2), []byte(`{"name":"getOrder","arguments":{"id":"1/../2"}}`))
	f.Add(uint8(0), []byte(`[1,2]`))
	f.Add(uint8(1), []byte(`{"name":null}`))
	metas := []func(context.Context, json.RawMessage) outcome{s.searchTools, s.loadTool, s.invokeTool}
	f.Fuzz(func(t *testing.T, which uint8, raw []byte) {
		out := metas[int(which)%len(metas)](context.Background(), raw)
		res := result(out)
		if len(res.Content) != 1 {
			t.Fatalf("%d content blocks, want 1", len(res.Content))
		}
		if out.env != nil {
			data, _ := json.Marshal(out.env)
			if err := envelopeValid(data); err != nil {
				t.Fatalf("invalid envelope %s: %v", data, err)
			}
			if res.IsError != out.env.IsError() {
				t.Fatalf("isError %v for envelope %s", res.IsError, data)
			}
		} else if res.IsError {
			t.Fatal("isError set on a success result")
		}
	})
}

// BenchmarkInvokeTool measures one invoke_tool call through the whole
// server: streamable HTTP on loopback, the go-sdk client, the server's
// fast path or the SDK's handler, invoke and the demo handler in-process.
func BenchmarkInvokeTool(b *testing.B) {
	for _, path := range []struct {
		name    string
		disable bool
	}{{"fast-path", false}, {"sdk", true}} {
		b.Run(path.name, func(b *testing.B) {
			s := newServer(b, &Options{DisableFastPath: path.disable})
			ts := httptest.NewServer(s.Handler())
			defer ts.Close()
			cs := benchConnect(b, ts.URL)
			defer cs.Close()
			args := map[string]any{"name": "getOrder", "arguments": map[string]any{"id": 7}}
			b.ReportAllocs()
			for b.Loop() {
				res, err := cs.CallTool(context.Background(), callParams(InvokeTool, args))
				if err != nil || res.IsError {
					b.Fatalf("invoke_tool: %v %v", err, res)
				}
			}
		})
	}
}

// BenchmarkSearchTools measures search_tools on the demo catalog, without
// the transport.
func BenchmarkSearchTools(b *testing.B) {
	s := newServer(b, &Options{})
	raw := json.RawMessage(`{"query":"change the quantity of an order"}`)
	b.ReportAllocs()
	for b.Loop() {
		if out := s.searchTools(context.Background(), raw); out.env != nil {
			b.Fatal(out.env.Message)
		}
	}
}
