package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestForward calls get_item through the SDK's own client and checks the
// backend's body comes back as the text block, and a backend failure as an
// isError result.
func TestForward(t *testing.T) {
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/items/500" {
			http.Error(w, "boom", http.StatusInternalServerError)
			return
		}
		w.Write([]byte(`{"path":"` + r.URL.Path + `"}`))
	}))
	defer backend.Close()
	srv := httptest.NewServer(newHandler(config{upstream: backend.URL, opts: &mcp.StreamableHTTPOptions{JSONResponse: true}}))
	defer srv.Close()

	ctx := t.Context()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	tests := []struct {
		id      int
		wantErr bool
		want    string
	}{
		{7, false, `{"path":"/items/7"}`},
		{500, true, "500"},
	}
	for _, tt := range tests {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_item", Arguments: map[string]any{"id": tt.id}})
		if err != nil {
			t.Fatalf("CallTool(%d): %v", tt.id, err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if res.IsError != tt.wantErr || !strings.Contains(text, tt.want) {
			t.Errorf("CallTool(%d) = isError %v, %q; want isError %v, containing %q", tt.id, res.IsError, text, tt.wantErr, tt.want)
		}
	}
	// The SDK validates the typed input: a string id never reaches the backend.
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_item", Arguments: map[string]any{"id": "seven"}})
	if err == nil && !res.IsError {
		t.Errorf("CallTool with a string id succeeded, want a rejection")
	}
}
