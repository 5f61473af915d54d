package invoke

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sezzlee/sezzlee/envelope"
)

func TestHandlerPanicIsA500WithNoBody(t *testing.T) {
	cat := mustParse(t, "testdata/pets.yaml", nil)
	for name, h := range map[string]http.HandlerFunc{
		"panic":         func(http.ResponseWriter, *http.Request) { panic("db password is hunter2") },
		"abort":         func(http.ResponseWriter, *http.Request) { panic(http.ErrAbortHandler) },
		"panic-midbody": func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "partial"); panic("x") },
	} {
		t.Run(name, func(t *testing.T) {
			inv, _ := New(&Options{Backend: Handler(h)})
			env := inv.Invoke(bg, cat, Call{Tool: "createPet", Arguments: []byte(`{"name":"a"}`)})
			if env.Status != 500 || len(env.Body) != 0 || strings.Contains(envJSON(env), "hunter2") {
				t.Errorf("envelope %s, want status 500, no body, nothing of the panic", envJSON(env))
			}
		})
	}
}

func TestHandlerRecorderIsBounded(t *testing.T) {
	cat := mustParse(t, "testdata/pets.yaml", nil)
	var rec *recorder
	big := Handler(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		rec = w.(*recorder)
		chunk := bytes.Repeat([]byte("x"), 1<<16)
		for range 64 { // 4 MiB
			w.Write(chunk)
		}
	}))
	inv, _ := New(&Options{Backend: big, MaxResponseBytes: 1000})
	env := inv.Invoke(bg, cat, Call{Tool: "createPet", Arguments: []byte(`{}`)})
	if rec.body.Len() > 1001 {
		t.Errorf("recorder kept %d bytes, want at most 1001", rec.body.Len())
	}
	if rec.size != 4<<20 {
		t.Errorf("recorder counted %d bytes, want %d", rec.size, 4<<20)
	}
	if env.Error != envelope.ResponseTooLarge || env.Payload == nil || env.Payload.Bytes != 4<<20 {
		t.Errorf("envelope %s, want response_too_large counting all %d bytes", envJSON(env), 4<<20)
	}
}

func TestHandlerSniffsContentTypeAndKeepsStatus(t *testing.T) {
	cat := mustParse(t, "testdata/pets.yaml", nil)
	h := Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(201)
		w.Header().Set("X-Late", "ignored") // after WriteHeader: net/http drops it
		io.WriteString(w, `<html>hi</html>`)
	}))
	inv, _ := New(&Options{Backend: h})
	env := inv.Invoke(bg, cat, Call{Tool: "createPet", Arguments: []byte(`{}`)})
	if env.Status != 201 {
		t.Errorf("status = %d, want 201", env.Status)
	}
}

func TestRemoteJoinsBasePathAndNeverFollowsRedirects(t *testing.T) {
	cat := mustParse(t, "testdata/pets.yaml", nil)
	var target atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/pets/7", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/elsewhere", http.StatusFound)
	})
	mux.HandleFunc("/elsewhere", func(w http.ResponseWriter, r *http.Request) { target.Add(1) })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	inv := newTestInvoker(t, srv.URL+"/v1/", func(o *Options) { o.Deferred = tenant("acme", nil) })
	env := inv.Invoke(bg, cat, Call{Tool: "getPet", Arguments: []byte(`{"id":7}`)})
	if env.Status != http.StatusFound || target.Load() != 0 {
		t.Errorf("envelope %s, redirect target hit %d times; want the 302 as is and no hit", envJSON(env), target.Load())
	}
}

func TestRemoteRejectsBadBaseURLs(t *testing.T) {
	for _, u := range []string{"", "ftp://x", "/relative", "http://user:pw@host/", "http://"} {
		if _, err := Remote(u, nil); err == nil {
			t.Errorf("Remote(%q) succeeded, want an error", u)
		}
	}
}

