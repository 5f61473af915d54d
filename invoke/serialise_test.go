package invoke

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/sezzlee/sezzlee/internal/specs"
)

// The values OpenAPI's style table uses, with the object's keys in the
// order sezzlee writes them (sorted).
const styleArgs = `{"primitive":"blue","array":["blue","black","brown"],"object":{"R":100,"G":200,"B":150}}`

// TestParameterStyles sends every path, query, header and cookie style of
// the parameter-style fixture to a real server and checks what arrived.
func TestParameterStyles(t *testing.T) {
	cat := mustParse(t, specs.File(t, "readme-parameters-style-oas30.yaml"), nil)
	srv := newRecordingServer(t)
	inv := newTestInvoker(t, srv.URL, nil)
	tests := []struct {
		tool, args string
		path       string // escaped path
		query      string // raw query
		header     map[string]string
	}{
		{tool: "paths_standard", path: "/anything/path/blue/blue,black,brown/B,150,G,200,R,100"},
		{tool: "paths_simple_nonExploded", path: "/anything/path/simple/blue/blue,black,brown/B,150,G,200,R,100"},
		{tool: "paths_simple_exploded", path: "/anything/path/simple/blue/blue,black,brown/B=150,G=200,R=100"},
		{tool: "paths_label_nonExploded", path: "/anything/path/label/.blue/.blue,black,brown/.B,150,G,200,R,100"},
		{tool: "paths_label_exploded", path: "/anything/path/label/.blue/.blue.black.brown/.B=150.G=200.R=100"},
		{tool: "paths_matrix_nonExploded", path: "/anything/path/matrix/;primitive=blue/;array=blue,black,brown/;object=B,150,G,200,R,100"},
		{tool: "paths_matrix_exploded", path: "/anything/path/matrix/;primitive=blue/;array=blue;array=black;array=brown/;B=150;G=200;R=100"},
		{tool: "paths_simple_nonExploded", args: `{"primitive":"a/b c","array":["x,y"],"object":{"k":"?#"}}`,
			path: "/anything/path/simple/a%2Fb%20c/x%2Cy/k,%3F%23"},
		{tool: "paths_simple_nonExploded", args: `{"primitive":"..","array":["."],"object":{}}`,
			path: "/anything/path/simple/%2E%2E/%2E/"},
		{tool: "query_standard", path: "/anything/query", query: "array=blue&array=black&array=brown&B=150&G=200&R=100&primitive=blue"},
		{tool: "query_form_exploded", path: "/anything/query/form", query: "array=blue&array=black&array=brown&B=150&G=200&R=100&primitive=blue"},
		{tool: "query_form_nonExploded", path: "/anything/query/form", query: "array=blue,black,brown&object=B,150,G,200,R,100&primitive=blue"},
		{tool: "query_spaceDelimited_nonExploded", args: `{"array":["blue","black"],"object":{"R":100,"G":200}}`,
			path: "/anything/query/spaceDelimited", query: "array=blue%20black&object=G%20200%20R%20100"},
		{tool: "query_pipeDelimited_nonExploded", args: `{"array":["blue","black"],"object":{"R":100,"G":200}}`,
			path: "/anything/query/pipeDelimited", query: "array=blue|black&object=G|200|R|100"},
		{tool: "query_deepObject_nonExploded", args: `{"object":{"R":100,"G":200}}`,
			path: "/anything/query/deepObject", query: "object%5BG%5D=200&object%5BR%5D=100"},
		{tool: "query_form_nonExploded", args: `{"primitive":"a&b=c d+e"}`,
			path: "/anything/query/form", query: "primitive=a%26b%3Dc%20d%2Be"},
		{tool: "headers_standard", path: "/anything/headers",
			header: map[string]string{"Primitive": "blue", "Array": "blue,black,brown", "Object": "B,150,G,200,R,100"}},
		{tool: "headers_simple_nonExploded", path: "/anything/headers/simple",
			header: map[string]string{"Primitive": "blue", "Array": "blue,black,brown", "Object": "B,150,G,200,R,100"}},
		{tool: "headers_simple_exploded", path: "/anything/headers/simple",
			header: map[string]string{"Primitive": "blue", "Array": "blue,black,brown", "Object": "B=150,G=200,R=100"}},
		{tool: "cookies_standard", path: "/cookies",
			header: map[string]string{"Cookie": "array=blue; array=black; array=brown; B=150; G=200; R=100; primitive=blue"}},
		{tool: "cookies_form_exploded", path: "/cookies",
			header: map[string]string{"Cookie": "array=blue; array=black; array=brown; B=150; G=200; R=100; primitive=blue"}},
		{tool: "cookies_form_nonExploded", path: "/cookies",
			header: map[string]string{"Cookie": "array=blue,black,brown; object=B,150,G,200,R,100; primitive=blue"}},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			args := tt.args
			if args == "" {
				args = styleArgs
			}
			env := inv.Invoke(bg, cat, Call{Tool: tt.tool, Arguments: []byte(args)})
			if env.IsError() {
				t.Fatalf("envelope %s", envJSON(env))
			}
			got := srv.got()
			if got.RawPath != tt.path {
				t.Errorf("path = %s, want %s", got.RawPath, tt.path)
			}
			if got.RawQuery != tt.query {
				t.Errorf("query = %s, want %s", got.RawQuery, tt.query)
			}
			for k, want := range tt.header {
				if g := strings.Join(got.Header.Values(k), "|"); g != want {
					t.Errorf("header %s = %q, want %q", k, g, want)
				}
			}
		})
	}
}

