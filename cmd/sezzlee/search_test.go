package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

const notesSpec = "testdata/search/notes.yaml"

// runCmdStdin runs a command with the given standard input.
func runCmdStdin(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
	code = run(context.Background(), e, args)
	return code, out.String(), errb.String()
}

func TestSearchJSONMatchesTools(t *testing.T) {
	code, out, stderr := runCmd(t, "search", "--spec", notesSpec, "--json", "remove note")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var got searchLine
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, out)
	}
	if got.Query != "remove note" || len(got.Hits) == 0 {
		t.Fatalf("got %s, want the query and hits", out)
	}
	if h := got.Hits[0]; h.Name != "deleteNote" || h.Method != "DELETE" || h.Path != "/notes/{noteId}" || h.Score <= 0 {
		t.Errorf("first hit = %+v, want deleteNote DELETE /notes/{noteId} with a positive score", h)
	}
	// Every hit's method and path are those `sezzlee tools --json` gives.
	code, out, stderr = runCmd(t, "tools", "--spec", notesSpec, "--json")
	if code != exitOK {
		t.Fatalf("tools: exit %d, stderr %q", code, stderr)
	}
	var tools []toolLine
	if err := json.Unmarshal([]byte(out), &tools); err != nil {
		t.Fatal(err)
	}
	byName := map[string]toolLine{}
	for _, tl := range tools {
		byName[tl.Name] = tl
	}
	for _, h := range got.Hits {
		if tl := byName[h.Name]; tl.Method != h.Method || tl.Path != h.Path {
			t.Errorf("hit %s %s %s, tools says %s %s", h.Name, h.Method, h.Path, tl.Method, tl.Path)
		}
	}
}

func TestSearchText(t *testing.T) {
	code, out, stderr := runCmd(t, "search", "--spec", notesSpec, "--limit", "2", "remove note")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "SCORE") || !strings.Contains(lines[1], "deleteNote") {
		t.Errorf("output =\n%s\nwant a header, then deleteNote first", out)
	}
	if !strings.Contains(out, "dominates") {
		t.Errorf("output =\n%s\nwant the note that the definition is included", out)
	}
}

func TestSearchStdin(t *testing.T) {
	code, out, stderr := runCmdStdin(t, "remove note\n\n  all my notes  \n", "search", "--spec", notesSpec, "--limit", "3", "-")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	wantQuery := []string{"remove note", "", "all my notes"}
	wantFirst := []string{"deleteNote", "createNote", "listNotes"}
	if len(lines) != len(wantQuery) {
		t.Fatalf("got %d lines, want one per input line:\n%s", len(lines), out)
	}
	for i, l := range lines {
		var got searchLine
		if err := json.Unmarshal([]byte(l), &got); err != nil {
			t.Fatalf("line %d is not JSON: %v", i+1, err)
		}
		if got.Query != wantQuery[i] || len(got.Hits) == 0 || got.Hits[0].Name != wantFirst[i] {
			t.Errorf("line %d = %s, want query %q answered by %s first", i+1, l, wantQuery[i], wantFirst[i])
		}
		if len(got.Hits) > 3 {
			t.Errorf("line %d has %d hits, want at most --limit 3", i+1, len(got.Hits))
		}
	}
}

func TestSearchFilters(t *testing.T) {
	code, out, stderr := runCmd(t, "search", "--spec", notesSpec, "--json", "--method", "get", "--tag", "NOTES", "note")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var got searchLine
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Hits) != 2 {
		t.Errorf("got %d hits, want the 2 GET tools tagged notes: %s", len(got.Hits), out)
	}
	for _, h := range got.Hits {
		if h.Method != "GET" {
			t.Errorf("filter kept %s %s", h.Method, h.Path)
		}
	}
}

func TestSearchUsage(t *testing.T) {
	tests := []struct {
		args []string
		want int
	}{
		{[]string{"search", "--spec", notesSpec}, exitUsage},
		{[]string{"search", "--spec", notesSpec, "a", "b"}, exitUsage},
		{[]string{"search", "--spec", notesSpec, "--limit", "0", "note"}, exitUsage},
		{[]string{"search", "--spec", notesSpec, "--limit", "21", "note"}, exitUsage},
		{[]string{"search", "--spec", "testdata/search/queries.jsonl", "note"}, exitUsage},
		{[]string{"search", "-h"}, exitOK},
	}
	for _, tt := range tests {
		if code, _, stderr := runCmd(t, tt.args...); code != tt.want {
			t.Errorf("sezzlee %q: exit %d, want %d (stderr %q)", tt.args, code, tt.want, stderr)
		}
	}
}

// TestSearchSpecURL loads the description over HTTP from a loopback
// server, which only --allow-private-networks permits.
func TestSearchSpecURL(t *testing.T) {
	data, err := os.ReadFile(notesSpec)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/yaml")
		w.Write(data)
	}))
	defer srv.Close()
	url := srv.URL + "/notes.yaml"

	if code, _, _ := runCmd(t, "search", "--spec", url, "remove note"); code == exitOK {
		t.Errorf("loading from a loopback URL without --allow-private-networks succeeded")
	}
	code, out, stderr := runCmd(t, "search", "--spec", url, "--allow-private-networks", "--json", "remove note")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var got searchLine
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Hits) == 0 || got.Hits[0].Name != "deleteNote" {
		t.Errorf("got %s (%v), want deleteNote first", out, err)
	}
}
