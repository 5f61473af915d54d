package leak

import (
	"bufio"
	"flag"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/tools/txtar"
)

// Sample is one entry of the leak corpus.
type sample struct {
	name    string
	text    string
	secrets []string
}

// readCorpus reads testdata/leaks.txtar.
func readCorpus(tb testing.TB) []sample {
	tb.Helper()
	a, err := txtar.ParseFile("testdata/leaks.txtar")
	if err != nil {
		tb.Fatal(err)
	}
	var out []sample
	for _, f := range a.Files {
		s := sample{name: f.Name}
		var body []string
		for _, line := range strings.Split(string(f.Data), "\n") {
			if v, ok := strings.CutPrefix(line, "# secret: "); ok {
				s.secrets = append(s.secrets, v)
				continue
			}
			body = append(body, line)
		}
		s.text = strings.TrimRight(strings.Join(body, "\n"), "\n")
		if len(s.secrets) == 0 {
			tb.Fatalf("sample %s names no secret", s.name)
		}
		for _, sec := range s.secrets {
			if !strings.Contains(s.text, sec) {
				tb.Fatalf("sample %s: secret %q is not in its text", s.name, sec)
			}
		}
		out = append(out, s)
	}
	return out
}

// readProse reads testdata/prose.txt.
func readProse(tb testing.TB) []string {
	tb.Helper()
	f, err := os.Open("testdata/prose.txt")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := sc.Text(); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

func TestCorpusComesOutClean(t *testing.T) {
	corpus := readCorpus(t)
	if len(corpus) < 100 {
		t.Fatalf("corpus has %d samples, want at least 100", len(corpus))
	}
	for _, s := range corpus {
		got, withheld := Filter(s.text)
		if !withheld {
			t.Errorf("%s: Filter reported nothing withheld; got %q", s.name, got)
		}
		for _, sec := range s.secrets {
			if strings.Contains(got, sec) {
				t.Errorf("%s: %q survived the filter:\n%s", s.name, sec, got)
			}
		}
	}
}

func TestProsePassesUnchanged(t *testing.T) {
	prose := readProse(t)
	if len(prose) < 50 {
		t.Fatalf("prose has %d messages, want at least 50", len(prose))
	}
	for _, p := range prose {
		got, withheld := Filter(p)
		if got != p || withheld {
			t.Errorf("Filter(%q) = %q, %v; want it unchanged, false", p, got, withheld)
		}
		if got := Clean(p); got != p {
			t.Errorf("Clean(%q) = %q; want it unchanged", p, got)
		}
	}
}

func TestFilter(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"", ""},
		{"quantity must be positive", "quantity must be positive"},
		{"connect to postgres://u:p@db/x failed", "connect to [withheld] failed"},
		{"TypeError: Cannot read properties of undefined (reading 'id')", "Cannot read properties of undefined (reading 'id')"},
		{"Couldn't find Order (ActiveRecord::RecordNotFound)", "Couldn't find Order ([withheld])"},
		{"host 10.0.0.1 and 10.0.0.2 down", "host [withheld] and [withheld] down"},
		{"upstream 8.8.8.8 answered 500", "upstream 8.8.8.8 answered 500"},
		{"boom\n    at com.acme.X.run(X.java:1)\n    at com.acme.Y.run(Y.java:2)", "boom"},
		{"password=hunter2", "password=[withheld]"},
		{`{"password": "hunter2"}`, `{"password": "[withheld]"}`},
		{"uses the Bearer scheme", "uses the Bearer scheme"},
		{"Bearer abc.def-123456", "Bearer [withheld]"},
		{"Basic authentication is disabled", "Basic authentication is disabled"},
		{"Basic dXNlcjpwYXNz", "Basic [withheld]"},
		{"line one\r\nline two", "line one\nline two"},
	}
	for _, tt := range tests {
		if got, _ := Filter(tt.in); got != tt.want {
			t.Errorf("Filter(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

func TestTruncate(t *testing.T) {
	long := strings.Repeat("é", 3000)
	got, withheld := Filter(long)
	if n := utf8.RuneCountInString(got); n != MaxRunes {
		t.Errorf("Filter of 3000 runes gave %d runes; want %d", n, MaxRunes)
	}
	if !withheld || !strings.HasSuffix(got, "…") {
		t.Errorf("a cut text must be reported as withheld and end with an ellipsis; got withheld=%v, suffix %q", withheld, got[len(got)-8:])
	}
	c := Clean(long)
	if n := utf8.RuneCountInString(c); n > MaxRunes || !strings.HasSuffix(c, Note) {
		t.Errorf("Clean of 3000 runes gave %d runes ending %q; want at most %d ending with the note", n, c[len(c)-30:], MaxRunes)
	}
	exact := strings.Repeat("a", MaxRunes)
	if got, withheld := Filter(exact); got != exact || withheld {
		t.Errorf("a text of exactly MaxRunes runes was changed (withheld=%v)", withheld)
	}
}

func TestClean(t *testing.T) {
	tests := []struct{ in, want string }{
		{"fine", "fine"},
		{"at 10.0.0.1", "at [withheld] " + Note},
		{"Traceback (most recent call last):\n  File \"/app/x.py\", line 3, in f\n    f()", Note},
	}
	for _, tt := range tests {
		got := Clean(tt.in)
		if got != tt.want {
			t.Errorf("Clean(%q) = %q; want %q", tt.in, got, tt.want)
		}
		if again := Clean(got); again != got {
			t.Errorf("Clean(Clean(%q)) = %q; want %q", tt.in, again, got)
		}
	}
}

func TestIdempotentOnCorpus(t *testing.T) {
	for _, s := range readCorpus(t) {
		once, _ := Filter(s.text)
		if twice, _ := Filter(once); twice != once {
			t.Errorf("%s: filtering twice changed the text:\nonce:  %q\ntwice: %q", s.name, once, twice)
		}
		c := Clean(s.text)
		if again := Clean(c); again != c {
			t.Errorf("%s: Clean twice changed the text:\nonce:  %q\ntwice: %q", s.name, c, again)
		}
	}
}

func FuzzFilter(f *testing.F) {
	for _, s := range readCorpus(f) {
		f.Add(s.text)
	}
	for _, p := range readProse(f) {
		f.Add(p)
	}
	f.Add(strings.Repeat("localhost", 200))
	f.Fuzz(func(t *testing.T, s string) {
		once, _ := Filter(s)
		if n := utf8.RuneCountInString(once); n > MaxRunes {
			t.Fatalf("output has %d runes; want at most %d", n, MaxRunes)
		}
		if twice, _ := Filter(once); twice != once {
			t.Fatalf("filtering twice changed the text:\nonce:  %q\ntwice: %q", once, twice)
		}
		c := Clean(s)
		if n := utf8.RuneCountInString(c); n > MaxRunes {
			t.Fatalf("Clean output has %d runes; want at most %d", n, MaxRunes)
		}
		if again := Clean(c); again != c {
			t.Fatalf("Clean twice changed the text:\nonce:  %q\ntwice: %q", c, again)
		}
	})
}

func BenchmarkFilter(b *testing.B) {
	cases := map[string]string{
		"prose":     "The field Quantity must be between 1 and 100.",
		"secret":    "could not connect to postgres://orders:hunter22@10.0.3.7:5432/orders",
		"javaTrace": readCorpus(b)[0].text,
	}
	for name, msg := range cases {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Filter(msg)
			}
		})
	}
}

