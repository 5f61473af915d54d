package invoke

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// docBlock is one fenced block of a docs page with the marker before it.
type docBlock struct {
	marker string // "call: createCharge", "sent", "parts", "answer"; "" for none
	lang   string
	text   string
}

var fence = regexp.MustCompile("(?s)(?:<!-- ([^>]*?) -->\\s*\n)?```(\\w*)\n(.*?)```")

func docBlocks(t *testing.T, path string) []docBlock {
	t.Helper()
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []docBlock
	for _, m := range fence.FindAllStringSubmatch(string(page), -1) {
		out = append(out, docBlock{marker: m[1], lang: m[2], text: m[3]})
	}
	return out
}

// TestFormsAndFilesPage runs every call docs/forms-and-files.md shows and
// checks what the backend received and what the agent got back.
func TestFormsAndFilesPage(t *testing.T) {
	cat := mustParse(t, "testdata/forms.yaml", nil)
	srv := newRecordingServer(t)
	blocks := docBlocks(t, "../docs/forms-and-files.md")
	var inv *Invoker
	var env string
	calls := 0
	for i, b := range blocks {
		switch {
		case strings.HasPrefix(b.marker, "call: "):
			f := strings.Fields(strings.TrimPrefix(b.marker, "call: "))
			max := int64(0)
			for _, opt := range f[1:] {
				if v, ok := strings.CutPrefix(opt, "max-file-bytes="); ok {
					max, _ = strconv.ParseInt(v, 10, 64)
				}
			}
			inv = newTestInvoker(t, srv.URL, func(o *Options) {
				o.Files = LocalFiles{Root: "testdata/files"}
				o.MaxFileBytes = max
			})
			e := inv.Invoke(bg, cat, Call{Tool: f[0], Arguments: []byte(b.text)})
			env = envJSON(e)
			calls++
			if i+1 < len(blocks) && blocks[i+1].marker != "answer" && e.IsError() {
				t.Errorf("block %d: call %s failed: %s", i, f[0], env)
			}
		case b.marker == "sent":
			got := srv.got()
			lines := []string{got.Method + " " + got.RawPath, "Content-Type: " + got.Header.Get("Content-Type"), "", string(got.Body)}
			if want := strings.TrimSuffix(b.text, "\n"); strings.Join(lines, "\n") != want {
				t.Errorf("block %d: the backend received\n%s\nthe page says\n%s", i, strings.Join(lines, "\n"), want)
			}
		case b.marker == "parts":
			got := srv.got()
			var parts []string
			for _, p := range readParts(t, got.Header.Get("Content-Type"), got.Body) {
				q := strconv.Quote(p)
				parts = append(parts, strings.ReplaceAll(q[1:len(q)-1], `\"`, `"`))
			}
			if want := strings.TrimSuffix(b.text, "\n"); strings.Join(parts, "\n") != want {
				t.Errorf("block %d: the backend received parts\n%s\nthe page says\n%s", i, strings.Join(parts, "\n"), want)
			}
		case b.marker == "answer":
			var want, got bytes.Buffer
			if err := json.Compact(&want, []byte(b.text)); err != nil {
				t.Fatalf("block %d is not JSON: %v", i, err)
			}
			json.Compact(&got, []byte(env))
			if want.String() != got.String() {
				t.Errorf("block %d: the envelope is\n%s\nthe page says\n%s", i, got.String(), want.String())
			}
		case b.lang == "json":
			if !json.Valid([]byte(b.text)) {
				t.Errorf("block %d is not valid JSON", i)
			}
		}
	}
	if calls < 6 {
		t.Errorf("ran %d calls from the page, want at least 6; did the markers change?", calls)
	}
}