func TestRemoteRefusesPrivateNetworksByDefault(t *testing.T) {
	cat := mustParse(t, "testdata/pets.yaml", nil)
	srv := newRecordingServer(t)
	be, err := Remote(srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	inv, _ := New(&Options{Backend: be})
	env := inv.Invoke(bg, cat, Call{Tool: "createPet", Arguments: []byte(`{}`)})
	if env.Error != envelope.BackendUnreachable || *env.Retryable || srv.hits.Load() != 0 {
		t.Errorf("envelope %s (hits %d), want backend_unreachable, not retryable, never reached", envJSON(env), srv.hits.Load())
	}
}

// TestUnreachable covers backends that cannot be reached: nothing was
// processed, so each answer is retryable.
func TestUnreachable(t *testing.T) {
	cat := mustParse(t, "testdata/pets.yaml", nil)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + l.Addr().String()
	l.Close()
	tlsSrv := httptest.NewUnstartedServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0)
	tlsSrv.StartTLS()
	defer tlsSrv.Close()
	for name, url := range map[string]string{
		"refused port":       refused,
		"unresolvable host":  "http://no-such-host.invalid",
		"untrusted TLS cert": tlsSrv.URL,
	} {
		t.Run(name, func(t *testing.T) {
			inv := newTestInvoker(t, url, func(o *Options) { o.Timeout = 5 * time.Second })
			env := inv.Invoke(bg, cat, Call{Tool: "createPet", Arguments: []byte(`{}`)})
			if env.Error != envelope.BackendUnreachable || env.Status != 0 || env.Retryable == nil || !*env.Retryable {
				t.Errorf("envelope %s, want backend_unreachable, no status, retryable", envJSON(env))
			}
		})
	}
}

// TestBrokenAfterWrite: a connection reset after the request was written may
// have been processed: not retryable, and a POST says it may have taken effect.
func TestBrokenAfterWrite(t *testing.T) {
	cat := mustParse(t, "testdata/pets.yaml", nil)
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.ReadAll(r.Body)
		conn, _, _ := w.(http.Hijacker).Hijack()
		conn.Close()
	}))
	defer srv.Close()
	inv := newTestInvoker(t, srv.URL, nil)
	env := inv.Invoke(bg, cat, Call{Tool: "createPet", Arguments: []byte(`{"name":"a"}`)})
	if env.Error != envelope.BackendUnreachable || *env.Retryable || hits.Load() == 0 {
		t.Fatalf("envelope %s (hits %d), want backend_unreachable, not retryable", envJSON(env), hits.Load())
	}
	if !strings.Contains(env.Message, "may already have taken effect") {
		t.Errorf("message %q does not warn that the call may have taken effect", env.Message)
	}
}

// TestDeadlines: connect, response-header and total deadlines all answer
// invoke_timeout, retryable, with no status.
func TestDeadlines(t *testing.T) {
	cat := mustParse(t, "testdata/pets.yaml", nil)
	release := make(chan struct{})
	slowHeaders := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer slowHeaders.Close()
	slowBody := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		for {
			select {
			case <-release:
				return
			case <-r.Context().Done():
				return
			case <-time.After(10 * time.Millisecond):
				io.WriteString(w, "x")
				w.(http.Flusher).Flush()
			}
		}
	}))
	defer slowBody.Close()
	defer close(release) // runs first: handlers return, then servers close

	tests := []struct {
		name   string
		url    string
		remote RemoteOptions
		total  time.Duration
	}{
		{"connect", slowHeaders.URL, RemoteOptions{ConnectTimeout: time.Nanosecond}, 5 * time.Second},
		{"response header", slowHeaders.URL, RemoteOptions{ResponseHeaderTimeout: 50 * time.Millisecond}, 5 * time.Second},
		{"total, waiting for headers", slowHeaders.URL, RemoteOptions{}, 100 * time.Millisecond},
		{"total, reading the body", slowBody.URL, RemoteOptions{}, 100 * time.Millisecond},
		{"remote total", slowBody.URL, RemoteOptions{Timeout: 100 * time.Millisecond}, 5 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ro := tt.remote
			ro.AllowPrivateNetworks = true
			be, err := Remote(tt.url, &ro)
			if err != nil {
				t.Fatal(err)
			}
			inv, _ := New(&Options{Backend: be, Timeout: tt.total})
			start := time.Now()
			env := inv.Invoke(bg, cat, Call{Tool: "createPet", Arguments: []byte(`{}`)})
			if env.Error != envelope.InvokeTimeout || env.Status != 0 || !*env.Retryable {
				t.Errorf("envelope %s, want invoke_timeout, retryable, no status", envJSON(env))
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
	t.Run("in-process handler", func(t *testing.T) {
		h := Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-release }))
		inv, _ := New(&Options{Backend: h, Timeout: 50 * time.Millisecond})
		env := inv.Invoke(bg, cat, Call{Tool: "createPet", Arguments: []byte(`{}`)})
		if env.Error != envelope.InvokeTimeout || !*env.Retryable {
			t.Errorf("envelope %s, want invoke_timeout", envJSON(env))
		}
		if !strings.Contains(env.Message, "may already have taken effect") {
			t.Errorf("message %q does not warn a POST may have taken effect", env.Message)
		}
	})
}

