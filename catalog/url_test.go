package catalog

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sezzlee/sezzlee/ssrf"
)

const remoteMain = `openapi: 3.0.3
info: {title: remote, version: "1"}
paths:
  /pets:
    post:
      operationId: addPet
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                pet: {$ref: 'schemas/pet.yaml'}
                local: {$ref: 'file:///etc/passwd'}
`

func remoteServer(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/api/openapi.yaml", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(remoteMain)) })
	mux.HandleFunc("/api/schemas/pet.yaml", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("type: object\nproperties:\n  name: {type: string}\n"))
	})
	mux.HandleFunc("/big.yaml", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(remoteMain + "# " + strings.Repeat("x", 4096) + "\n"))
	})
	mux.HandleFunc("/slow.yaml", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(5 * time.Second):
		case <-r.Context().Done():
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestLoadURL(t *testing.T) {
	srv := remoteServer(t)
	c, err := Load(t.Context(), srv.URL+"/api/openapi.yaml", &Options{AllowPrivateNetworks: true})
	if err != nil {
		t.Fatal(err)
	}
	p := props(t, mustTool(t, c, "addPet"))
	if got := compact(p["pet"]); got != `{"properties":{"name":{"type":"string"}},"type":"object"}` {
		t.Errorf("a relative ref fetched beside the URL: pet = %s", got)
	}
	if got := compact(p["local"]); got != `{}` {
		t.Errorf("a file: ref from a remote description must be refused, got %s", got)
	}
	if !hasWarning(c, "properties/local/$ref", "not an http(s) URL") {
		t.Errorf("no warning for the file: ref: %v", c.Warnings)
	}
}

func TestLoadURLRefusesPrivateAddresses(t *testing.T) {
	srv := remoteServer(t) // on loopback
	_, err := Load(t.Context(), srv.URL+"/api/openapi.yaml", nil)
	var le *LoadError
	if !errors.As(err, &le) || le.Code != CodeUnreadable || !errors.Is(err, ssrf.ErrBlocked) {
		t.Errorf("err = %v, want an unreadable *LoadError wrapping ssrf.ErrBlocked", err)
	}
}

func TestLoadURLBounds(t *testing.T) {
	srv := remoteServer(t)
	tests := []struct {
		name, path string
		opts       Options
		code       string
		msg        string
	}{
		{"too large", "/big.yaml", Options{AllowPrivateNetworks: true, MaxBytes: 1024}, CodeTooLarge, "larger than 1024 bytes"},
		{"timeout", "/slow.yaml", Options{AllowPrivateNetworks: true, FetchTimeout: 200 * time.Millisecond}, CodeUnreadable, "cannot read"},
		{"not found", "/missing.yaml", Options{AllowPrivateNetworks: true}, CodeUnreadable, "404"},
	}
	for _, tt := range tests {
		start := time.Now()
		_, err := Load(t.Context(), srv.URL+tt.path, &tt.opts)
		var le *LoadError
		if !errors.As(err, &le) || le.Code != tt.code || !strings.Contains(le.Error(), tt.msg) {
			t.Errorf("%s: err = %v, want %s containing %q", tt.name, err, tt.code, tt.msg)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%s: took %v", tt.name, d)
		}
	}
}