// TestMultipartStyles checks the fixture's multipart operations: a part per
// array item, objects as JSON parts, scalars as text parts.
func TestMultipartStyles(t *testing.T) {
	cat := mustParse(t, specs.File(t, "readme-parameters-style-oas30.yaml"), nil)
	srv := newRecordingServer(t)
	inv := newTestInvoker(t, srv.URL, nil)
	for _, tool := range []string{"formData_standard", "formData_form_nonExploded", "form_data_form_exploded", "form_data_deepObject_exploded"} {
		t.Run(tool, func(t *testing.T) {
			env := inv.Invoke(bg, cat, Call{Tool: tool, Arguments: []byte(styleArgs)})
			if env.IsError() {
				t.Fatalf("envelope %s", envJSON(env))
			}
			got := srv.got()
			parts := readParts(t, got.Header.Get("Content-Type"), got.Body)
			want := []string{
				"array||blue", "array||black", "array||brown",
				`object|application/json|{"B":150,"G":200,"R":100}`,
				"primitive||blue",
			}
			if strings.Join(parts, "\n") != strings.Join(want, "\n") {
				t.Errorf("parts:\n%s\nwant:\n%s", strings.Join(parts, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// readParts returns each part as "name|content type|content", with
// "filename=" added after the name for a file part.
func readParts(t *testing.T, contentType string, body []byte) []string {
	t.Helper()
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil || mt != "multipart/form-data" {
		t.Fatalf("content type %q: %v", contentType, err)
	}
	r := multipart.NewReader(strings.NewReader(string(body)), params["boundary"])
	var out []string
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(p)
		name := p.FormName()
		if fn := p.FileName(); fn != "" {
			name += " filename=" + fn
		}
		out = append(out, name+"|"+p.Header.Get("Content-Type")+"|"+string(b))
	}
}

// TestBodies covers JSON, urlencoded (Stripe's deepObject), multipart with
// files, raw and text bodies, fixed query pairs and allowReserved.
func TestBodies(t *testing.T) {
	cat := mustParse(t, "testdata/pets.yaml", nil)
	srv := newRecordingServer(t)
	inv := newTestInvoker(t, srv.URL, func(o *Options) { o.Credentials = StaticCredentials{"qkey": "k"}.Credentials })
	png := base64.StdEncoding.EncodeToString([]byte("\x89PNG"))
	tests := []struct {
		name, tool, args string
		method, path     string
		query            string
		contentType      string
		body             string
	}{
		{name: "JSON body under wire names, integers exact", tool: "updatePet",
			args:   `{"id":9007199254740993,"body_id":"x","name":"Rex","age":null,"tags":["a"],"owner":{"email":"a@b"},"choice":true}`,
			method: "PATCH", path: "/pets/9007199254740993", contentType: "application/json",
			body: `{"age":null,"choice":true,"id":"x","name":"Rex","owner":{"email":"a@b"},"tags":["a"]}`},
		{name: "required JSON body with no properties", tool: "createPet", args: `{}`,
			method: "POST", path: "/pets", contentType: "application/json", body: `{}`},
		{name: "urlencoded with deepObject as Stripe reads it", tool: "createCharge",
			args:   `{"amount":2000,"metadata":{"order":"6735"},"expand":["customer","invoice"],"shipping":{"address":{"line1":"1 Main St"},"tags":["a","b"]}}`,
			method: "POST", path: "/charges", contentType: "application/x-www-form-urlencoded",
			body: "amount=2000&expand%5B0%5D=customer&expand%5B1%5D=invoice&metadata%5Border%5D=6735" +
				"&shipping%5Baddress%5D%5Bline1%5D=1%20Main%20St&shipping%5Btags%5D%5B0%5D=a&shipping%5Btags%5D%5B1%5D=b"},
		{name: "octet-stream from an inline file", tool: "putRaw", args: `{"id":3,"body":{"content":"` + png + `","contentType":"image/png"}}`,
			method: "PUT", path: "/pets/3/raw", contentType: "application/octet-stream", body: "\x89PNG"},
		{name: "octet-stream from a data URI", tool: "putRaw", args: `{"id":3,"body":"data:text/plain,hi%20there"}`,
			method: "PUT", path: "/pets/3/raw", contentType: "application/octet-stream", body: "hi there"},
		{name: "text/plain whole body", tool: "addNote", args: `{"id":3,"body":"good dog"}`,
			method: "POST", path: "/pets/3/notes", contentType: "text/plain", body: "good dog"},
		{name: "fixed query, allowReserved, credential in the query", tool: "search", args: `{"q":"a/b:c?d&e","big":12345678901234567890}`,
			method: "GET", path: "/search", query: "beta=true&big=12345678901234567890&q=a/b:c?d%26e&api_key=k"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := inv.Invoke(bg, cat, Call{Tool: tt.tool, Arguments: []byte(tt.args)})
			if env.IsError() {
				t.Fatalf("envelope %s", envJSON(env))
			}
			got := srv.got()
			if got.Method != tt.method || got.RawPath != tt.path || got.RawQuery != tt.query {
				t.Errorf("request = %s %s ? %s, want %s %s ? %s", got.Method, got.RawPath, got.RawQuery, tt.method, tt.path, tt.query)
			}
			if ct := got.Header.Get("Content-Type"); ct != tt.contentType {
				t.Errorf("content type = %q, want %q", ct, tt.contentType)
			}
			if string(got.Body) != tt.body {
				t.Errorf("body = %q, want %q", got.Body, tt.body)
			}
		})
	}
}

func TestMultipartFiles(t *testing.T) {
	cat := mustParse(t, "testdata/pets.yaml", nil)
	srv := newRecordingServer(t)
	inv := newTestInvoker(t, srv.URL, nil)
	args, _ := json.Marshal(map[string]any{
		"id":      1,
		"photo":   map[string]any{"content": base64.StdEncoding.EncodeToString([]byte("JPEGDATA")), "name": `me "2".jpg`, "contentType": "image/jpeg"},
		"caption": "hello",
		"meta":    map[string]any{"w": 640},
		"labels":  []any{"a", "b"},
	})
	env := inv.Invoke(bg, cat, Call{Tool: "uploadPhoto", Arguments: args})
	if env.IsError() {
		t.Fatalf("envelope %s", envJSON(env))
	}
	got := srv.got()
	parts := readParts(t, got.Header.Get("Content-Type"), got.Body)
	want := []string{
		"caption|text/plain|hello",
		"labels||a", "labels||b",
		`meta|application/json|{"w":640}`,
		`photo filename=me "2".jpg|image/jpeg|JPEGDATA`,
	}
	if strings.Join(parts, "\n") != strings.Join(want, "\n") {
		t.Errorf("parts:\n%s\nwant:\n%s", strings.Join(parts, "\n"), strings.Join(want, "\n"))
	}
}

// TestUndecidedTypesPass: where anyOf or oneOf leaves the type open, the
// dry run lets the value through and the backend judges it.
func TestUndecidedTypesPass(t *testing.T) {
	cat := mustParse(t, "testdata/pets.yaml", nil)
	srv := newRecordingServer(t)
	inv := newTestInvoker(t, srv.URL, nil)
	for _, v := range []string{`"s"`, `1`, `true`, `{"a":1}`, `null`} {
		env := inv.Invoke(bg, cat, Call{Tool: "updatePet", Arguments: []byte(`{"id":1,"choice":` + v + `}`)})
		if env.IsError() {
			t.Errorf("choice=%s: envelope %s, want it sent", v, envJSON(env))
		}
	}
	// Value rules are the backend's: a too-short name still goes out.
	env := inv.Invoke(bg, cat, Call{Tool: "updatePet", Arguments: []byte(`{"id":1,"name":"R"}`)})
	if env.IsError() {
		t.Errorf("minLength was judged by the dry run: %s", envJSON(env))
	}
	if n := srv.hits.Load(); n != 6 {
		t.Errorf("backend hits = %d, want 6", n)
	}
}

// TestStripeFormBody composes a real Stripe operation: a urlencoded body
// whose nested objects and arrays use deepObject, with HTTP basic auth.
func TestStripeFormBody(t *testing.T) {
	cat := mustParse(t, specs.File(t, "stripe-spec3-2023-09.yaml"), nil)
	inv, _ := New(&Options{
		Backend:     Handler(http.NotFoundHandler()),
		Credentials: StaticCredentials{"basicAuth": "sk_test_123:"}.Credentials,
	})
	req, env := inv.Compose(bg, cat, Call{Tool: "PostCustomers", Arguments: []byte(`{
		"email": "a@b.c",
		"metadata": {"order": "1"},
		"address": {"line1": "1 Main", "city": "X"},
		"expand": ["tax"],
		"preferred_locales": ["en", "fr"],
		"tax_id_data": [{"type": "eu_vat", "value": "DE1"}]
	}`)})
	if env != nil {
		t.Fatalf("envelope %s", envJSON(env))
	}
	body, _ := io.ReadAll(req.Body)
	want := "address%5Bcity%5D=X&address%5Bline1%5D=1%20Main&email=a%40b.c&expand%5B0%5D=tax&metadata%5Border%5D=1" +
		"&preferred_locales%5B0%5D=en&preferred_locales%5B1%5D=fr&tax_id_data%5B0%5D%5Btype%5D=eu_vat&tax_id_data%5B0%5D%5Bvalue%5D=DE1"
	if string(body) != want {
		t.Errorf("body\n%s\nwant\n%s", body, want)
	}
	form, err := url.ParseQuery(string(body))
	if err != nil || form.Get("tax_id_data[0][type]") != "eu_vat" || form.Get("address[line1]") != "1 Main" {
		t.Errorf("a form reader sees %v (%v)", form, err)
	}
	if got, want := req.Header.Get("Authorization"), "Basic "+base64.StdEncoding.EncodeToString([]byte("sk_test_123:")); got != want {
		t.Errorf("Authorization = %q, want %q", got, want)
	}
	if req.Method != "POST" || req.URL.Path != "/v1/customers" {
		t.Errorf("request %s %s", req.Method, req.URL)
	}
}

// TestPetstoreUploads sends the real Petstore uploads: Swagger 2.0's
// multipart formData file and OpenAPI 3.0's raw octet-stream body.
func TestPetstoreUploads(t *testing.T) {
	srv := newRecordingServer(t)
	inv := newTestInvoker(t, srv.URL, nil)
	img := base64.StdEncoding.EncodeToString([]byte("GIF89a"))

	cat := mustParse(t, specs.File(t, "petstore-swagger20.json"), nil)
	env := inv.Invoke(bg, cat, Call{Tool: "uploadFile", Arguments: []byte(`{"petId":5,"additionalMetadata":"front","file":{"content":"` + img + `","name":"rex.gif","contentType":"image/gif"}}`)})
	if env.IsError() {
		t.Fatalf("swagger 2.0: envelope %s", envJSON(env))
	}
	got := srv.got()
	parts := readParts(t, got.Header.Get("Content-Type"), got.Body)
	if want := "additionalMetadata||front\nfile filename=rex.gif|image/gif|GIF89a"; got.RawPath != "/pet/5/uploadImage" || strings.Join(parts, "\n") != want {
		t.Errorf("swagger 2.0: %s with parts\n%s\nwant /pet/5/uploadImage with\n%s", got.RawPath, strings.Join(parts, "\n"), want)
	}

	cat = mustParse(t, specs.File(t, "petstore-oas30.yaml"), nil)
	env = inv.Invoke(bg, cat, Call{Tool: "uploadFile", Arguments: []byte(`{"petId":5,"additionalMetadata":"front","body":"data:image/gif;base64,` + img + `"}`)})
	if env.IsError() {
		t.Fatalf("openapi 3.0: envelope %s", envJSON(env))
	}
	got = srv.got()
	if got.RawPath != "/pet/5/uploadImage" || got.RawQuery != "additionalMetadata=front" || string(got.Body) != "GIF89a" ||
		got.Header.Get("Content-Type") != "application/octet-stream" {
		t.Errorf("openapi 3.0: %s?%s %q %q", got.RawPath, got.RawQuery, got.Header.Get("Content-Type"), got.Body)
	}
}
