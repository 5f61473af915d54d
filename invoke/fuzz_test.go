package invoke

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sezzlee/sezzlee/catalog"
	"github.com/sezzlee/sezzlee/envelope"
	"github.com/sezzlee/sezzlee/internal/specs"
)

// sdkCodes are the codes composition may answer with.
var sdkCodes = append(slices.Clone(precedence), envelope.UnknownTool, envelope.NotInvocable, envelope.ToolChanged, envelope.InternalError)

// FuzzCompose feeds arbitrary JSON arguments to every tool of the fixtures
// (the real parameter-style description included when present): Compose
// never panics, and returns either a request or a typed error envelope.
func FuzzCompose(f *testing.F) {
	cats := []*catalog.Catalog{mustParse(f, "testdata/pets.yaml", nil)}
	if d := specs.Lookup(); d != "" {
		if data, err := os.ReadFile(filepath.Join(d, "readme-parameters-style-oas30.yaml")); err == nil {
			if c, err := catalog.Parse(data, nil); err == nil {
				cats = append(cats, c)
			}
		}
	}
	var tools []*catalog.Tool
	var owner []*catalog.Catalog
	for _, c := range cats {
		for _, t := range c.Tools() {
			tools = append(tools, t)
			owner = append(owner, c)
		}
	}
	for i := range tools {
		f.Add(uint16(i), []byte(styleArgs))
		f.Add(uint16(i), []byte(`{"id":1,"name":"a","body":{"content":"aGk="},"photo":"data:,x"}`))
	}
	f.Add(uint16(0), []byte(`{"id":"\r\n","theme":"a;b","prefs":{"":null}}`))
	f.Add(uint16(1), []byte(`{"shipping":{"address":[[{"a":{}}]]},"metadata":{"x":null}}`))
	root := f.TempDir()
	inv, err := New(&Options{
		Backend:      Handler(http.NotFoundHandler()),
		Files:        LocalFiles{Root: root},
		MaxFileBytes: 64,
		Credentials:  StaticCredentials{"key": "k", "sid": "s", "bearer": "b", "qkey": "q"}.Credentials,
		Deferred: func(context.Context, *catalog.Tool, string) (any, bool, error) {
			return "acme", true, nil
		},
	})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, which uint16, args []byte) {
		i := int(which) % len(tools)
		req, env := inv.Compose(bg, owner[i], Call{Tool: tools[i].Name, Arguments: args})
		if (req == nil) == (env == nil) {
			t.Fatalf("Compose returned request %v and envelope %v; want exactly one", req, env)
		}
		if env != nil {
			if env.Status != 0 || env.Retryable == nil || !slices.Contains(sdkCodes, env.Error) {
				t.Fatalf("untyped or backend-looking envelope %s", envJSON(env))
			}
			return
		}
		if !strings.HasPrefix(req.URL.Path, "/") {
			t.Fatalf("path %q", req.URL.Path)
		}
		for k, vs := range req.Header {
			for _, v := range append(vs, k) {
				if unsafeHeader(v) {
					t.Fatalf("header %q carries a CR, LF or NUL: %q", k, v)
				}
			}
		}
		if strings.Contains(req.URL.RawQuery, "#") {
			t.Fatalf("query %q carries a fragment", req.URL.RawQuery)
		}
	})
}

// BenchmarkOverhead measures what sezzlee adds to a call: compose plus
// in-process dispatch and mapping, against calling the same handler
// directly with a prebuilt request, in the same run. It reports both and
// their difference per call (overhead-ns/op, overhead-allocs/op).
func BenchmarkOverhead(b *testing.B) {
	cat := mustParse(b, "testdata/pets.yaml", nil)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":7,"name":"rex","tags":["good"]}`)
	})
	inv, err := New(&Options{
		Backend:     Handler(h),
		Credentials: StaticCredentials{"key": "k"}.Credentials,
		Deferred: func(context.Context, *catalog.Tool, string) (any, bool, error) {
			return "acme", true, nil
		},
	})
	if err != nil {
		b.Fatal(err)
	}
	call := Call{Tool: "getPet", Arguments: []byte(`{"id":7,"fields":["name","tags"],"X-Trace":"abc"}`)}
	if env := inv.Invoke(bg, cat, call); env.Status != 200 {
		b.Fatalf("envelope %s", envJSON(env))
	}
	direct := func() {
		req := httptest.NewRequest("GET", "/pets/7?fields=name&fields=tags&tenant=acme", nil)
		req.Header.Set("X-Trace", "abc")
		req.Header.Set("X-Api-Key", "k")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		io.ReadAll(w.Result().Body)
	}
	// The two are timed in alternating blocks, so a noisy neighbour on a
	// shared machine slows both alike.
	var dd, sd time.Duration
	var da, sa uint64
	var m0, m1 runtime.MemStats
	runtime.GC()
	b.ResetTimer()
	for done := 0; done < b.N; {
		n := min(256, b.N-done)
		done += n
		runtime.ReadMemStats(&m0)
		start := time.Now()
		for range n {
			direct()
		}
		dd += time.Since(start)
		runtime.ReadMemStats(&m1)
		da += m1.Mallocs - m0.Mallocs
		start = time.Now()
		for range n {
			inv.Invoke(bg, cat, call)
		}
		sd += time.Since(start)
		runtime.ReadMemStats(&m0)
		sa += m0.Mallocs - m1.Mallocs
	}
	n := float64(b.N)
	b.ReportMetric(float64(dd.Nanoseconds())/n, "direct-ns/op")
	b.ReportMetric(float64(sd.Nanoseconds())/n, "sezzlee-ns/op")
	b.ReportMetric(float64(sd.Nanoseconds()-dd.Nanoseconds())/n, "overhead-ns/op")
	b.ReportMetric((float64(sa)-float64(da))/n, "overhead-allocs/op")
}

// BenchmarkCompose measures the dry run alone on a call with path, query,
// header and cookie arguments, a deferred value and a credential.
func BenchmarkCompose(b *testing.B) {
	cat := mustParse(b, "testdata/pets.yaml", nil)
	inv, _ := New(&Options{
		Backend:     Handler(http.NotFoundHandler()),
		Credentials: StaticCredentials{"key": "k"}.Credentials,
		Deferred:    tenant("acme", nil),
	})
	call := Call{Tool: "getPet", Arguments: []byte(`{"id":7,"fields":["name","tags"],"X-Trace":"abc","theme":"dark"}`)}
	b.ReportAllocs()
	for b.Loop() {
		if _, env := inv.Compose(bg, cat, call); env != nil {
			b.Fatal(envJSON(env))
		}
	}
}
