package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestInvoke calls invoke_tool on the embedded server with the SDK's client
// and checks the envelope carries the backend's answer, or its refusal.
func TestInvoke(t *testing.T) {
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":7,"ref":"bench-item-7","path":"` + r.URL.Path + `"}`))
	}))
	defer backend.Close()
	h, err := newHandler(t.Context(), "../../testdata/backend.yaml", backend.URL, false)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).
		Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	tests := []struct {
		args       map[string]any
		wantStatus int
		wantErr    bool
	}{
		{map[string]any{"id": 7}, 200, false},
		{map[string]any{"id": "seven"}, 0, true}, // refused before dispatch: no status
	}
	for _, tt := range tests {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "invoke_tool",
			Arguments: map[string]any{"name": "getItem", "arguments": tt.args}})
		if err != nil {
			t.Fatalf("CallTool(%v): %v", tt.args, err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		var env struct {
			Status int `json:"status"`
			Body   struct {
				Path string `json:"path"`
			} `json:"body"`
		}
		if err := json.Unmarshal([]byte(text), &env); err != nil {
			t.Fatalf("CallTool(%v): envelope is not JSON: %v: %s", tt.args, err, text)
		}
		if env.Status != tt.wantStatus || res.IsError != tt.wantErr {
			t.Errorf("CallTool(%v) = status %d, isError %v; want %d, %v (%s)", tt.args, env.Status, res.IsError, tt.wantStatus, tt.wantErr, text)
		}
		if tt.wantStatus == 200 && env.Body.Path != "/items/7" {
			t.Errorf("CallTool(%v): backend saw path %q, want /items/7", tt.args, env.Body.Path)
		}
	}
}
