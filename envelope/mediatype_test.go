package envelope

import (
	"net/http"
	"testing"
)

// TestMediaType holds the shortcut for the common values to what
// mime.ParseMediaType gives for them, next to the values it parses.
func TestMediaType(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{"application/json", "application/json"},
		{"application/json; charset=utf-8", "application/json"},
		{"application/json;charset=utf-8", "application/json"},
		{"Application/JSON", "application/json"},
		{"application/problem+json; charset=\"utf-8\"", "application/problem+json"},
		{"text/html; bad", "text/html"},
		{"not a type", ""},
	} {
		h := http.Header{}
		if tt.in != "" {
			h.Set("Content-Type", tt.in)
		}
		if got := mediaType(h); got != tt.want {
			t.Errorf("mediaType(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
