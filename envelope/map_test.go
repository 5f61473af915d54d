package envelope

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"
)

// now is the fixed clock of every mapping test.
var now = time.Date(2026, 1, 31, 10, 0, 0, 0, time.UTC)

// encode writes an envelope as the agent receives it, without HTML escaping
// so that tests can search it for substrings.
func encode(t testing.TB, e *Envelope) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(e); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// mustValidate fails t when e does not match the normative schema.
func mustValidate(t testing.TB, e *Envelope) []byte {
	t.Helper()
	if e == nil {
		t.Fatal("got a nil envelope")
	}
	data := encode(t, e)
	if err := Validate(data); err != nil {
		t.Fatalf("envelope does not validate: %v\n%s", err, data)
	}
	return data
}

// readResponse parses an HTTP response written as on the wire.
func readResponse(t testing.TB, wire []byte) *Response {
	t.Helper()
	wire = bytes.ReplaceAll(wire, []byte("\n"), []byte("\r\n"))
	head, body, _ := bytes.Cut(wire, []byte("\r\n\r\n"))
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(append(head, "\r\n\r\n"...))), nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	body = bytes.TrimSuffix(bytes.ReplaceAll(body, []byte("\r\n"), []byte("\n")), []byte("\n"))
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: body, Size: int64(len(body))}
}

// golden maps the response of a txtar case and compares the envelope with
// the case's envelope.json, rewriting it with -update.
func golden(t *testing.T, path string) *Envelope {
	t.Helper()
	a, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var args []string
	var resp *Response
	opts := MapOptions{Now: func() time.Time { return now }}
	gi := -1
	for i, f := range a.Files {
		switch f.Name {
		case "options":
			var o struct {
				MaxAgentBytes int64
				Narrowing     []string
			}
			if err := json.Unmarshal(f.Data, &o); err != nil {
				t.Fatalf("%s: options: %v", path, err)
			}
			opts.MaxAgentBytes, opts.Narrowing = o.MaxAgentBytes, o.Narrowing
		case "args":
			args = strings.Fields(string(f.Data))
		case "response":
			resp = readResponse(t, f.Data)
		case "envelope.json":
			gi = i
		}
	}
	if resp == nil || gi < 0 {
		t.Fatalf("%s needs a response and an envelope.json", path)
	}
	opts.Arguments = args
	e := FromResponse(resp, &opts)
	got := mustValidate(t, e)
	if *update {
		a.Files[gi].Data = got
		if err := os.WriteFile(path, txtar.Format(a), 0o644); err != nil {
			t.Fatal(err)
		}
		return e
	}
	if want := a.Files[gi].Data; !bytes.Equal(got, want) {
		t.Errorf("%s: envelope differs (go test ./envelope -update to accept)\ngot:\n%s\nwant:\n%s", path, got, want)
	}
	return e
}

func TestFrameworkBodies(t *testing.T) {
	// The field names each framework's fixture must map to, in order: a
	// check that does not depend on the golden files being right.
	want := map[string][]string{
		"aspnetcore":          {"item", "item", "quantity"},
		"aspnetcore-jsonpath": {"order", "quantity", "unitPrice"},
		"huma":                {"quantity", "item"},
		"nestjs":              {"quantity", "quantity", "item", "bogus"},
		"fastapi":             {"quantity", "item", "limit"},
		"spring-boot":         {"quantity", "item"},
		"express-validator":   {"quantity", "unit_price"},
		"rails":               {"quantity", "quantity", "item"},
		"rails-bare":          {"unit_price"},
		"laravel":             {"quantity", "item"},
		"jsonapi":             {"quantity", "page[size]"},
		"prism":               {"quantity", "item"},
		"ajv":                 {"quantity", "item"},
		"leaky-500":           nil,
	}
	files, _ := filepath.Glob("testdata/frameworks/*.txtar")
	if len(files) != len(want) {
		t.Errorf("%d framework fixtures; the test knows %d", len(files), len(want))
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txtar")
		t.Run(name, func(t *testing.T) {
			e := golden(t, f)
			var got []string
			for _, fl := range e.Fields {
				got = append(got, fl.Name)
			}
			if !slices.Equal(got, want[name]) {
				t.Errorf("field names %q; want %q", got, want[name])
			}
		})
	}
}

// TestDocExamples maps the responses the docs pages show; the docs test
// compares the pages' JSON with these envelopes.
func TestDocExamples(t *testing.T) {
	files, _ := filepath.Glob("testdata/docs/*.txtar")
	if len(files) == 0 {
		t.Fatal("no docs fixtures")
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) { golden(t, f) })
	}
}

