package invoke

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the outputs in testdata/compose.txtar")

// TestGoldenCompose runs each NAME.call in testdata/compose.txtar (a tool
// name on the first line, the JSON arguments after it) through Compose and
// compares the request sent (NAME.http) or the envelope (NAME.json) with the
// archive. go test -run TestGoldenCompose -update rewrites the outputs.
func TestGoldenCompose(t *testing.T) {
	const file = "testdata/compose.txtar"
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	cat := mustParse(t, "testdata/pets.yaml", nil)
	inv, err := New(&Options{
		Backend:     Handler(http.NotFoundHandler()),
		Credentials: StaticCredentials{"key": "KEY", "bearer": "TOKEN", "sid": "SESSION", "qkey": "QKEY"}.Credentials,
		Deferred:    tenant("acme", nil),
	})
	if err != nil {
		t.Fatal(err)
	}
	out := &txtar.Archive{Comment: ar.Comment}
	calls := 0
	for _, f := range ar.Files {
		name, ok := strings.CutSuffix(f.Name, ".call")
		if !ok {
			continue
		}
		calls++
		tool, args, _ := strings.Cut(string(f.Data), "\n")
		req, env := inv.Compose(bg, cat, Call{Tool: tool, Arguments: []byte(args)})
		var got txtar.File
		if env != nil {
			j, _ := json.MarshalIndent(env, "", "  ")
			got = txtar.File{Name: name + ".json", Data: append(j, '\n')}
		} else {
			got = txtar.File{Name: name + ".http", Data: renderRequest(t, req)}
		}
		out.Files = append(out.Files, f, got)
		if *update {
			continue
		}
		var want []byte
		for _, g := range ar.Files {
			if g.Name == got.Name {
				want = g.Data
			}
		}
		if !bytes.Equal(got.Data, want) {
			t.Errorf("%s:\n%s\nwant:\n%s", got.Name, got.Data, want)
		}
	}
	if calls == 0 {
		t.Fatal("no .call files in the archive")
	}
	if *update {
		if err := os.WriteFile(file, txtar.Format(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// renderRequest writes a request as text: request line, sorted headers,
// body. A multipart boundary, random per request, is replaced by BOUNDARY.
func renderRequest(t *testing.T, req *http.Request) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s\n", req.Method, req.URL.RequestURI())
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
	}
	boundary := ""
	if _, params, err := mime.ParseMediaType(req.Header.Get("Content-Type")); err == nil {
		boundary = params["boundary"]
	}
	keys := make([]string, 0, len(req.Header))
	for k := range req.Header {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range req.Header[k] {
			fmt.Fprintf(&b, "%s: %s\n", k, v)
		}
	}
	if len(body) > 0 {
		b.WriteString("\n")
		s := string(body)
		if boundary != "" {
			s = strings.ReplaceAll(s, boundary, "BOUNDARY")
		}
		b.WriteString(strings.ReplaceAll(s, "\r\n", "\n"))
		b.WriteString("\n")
	}
	if boundary != "" {
		return bytes.ReplaceAll(b.Bytes(), []byte(boundary), []byte("BOUNDARY"))
	}
	return b.Bytes()
}
