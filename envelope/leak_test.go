package envelope

import (
	"bufio"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// leakSample is one entry of the leak package's corpus.
type leakSample struct {
	name, text string
	secrets    []string
}

func readLeakCorpus(t *testing.T) []leakSample {
	t.Helper()
	a, err := txtar.ParseFile("../leak/testdata/leaks.txtar")
	if err != nil {
		t.Fatal(err)
	}
	var out []leakSample
	for _, f := range a.Files {
		s := leakSample{name: f.Name}
		var body []string
		for _, line := range strings.Split(string(f.Data), "\n") {
			if v, ok := strings.CutPrefix(line, "# secret: "); ok {
				s.secrets = append(s.secrets, v)
			} else {
				body = append(body, line)
			}
		}
		s.text = strings.TrimSpace(strings.Join(body, "\n"))
		out = append(out, s)
	}
	return out
}

// leakCarriers are the ways a backend's text reaches an envelope: as a
// 5xx body (plain and JSON), as a 4xx detail, and as field messages of
// several frameworks.
var leakCarriers = []struct {
	name   string
	status int
	ct     string
	body   func(string) string
}{
	{"500 text", 500, "text/plain", func(s string) string { return s }},
	{"500 json message", 500, "application/json", func(s string) string { return jsonObject("message", s) }},
	{"502 nested error", 502, "application/json", func(s string) string { return `{"error":` + jsonObject("message", s) + `}` }},
	{"400 problem detail", 400, "application/problem+json", func(s string) string { return jsonObject("detail", s) }},
	{"409 title", 409, "application/problem+json", func(s string) string { return jsonObject("title", s) }},
	{"422 errors map", 422, "application/json", func(s string) string { return `{"errors":{"quantity":[` + jsonString(s) + `]}}` }},
	{"400 errors list", 400, "application/json", func(s string) string {
		return `{"errors":[{"field":"quantity","defaultMessage":` + jsonString(s) + `}]}`
	}},
	{"422 fastapi", 422, "application/json", func(s string) string {
		return `{"detail":[{"loc":["body","quantity"],"msg":` + jsonString(s) + `}]}`
	}},
	{"400 nestjs", 400, "application/json", func(s string) string { return `{"message":[` + jsonString("quantity "+s) + `]}` }},
	{"404 reference", 404, "application/json", func(s string) string { return jsonObject("traceId", s) }},
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func jsonObject(k, v string) string { return "{" + jsonString(k) + ":" + jsonString(v) + "}" }

func TestLeakCorpusThroughFromResponse(t *testing.T) {
	corpus := readLeakCorpus(t)
	if len(corpus) < 100 {
		t.Fatalf("corpus has %d samples; want at least 100", len(corpus))
	}
	for _, s := range corpus {
		for _, c := range leakCarriers {
			r := &Response{Status: c.status, Header: http.Header{"Content-Type": {c.ct}}, Body: []byte(c.body(s.text))}
			r.Header.Set("X-Request-Id", strings.SplitN(s.text, "\n", 2)[0])
			e := FromResponse(r, &MapOptions{Arguments: []string{"quantity"}})
			out := string(mustValidate(t, e))
			for _, sec := range s.secrets {
				if strings.Contains(out, sec) {
					t.Errorf("%s as %s: %q reached the agent:\n%s", s.name, c.name, sec, out)
				}
			}
		}
	}
}

func TestProseThroughFromResponse(t *testing.T) {
	f, err := os.Open("../leak/testdata/prose.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		p := sc.Text()
		if p == "" || strings.HasPrefix(p, "#") {
			continue
		}
		n++
		body := `{"detail":` + jsonString(p) + `,"errors":[{"path":"quantity","msg":` + jsonString(p) + `}]}`
		e := FromResponse(&Response{Status: 422, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(body)},
			&MapOptions{Arguments: []string{"quantity"}})
		mustValidate(t, e)
		if want := messageOf(ValidationFailed) + " The backend said: " + p; e.Message != want {
			t.Errorf("message %q; want %q", e.Message, want)
		}
		if len(e.Fields) != 1 || e.Fields[0].Message != p {
			t.Errorf("fields %+v; want one with message %q", e.Fields, p)
		}
	}
	if n < 50 {
		t.Errorf("%d prose messages; want at least 50", n)
	}
}