func TestLongInput(t *testing.T) {
	jwt := "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJvcmRlcnMifQ.c2lnbmF0dXJlLXZhbHVl"
	// A stack long enough to push a secret past the rules' input bound:
	// the secret must not surface, whole or cut.
	s := strings.Repeat("    at com.acme.X.run(X.java:1)\n", 600) + "token " + jwt
	got, withheld := Filter(s)
	if !withheld || strings.Contains(got, "eyJ") {
		t.Errorf("Filter of a long stack = %q, %v; want no part of the token", got, withheld)
	}
}

var update = flag.Bool("update", false, "rewrite testdata/filtered.txtar")

// TestCorpusGolden pins what each corpus sample becomes, so that a change
// to the rules shows in review as a diff of agent-facing text.
func TestCorpusGolden(t *testing.T) {
	const path = "testdata/filtered.txtar"
	got := &txtar.Archive{Comment: []byte("What Clean returns for each sample of leaks.txtar (go test ./leak -update).\n")}
	for _, s := range readCorpus(t) {
		got.Files = append(got.Files, txtar.File{Name: s.name, Data: []byte(Clean(s.text) + "\n")})
	}
	data := txtar.Format(got)
	if *update {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != string(want) {
		t.Errorf("%s is out of date (go test ./leak -update, then review the diff)", path)
	}
}
