package invoke

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/sezzlee/sezzlee/catalog"
)

// TestConcurrentCredentialsNeverCross runs many calls at once, each for a
// different caller with its own token; every backend request must carry
// exactly its own caller's token.
func TestConcurrentCredentialsNeverCross(t *testing.T) {
	cat := mustParse(t, "testdata/pets.yaml", nil)
	be := Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"auth":%q,"key":%q}`, r.Header.Get("Authorization"), r.Header.Get("X-Api-Key"))
	}))
	inv, err := New(&Options{
		Backend: be,
		Credentials: func(ctx context.Context, _ *catalog.Tool, s *catalog.SecurityScheme) (string, bool) {
			c := CallerFromContext(ctx)
			return s.Name + "-secret-of-" + c, c != ""
		},
		Deferred: func(ctx context.Context, _ *catalog.Tool, _ string) (any, bool, error) {
			return CallerFromContext(ctx), true, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 200)
	for i := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			caller := fmt.Sprintf("caller%03d", i)
			ctx := WithCaller(bg, caller)
			tool, want := "updatePet", `{"auth":"Bearer bearer-secret-of-`+caller+`","key":""}`
			if i%2 == 0 {
				tool, want = "getPet", `{"auth":"","key":"key-secret-of-`+caller+`"}`
			}
			env := inv.Invoke(ctx, cat, Call{Tool: tool, Arguments: []byte(`{"id":1}`)})
			if string(env.Body) != want {
				errs <- fmt.Sprintf("%s got %s, want %s", caller, env.Body, want)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestCredentialSchemes: the first security alternative the host can fully
// satisfy is used; apiKey, bearer and basic are placed as declared, and no
// header of the agent's own reaches the backend.
func TestCredentialSchemes(t *testing.T) {
	cat := mustParse(t, "testdata/pets.yaml", nil)
	tests := []struct {
		name    string
		secrets StaticCredentials
		tool    string
		header  string
		want    string
	}{
		{"bearer first", StaticCredentials{"bearer": "tok", "basic": "u:p"}, "updatePet", "Authorization", "Bearer tok"},
		{"basic when bearer is missing", StaticCredentials{"basic": "u:p"}, "updatePet", "Authorization", "Basic " + base64.StdEncoding.EncodeToString([]byte("u:p"))},
		{"none satisfiable", StaticCredentials{"other": "x"}, "updatePet", "Authorization", ""},
		{"apiKey header", StaticCredentials{"key": "k1"}, "getPet", "X-Api-Key", "k1"},
		{"apiKey cookie", StaticCredentials{"sid": "c1"}, "createPet", "Cookie", "sid=c1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newRecordingServer(t)
			inv := newTestInvoker(t, srv.URL, func(o *Options) {
				o.Credentials = tt.secrets.Credentials
				o.Deferred = tenant("acme", nil)
			})
			// The caller's own request context carries nothing that could leak:
			// requests are built from a clean slate.
			args := `{"id":1}`
			if tt.tool == "createPet" {
				args = `{}`
			}
			env := inv.Invoke(bg, cat, Call{Tool: tt.tool, Arguments: []byte(args)})
			if env.IsError() {
				t.Fatalf("envelope %s", envJSON(env))
			}
			h := srv.got().Header
			if got := h.Get(tt.header); got != tt.want {
				t.Errorf("%s = %q, want %q", tt.header, got, tt.want)
			}
		})
	}
}

// TestSecretsNeverLeak: a credential appears in no envelope and no log line,
// whatever happens to the call.
func TestSecretsNeverLeak(t *testing.T) {
	const secret = "sk_live_TOPSECRET"
	cat := mustParse(t, "testdata/pets.yaml", nil)
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	backends := map[string]Backend{
		"echo": Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(500)
			io.WriteString(w, "boom "+r.Header.Get("Authorization"))
		})),
		"panic": Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { panic(r.Header.Get("Authorization")) })),
	}
	if be, err := Remote("http://127.0.0.1:1", &RemoteOptions{AllowPrivateNetworks: true}); err == nil {
		backends["refused"] = be
	}
	for name, be := range backends {
		inv, _ := New(&Options{Backend: be, Logger: logger, Credentials: StaticCredentials{"bearer": secret}.Credentials})
		for _, args := range []string{`{"id":1}`, `{"id":"x"}`} {
			env := inv.Invoke(bg, cat, Call{Tool: "updatePet", Arguments: []byte(args)})
			if strings.Contains(envJSON(env), secret) {
				t.Errorf("%s: the secret reached the envelope: %s", name, envJSON(env))
			}
		}
	}
	if strings.Contains(logs.String(), secret) {
		t.Errorf("the secret reached the log:\n%s", logs.String())
	}
	if logs.Len() == 0 {
		t.Error("nothing was logged at debug level; the test proves nothing")
	}
}

// TestBrokenCredentialIsTheHostsFault: a configured secret that cannot be a
// header value answers internal_error, naming neither the secret nor
// blaming the agent's arguments.
func TestBrokenCredentialIsTheHostsFault(t *testing.T) {
	cat := mustParse(t, "testdata/pets.yaml", nil)
	srv := newRecordingServer(t)
	var logs bytes.Buffer
	inv := newTestInvoker(t, srv.URL, func(o *Options) {
		o.Credentials = StaticCredentials{"bearer": "tok\r\nX-Admin: 1"}.Credentials
		o.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	})
	env := inv.Invoke(bg, cat, Call{Tool: "updatePet", Arguments: []byte(`{"id":1}`)})
	if env.Error != "internal_error" || env.Reference == "" || srv.hits.Load() != 0 || len(env.Fields) != 0 {
		t.Errorf("envelope %s (hits %d), want internal_error with a reference and no fields", envJSON(env), srv.hits.Load())
	}
	if strings.Contains(envJSON(env)+logs.String(), "tok") {
		t.Errorf("the secret leaked: %s\n%s", envJSON(env), logs.String())
	}
	if !strings.Contains(logs.String(), env.Reference) || !strings.Contains(logs.String(), "bearer") {
		t.Errorf("the log does not name the reference and scheme:\n%s", logs.String())
	}
}