// TestResponseBoundAfterDecompression: a small gzip body that inflates past
// the bound is cut at the bound.
func TestResponseBoundAfterDecompression(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(bytes.Repeat([]byte("a"), 1<<20))
	zw.Close()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Type", "text/plain")
		w.Write(gz.Bytes())
	})
	srv := httptest.NewServer(h)
	defer srv.Close()
	for name, be := range map[string]Backend{"in-process": Handler(h), "remote": nil} {
		t.Run(name, func(t *testing.T) {
			if be == nil {
				be, _ = Remote(srv.URL, &RemoteOptions{AllowPrivateNetworks: true})
			}
			var seen *envelope.Response
			resp, err := be.Do(bg, mustCompose(t, "createPet", `{}`))
			if err != nil {
				t.Fatal(err)
			}
			seen, err = readBounded(resp, 4096)
			if err != nil {
				t.Fatal(err)
			}
			if !seen.Truncated || len(seen.Body) != 4096 || string(seen.Body[:4]) != "aaaa" {
				t.Errorf("truncated=%v len=%d start=%q; want the inflated body cut at 4096", seen.Truncated, len(seen.Body), seen.Body[:min(4, len(seen.Body))])
			}
		})
	}
}

func mustCompose(t *testing.T, tool, args string) *http.Request {
	t.Helper()
	inv, _ := New(&Options{Backend: BackendFunc(func(context.Context, *http.Request) (*http.Response, error) { return nil, nil })})
	req, env := inv.Compose(bg, mustParse(t, "testdata/pets.yaml", nil), Call{Tool: tool, Arguments: []byte(args)})
	if env != nil {
		t.Fatalf("compose: %s", envJSON(env))
	}
	return req
}

// TestRemoteReusesConnectionsAndIgnoresProxyEnv: calls share one
// connection, and a proxy named in the environment is not used.
func TestRemoteReusesConnectionsAndIgnoresProxyEnv(t *testing.T) {
	t.Setenv("HTTP_PROXY", "http://127.0.0.1:1")
	t.Setenv("HTTPS_PROXY", "http://127.0.0.1:1")
	t.Setenv("NO_PROXY", "")
	cat := mustParse(t, "testdata/pets.yaml", nil)
	var mu sync.Mutex
	addrs := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		addrs[r.RemoteAddr]++
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true}`)
	}))
	defer srv.Close()
	inv := newTestInvoker(t, srv.URL, nil)
	for range 5 {
		if env := inv.Invoke(bg, cat, Call{Tool: "createPet", Arguments: []byte(`{}`)}); env.Status != 200 {
			t.Fatalf("envelope %s; was the environment's proxy used?", envJSON(env))
		}
	}
	if len(addrs) != 1 {
		t.Errorf("5 calls used %d connections, want 1: %v", len(addrs), addrs)
	}
}

func TestBackendWithoutResponseIsInternal(t *testing.T) {
	cat := mustParse(t, "testdata/pets.yaml", nil)
	inv, _ := New(&Options{Backend: BackendFunc(func(context.Context, *http.Request) (*http.Response, error) { return nil, nil })})
	env := inv.Invoke(bg, cat, Call{Tool: "createPet", Arguments: []byte(`{}`)})
	if env.Error != envelope.InternalError || env.Reference == "" {
		t.Errorf("envelope %s, want internal_error with a reference", envJSON(env))
	}
}
