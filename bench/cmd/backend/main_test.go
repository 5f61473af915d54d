package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestServeItem(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /items/{id}", serveItem)
	srv := httptest.NewServer(mux)
	defer srv.Close()

	tests := []struct {
		path       string
		wantStatus int
		wantRef    string
	}{
		{"/items/42", http.StatusOK, "bench-item-42"},
		{"/items/0", http.StatusOK, "bench-item-0"},
		{"/items/-1", http.StatusBadRequest, ""},
		{"/items/x", http.StatusBadRequest, ""},
	}
	for _, tt := range tests {
		resp, err := http.Get(srv.URL + tt.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.wantStatus {
			t.Errorf("GET %s: status %d, want %d", tt.path, resp.StatusCode, tt.wantStatus)
			continue
		}
		if tt.wantStatus != http.StatusOK {
			continue
		}
		var item struct {
			Ref   string            `json:"ref"`
			Links map[string]string `json:"links"`
		}
		if err := json.Unmarshal(body, &item); err != nil {
			t.Errorf("GET %s: body is not JSON: %v", tt.path, err)
		}
		if item.Ref != tt.wantRef || item.Links["self"] != tt.path {
			t.Errorf("GET %s: ref %q, links.self %q; want %q, %q", tt.path, item.Ref, item.Links["self"], tt.wantRef, tt.path)
		}
		// The harness promises "about 1 KB of JSON".
		if n := len(body); n < 900 || n > 1100 {
			t.Errorf("GET %s: %d bytes, want about 1 KB", tt.path, n)
		}
	}
}
