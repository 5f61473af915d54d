package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// consoleBlock is one "$ sezzlee ..." command of a ```console block in a
// document, with the output the document shows for it.
type consoleBlock struct {
	line int // 1-based line of the command; its output follows
	end  int // 0-based index of the line after the output
	args []string
	in   string // a file redirected to standard input, or ""
	want string
}

// consoleBlocks reads the commands and outputs of a Markdown document.
func consoleBlocks(t *testing.T, doc string) []consoleBlock {
	t.Helper()
	var out []consoleBlock
	var cur *consoleBlock
	inBlock := false
	for i, l := range strings.Split(doc, "\n") {
		switch {
		case !inBlock && strings.HasPrefix(l, "```console"):
			inBlock = true
		case inBlock && strings.HasPrefix(l, "```"):
			inBlock, cur = false, nil
		case inBlock && strings.HasPrefix(l, "$ sezzlee "):
			words, err := shellWords(strings.TrimPrefix(l, "$ sezzlee "))
			if err != nil {
				t.Fatalf("line %d: %v", i+1, err)
			}
			b := consoleBlock{line: i + 1, args: words}
			if n := len(words); n >= 2 && words[n-2] == "<" {
				b.in, b.args = words[n-1], words[:n-2]
			}
			out = append(out, b)
			cur = &out[len(out)-1]
		case inBlock && cur != nil:
			cur.want += l + "\n"
		}
		if cur != nil {
			cur.end = i + 1
		}
	}
	return out
}

// shellWords splits a command line at spaces, honouring single and double
// quotes; it is enough for the commands the documents show.
func shellWords(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			w.WriteRune(r)
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, os.ErrInvalid
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

// trimLines drops trailing spaces on each line and trailing blank lines.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// TestDocsSearch runs every command docs/search.md shows and compares its
// output with the page. Commands reading ../shared are skipped without it.
func TestDocsSearch(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "search.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := consoleBlocks(t, string(doc))
	if len(blocks) < 5 {
		t.Fatalf("found %d commands in docs/search.md, want at least 5", len(blocks))
	}
	t.Chdir(filepath.Join("..", ".."))
	lines := strings.Split(string(doc), "\n")
	got := make(map[int]string) // a block's first output line -> its new output
	for _, b := range blocks {
		if strings.Contains(strings.Join(b.args, " "), "../shared/") {
			if _, err := os.Stat(filepath.Join("..", "shared")); err != nil {
				t.Logf("line %d skipped: ../shared is absent", b.line)
				continue
			}
		}
		stdin := ""
		if b.in != "" {
			data, err := os.ReadFile(b.in)
			if err != nil {
				t.Fatalf("line %d: %v", b.line, err)
			}
			stdin = string(data)
		}
		var out, errb bytes.Buffer
		e := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
		if code := run(context.Background(), e, b.args); code != exitOK {
			t.Errorf("line %d: sezzlee %q: exit %d, stderr %q", b.line, b.args, code, errb.String())
			continue
		}
		if updateGolden() {
			got[b.line] = trimLines(out.String())
			continue
		}
		if got, want := trimLines(out.String()), trimLines(b.want); got != want {
			t.Errorf("line %d: sezzlee %q printed\n%s\nthe page shows\n%s (go test -update rewrites the page)", b.line, b.args, got, want)
		}
	}
	if updateGolden() {
		// Replace each output, last first so earlier line numbers hold.
		for i := len(blocks) - 1; i >= 0; i-- {
			b := blocks[i]
			if out, ok := got[b.line]; ok {
				lines = append(lines[:b.line], append(strings.Split(out, "\n"), lines[b.end:]...)...)
			}
		}
		if err := os.WriteFile(filepath.Join("docs", "search.md"), []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// updateGolden reports whether -update was given. The flag is registered
// here unless another test file of the package already has.
func updateGolden() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files and documented outputs")
	}
}