func TestFieldMessages(t *testing.T) {
	e := golden(t, "testdata/frameworks/rails.txtar")
	if got, want := e.Fields[0].Message, "quantity must be less than 101"; got != want {
		t.Errorf("Rails message = %q; want %q (the field's name in front)", got, want)
	}
	e = golden(t, "testdata/frameworks/laravel.txtar")
	if got, want := e.Fields[0].Message, "The quantity field must not be greater than 100."; got != want {
		t.Errorf("Laravel message = %q; want %q (unchanged: it names the field)", got, want)
	}
	e = golden(t, "testdata/frameworks/prism.txtar")
	if got, want := e.Fields[1].Message, "must have required property 'item'"; got != want {
		t.Errorf("Prism message = %q; want %q", got, want)
	}
}

func TestMapName(t *testing.T) {
	args := []string{"quantity", "unitPrice", "items", "data"}
	tests := []struct {
		in   string
		want string
	}{
		{"quantity", "quantity"},
		{"Quantity", "quantity"},
		{"QUANTITY", "quantity"},
		{"unit_price", "unitPrice"},
		{"UnitPrice", "unitPrice"},
		{"body.quantity", "quantity"},
		{"/quantity", "quantity"},
		{"$.quantity", "quantity"},
		{"/data/attributes/quantity", "data.attributes.quantity"},
		{"request.body.unit_price", "unitPrice"},
		{"order.Quantity", "quantity"},
		{"Items[0].Quantity", "items[0].Quantity"},
		{"body.lines[2].sku", "lines[2].sku"},
		{"wrapper.nested.quantity", "wrapper.nested.quantity"},
		{"body.color", "color"},
		{"#/properties/quantity", "quantity"},
	}
	for _, tt := range tests {
		if got := mapName(splitPath(tt.in), args); got != tt.want {
			t.Errorf("mapName(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
	if got := mapName(splitPath("/data/attributes/quantity"), []string{"quantity"}); got != "quantity" {
		t.Errorf("JSON:API pointer mapped to %q; want quantity", got)
	}
}

func TestStatuses(t *testing.T) {
	type want struct {
		code      Code
		retryable bool
	}
	tests := map[int]want{
		400: {ValidationFailed, false}, 422: {ValidationFailed, false},
		401: {Unauthenticated, false}, 403: {Forbidden, false},
		404: {NotFound, false}, 410: {NotFound, false},
		409: {Conflict, false}, 412: {Conflict, false},
		429: {RateLimited, true},
		408: {BackendTimeout, true}, 504: {BackendTimeout, true},
		502: {BackendUnavailable, true}, 503: {BackendUnavailable, true},
		500: {BackendError, false},
		402: {BackendError, false}, 405: {BackendError, false}, 413: {BackendError, false},
		418: {BackendError, false}, 451: {BackendError, false}, 501: {BackendError, false},
		507: {BackendError, false}, 599: {BackendError, false}, 999: {BackendError, false},
	}
	for _, c := range Codes() {
		for _, s := range c.Statuses {
			if _, ok := tests[s]; !ok {
				t.Errorf("status %d of %s is not in the test table", s, c.Code)
			}
		}
	}
	for status, w := range tests {
		e := FromResponse(&Response{Status: status, Header: http.Header{}}, nil)
		mustValidate(t, e)
		if e.Error != w.code || e.Status != status || *e.Retryable != w.retryable {
			t.Errorf("status %d: got %s, status %d, retryable %v; want %s, %d, %v", status, e.Error, e.Status, *e.Retryable, w.code, status, w.retryable)
		}
		if msg := messageOf(w.code); e.Message != msg {
			t.Errorf("status %d without a body: message %q; want the fixed %q", status, e.Message, msg)
		}
	}
}

func TestSuccess(t *testing.T) {
	h := func(kv ...string) http.Header {
		out := http.Header{}
		for i := 0; i < len(kv); i += 2 {
			out.Set(kv[i], kv[i+1])
		}
		return out
	}
	tests := []struct {
		name string
		resp Response
		opts MapOptions
		want string
	}{
		{"json", Response{Status: 200, Header: h("Content-Type", "application/json; charset=utf-8"), Body: []byte(`{"id":1}`)},
			MapOptions{}, `{"status":200,"body":{"id":1},"contentType":"application/json"}`},
		{"json without a type", Response{Status: 200, Header: h(), Body: []byte(` [1,2] `)},
			MapOptions{}, `{"status":200,"body":[1,2]}`},
		{"text", Response{Status: 200, Header: h("Content-Type", "text/plain"), Body: []byte("pong")},
			MapOptions{}, `{"status":200,"body":"pong","contentType":"text/plain"}`},
		{"json labelled text/plain", Response{Status: 200, Header: h("Content-Type", "text/plain; charset=utf-8"), Body: []byte(`{"id":1}`)},
			MapOptions{}, `{"status":200,"body":{"id":1},"contentType":"text/plain"}`},
		{"a number labelled text/plain stays text", Response{Status: 200, Header: h("Content-Type", "text/plain"), Body: []byte(`42`)},
			MapOptions{}, `{"status":200,"body":"42","contentType":"text/plain"}`},
		{"a header that is no media type is dropped", Response{Status: 200, Header: h("Content-Type", "postgres://u:p@db/x"), Body: []byte(`{"id":1}`)},
			MapOptions{}, `{"status":200,"body":{"id":1}}`},
		{"a bad parameter keeps the type", Response{Status: 200, Header: h("Content-Type", "Application/JSON; charset"), Body: []byte(`{"id":1}`)},
			MapOptions{}, `{"status":200,"body":{"id":1},"contentType":"application/json"}`},
		{"broken json is text", Response{Status: 200, Header: h("Content-Type", "application/json"), Body: []byte(`{"id":`)},
			MapOptions{}, `{"status":200,"body":"{\"id\":","contentType":"application/json"}`},
		{"no content", Response{Status: 204, Header: h()},
			MapOptions{}, `{"status":204}`},
		{"created", Response{Status: 201, Header: h("Location", "/orders/3", "Content-Type", "application/json"), Body: []byte(`{"id":3}`)},
			MapOptions{}, `{"status":201,"body":{"id":3},"contentType":"application/json","location":"/orders/3"}`},
		{"redirect", Response{Status: 302, Header: h("Location", "https://api.example.com/v2/orders")},
			MapOptions{}, `{"status":302,"location":"https://api.example.com/v2/orders"}`},
		{"redirect inside", Response{Status: 307, Header: h("Location", "http://10.0.0.8/orders")},
			MapOptions{}, `{"status":307}`},
		{"binary", Response{Status: 200, Header: h("Content-Type", "image/png"), Body: []byte("\x89PNG\r\n\x1a\n"), Size: 8},
			MapOptions{}, `{"status":200,"body":{"binary":true,"contentType":"image/png","bytes":8},"contentType":"image/png"}`},
		{"binary without a type", Response{Status: 200, Header: h(), Body: []byte{0xff, 0xfe, 0x00}},
			MapOptions{}, `{"status":200,"body":{"binary":true,"bytes":3}}`},
		{"too large", Response{Status: 200, Header: h("Content-Type", "application/json"), Body: []byte(`[1,2,3,4,5,6]`)},
			MapOptions{MaxAgentBytes: 5, Narrowing: []string{"limit", "cursor", "fields", "status"}},
			`{"error":"response_too_large","message":"` + messageOf(ResponseTooLarge) + `","retryable":false,` +
				`"fields":[{"name":"limit","message":"Ask for fewer items per page with a smaller value."},` +
				`{"name":"cursor","message":"Fetch one page at a time, passing the cursor or offset of the next page."},` +
				`{"name":"fields","message":"Request only the fields you need."},` +
				`{"name":"status","message":"Filter the results down to what you need."}],` +
				`"payload":{"bytes":13,"limit":5,"contentType":"application/json"}}`},
		{"cut by the read bound", Response{Status: 200, Header: h("Content-Type", "text/csv"), Body: []byte("a,b"), Truncated: true, Size: 9000000},
			MapOptions{}, `{"error":"response_too_large","message":"` + messageOf(ResponseTooLarge) + `","retryable":false,"payload":{"bytes":9000000,"limit":65536,"contentType":"text/csv"}}`},
		{"binary is never too large", Response{Status: 200, Header: h("Content-Type", "application/pdf"), Body: []byte("%PDF"), Size: 1 << 30, Truncated: true},
			MapOptions{MaxAgentBytes: 10}, `{"status":200,"body":{"binary":true,"contentType":"application/pdf","bytes":1073741824},"contentType":"application/pdf"}`},
	}
	for _, tt := range tests {
		e := FromResponse(&tt.resp, &tt.opts)
		mustValidate(t, e)
		got, _ := json.Marshal(e)
		if string(got) != tt.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tt.name, got, tt.want)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	tests := []struct {
		status int
		value  string
		want   int // -1: absent
	}{
		{429, "120", 120},
		{429, "0", 0},
		{503, "30", 30},
		{429, now.Add(90 * time.Second).Format(http.TimeFormat), 90},
		{503, now.Add(90*time.Second + 200*time.Millisecond).Format(time.RFC850), 90},
		{429, "Sat, 31 Jan 2026 10:00:01 GMT", 1},
		{429, now.Add(-time.Hour).Format(http.TimeFormat), 0},
		{429, "soon", -1},
		{429, "-5", -1},
		{429, "99999999999999999999", -1},
		{429, "4294967296", 1<<31 - 1},
		{500, "120", -1},
		{502, "120", -1},
	}
	for _, tt := range tests {
		r := &Response{Status: tt.status, Header: http.Header{"Retry-After": {tt.value}}}
		e := FromResponse(r, &MapOptions{Now: func() time.Time { return now }})
		mustValidate(t, e)
		got := -1
		if e.RetryAfterSeconds != nil {
			got = *e.RetryAfterSeconds
		}
		if got != tt.want {
			t.Errorf("%d with Retry-After %q: retryAfterSeconds %d; want %d", tt.status, tt.value, got, tt.want)
		}
	}
}

func TestReference(t *testing.T) {
	const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJvcmRlcnMifQ.c2lnbmF0dXJlLXZhbHVl"
	tests := []struct {
		name   string
		header http.Header
		body   string
		want   string
	}{
		{"request id", http.Header{"X-Request-Id": {"req_8f2K1x"}}, "", "req_8f2K1x"},
		{"correlation id", http.Header{"X-Correlation-Id": {"7f3b2c1a-9d4e-4b6f-8a2c-1e5d7f9b3c2a"}}, "", "7f3b2c1a-9d4e-4b6f-8a2c-1e5d7f9b3c2a"},
		{"traceparent", http.Header{"Traceparent": {"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}, "", "4bf92f3577b34da6a3ce929d0e0e4736"},
		{"problem traceId", http.Header{}, `{"title":"x","traceId":"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00"}`, "0af7651916cd43dd8448eb211c80319c"},
		{"request id first", http.Header{"X-Request-Id": {"a1"}, "X-Correlation-Id": {"b2"}}, "", "a1"},
		{"a JWT is dropped", http.Header{"X-Request-Id": {jwt}}, "", ""},
		{"a dropped id falls back", http.Header{"X-Request-Id": {jwt}, "Traceparent": {"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}, "", "4bf92f3577b34da6a3ce929d0e0e4736"},
		{"a token is dropped", http.Header{"X-Correlation-Id": {"sk_live_4eC39HqLyjWDarjtT1zdp7dc"}}, "", ""},
		{"an address is dropped", http.Header{"X-Request-Id": {"10.0.0.7:8080-42"}}, "", ""},
		{"a connection string is dropped", http.Header{}, `{"traceId":"postgres://u:p@db/x"}`, ""},
		{"spaces are dropped", http.Header{"X-Request-Id": {"two words"}}, "", ""},
		{"too long is dropped", http.Header{"X-Request-Id": {strings.Repeat("a", 129)}}, "", ""},
	}
	for _, tt := range tests {
		tt.header.Set("Content-Type", "application/json")
		e := FromResponse(&Response{Status: 500, Header: tt.header, Body: []byte(tt.body)}, nil)
		mustValidate(t, e)
		if e.Reference != tt.want {
			t.Errorf("%s: reference %q; want %q", tt.name, e.Reference, tt.want)
		}
	}
}

func TestBackendText(t *testing.T) {
	fixed := messageOf(Conflict)
	tests := []struct {
		name, ct, body, want string
	}{
		{"problem detail", "application/problem+json", `{"title":"Conflict","detail":"Order 5 was already shipped."}`, fixed + " The backend said: Order 5 was already shipped."},
		{"title only", "application/problem+json", `{"title":"Order is locked"}`, fixed + " The backend said: Order is locked"},
		{"reason phrase only", "application/json", `{"error":"Conflict"}`, fixed},
		{"nested error", "application/json", `{"error":{"code":"locked","message":"Order is locked."}}`, fixed + " The backend said: Order is locked."},
		{"plain text", "text/plain", "Order is locked.", fixed + " The backend said: Order is locked."},
		{"html is not forwarded", "text/html", "<html><body><h1>409</h1></body></html>", fixed},
		{"all withheld", "text/plain", "    at com.acme.X.run(X.java:1)", fixed + " Details from the backend were withheld."},
		{"partly withheld", "text/plain", "Locked by 10.0.0.3", fixed + " The backend said: Locked by [withheld] (details were withheld)"},
	}
	for _, tt := range tests {
		e := FromResponse(&Response{Status: 409, Header: http.Header{"Content-Type": {tt.ct}}, Body: []byte(tt.body)}, nil)
		mustValidate(t, e)
		if e.Message != tt.want {
			t.Errorf("%s: message %q; want %q", tt.name, e.Message, tt.want)
		}
	}
}

func TestNilAndOddResponses(t *testing.T) {
	for _, r := range []*Response{nil, {Status: 0}, {Status: 42}, {Status: 1000}} {
		e := FromResponse(r, nil)
		mustValidate(t, e)
		if e.Error != InternalError || e.Status != 0 {
			t.Errorf("FromResponse(%+v) = %s with status %d; want internal_error without status", r, e.Error, e.Status)
		}
	}
	// A nil Header is a usable empty header.
	mustValidate(t, FromResponse(&Response{Status: 200, Body: []byte("{}")}, nil))
	mustValidate(t, FromResponse(&Response{Status: 429, Body: []byte("{}")}, nil))
}

func FuzzFromResponse(f *testing.F) {
	files, _ := filepath.Glob("testdata/frameworks/*.txtar")
	for _, p := range files {
		a, err := txtar.ParseFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, fl := range a.Files {
			if fl.Name == "response" {
				r := readResponse(f, fl.Data)
				f.Add(r.Status, r.Header.Get("Content-Type"), r.Body, "60")
			}
		}
	}
	f.Add(200, "", []byte(`{"a":1}`), "")
	f.Add(429, "text/plain", []byte("slow down"), "Wed, 21 Oct 2015 07:28:00 GMT")
	f.Fuzz(func(t *testing.T, status int, ct string, body []byte, retry string) {
		h := http.Header{}
		h.Set("Content-Type", ct)
		h.Set("Retry-After", retry)
		h.Set("X-Request-Id", retry)
		e := FromResponse(&Response{Status: status, Header: h, Body: body, Size: int64(len(body))},
			&MapOptions{Arguments: []string{"quantity", "item"}, MaxAgentBytes: 256, Now: func() time.Time { return now }})
		mustValidate(t, e)
	})
}

func BenchmarkFromResponse(b *testing.B) {
	a, err := txtar.ParseFile("testdata/frameworks/aspnetcore.txtar")
	if err != nil {
		b.Fatal(err)
	}
	r := readResponse(b, a.Files[1].Data)
	opts := &MapOptions{Arguments: []string{"item", "quantity"}}
	b.ReportAllocs()
	for b.Loop() {
		FromResponse(r, opts)
	}
}

func TestNoFieldsFromOtherBodies(t *testing.T) {
	bodies := []string{
		`{"errors":["Not found"]}`,
		`{"message":["Not found","Try later"]}`,
		`{"message":"quantity is wrong"}`,
		`{"error":"invalid_request","error_description":"The request is missing a parameter."}`,
		`[1,2,3]`,
		`"just a string"`,
		`{"errors":{}}`,
		`{"errors":[{"code":"E1"}]}`,
	}
	for _, b := range bodies {
		e := FromResponse(&Response{Status: 400, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(b)},
			&MapOptions{Arguments: []string{"quantity"}})
		mustValidate(t, e)
		if len(e.Fields) != 0 {
			t.Errorf("body %s gave fields %+v; want none", b, e.Fields)
		}
	}
}

// TestBodyRenames: when a body property was renamed because a parameter
// has its name, a backend field that names the body maps to the renamed
// argument, and a bare name still means the parameter.
func TestBodyRenames(t *testing.T) {
	opts := &MapOptions{Arguments: []string{"body_id", "id", "name"}, BodyRenames: map[string]string{"id": "body_id"}}
	tests := []struct {
		name, body string
		want       []string
	}{
		{"FastAPI locations", `{"detail":[{"loc":["body","id"],"msg":"must be positive"},{"loc":["path","id"],"msg":"not a valid integer"}]}`,
			[]string{"body_id", "id"}},
		{"huma locations", `{"title":"Unprocessable Entity","status":422,"errors":[{"message":"expected number","location":"body.id"},{"message":"too short","location":"body.name"}]}`,
			[]string{"body_id", "name"}},
		{"JSON pointer into the body", `{"errors":[{"detail":"must be positive","source":{"pointer":"/body/id"}}]}`,
			[]string{"body_id"}},
		{"a bare name is the parameter", `{"errors":{"id":["is invalid"]}}`,
			[]string{"id"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := FromResponse(&Response{Status: 422, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(tt.body)}, opts)
			mustValidate(t, e)
			var got []string
			for _, f := range e.Fields {
				got = append(got, f.Name)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("field names = %q; want %q\n%s", got, tt.want, encode(t, e))
			}
		})
	}
}
