package invoke

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/sezzlee/sezzlee/catalog"
	"github.com/sezzlee/sezzlee/envelope"
)

// mustParse loads an OpenAPI description through the real catalog loader.
func mustParse(tb testing.TB, file string, opts *catalog.Options) *catalog.Catalog {
	tb.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		tb.Fatal(err)
	}
	c, err := catalog.Parse(data, opts)
	if err != nil {
		tb.Fatalf("catalog.Parse(%s): %v", file, err)
	}
	return c
}

// seen is what a recording backend received.
type seen struct {
	Method, RawPath, Path, RawQuery string
	Header                          http.Header
	Body                            []byte
}

// recordingServer is a real loopback HTTP server that records every
// request and answers 200 with {"ok":true}.
type recordingServer struct {
	*httptest.Server
	hits atomic.Int32
	mu   sync.Mutex
	last seen
}

func newRecordingServer(tb testing.TB) *recordingServer {
	rs := &recordingServer{}
	rs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rs.hits.Add(1)
		body, _ := io.ReadAll(r.Body)
		rs.mu.Lock()
		rs.last = seen{Method: r.Method, RawPath: r.URL.EscapedPath(), Path: r.URL.Path, RawQuery: r.URL.RawQuery, Header: r.Header.Clone(), Body: body}
		rs.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true}`)
	}))
	tb.Cleanup(rs.Close)
	return rs
}

func (rs *recordingServer) got() seen {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.last
}

// newTestInvoker returns an Invoker sending to a Remote backend at url,
// with loopback allowed; edit adjusts the options first.
func newTestInvoker(tb testing.TB, url string, edit func(*Options)) *Invoker {
	tb.Helper()
	be, err := Remote(url, &RemoteOptions{AllowPrivateNetworks: true})
	if err != nil {
		tb.Fatal(err)
	}
	o := &Options{Backend: be}
	if edit != nil {
		edit(o)
	}
	inv, err := New(o)
	if err != nil {
		tb.Fatal(err)
	}
	return inv
}

func envJSON(e *envelope.Envelope) string {
	b, _ := json.Marshal(e)
	return string(b)
}

func fieldNames(e *envelope.Envelope) []string {
	var n []string
	for _, f := range e.Fields {
		n = append(n, f.Name)
	}
	return n
}

var bg = context.Background()
