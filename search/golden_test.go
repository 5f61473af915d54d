package search

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sezzlee/sezzlee/catalog"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func loadShop(t testing.TB) *catalog.Catalog {
	t.Helper()
	c, err := catalog.Load(context.Background(), filepath.Join("testdata", "shop.yaml"), nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestGolden pins the search_tools wire format: testdata/golden.txtar holds
// queries (one JSON Query a line) and the JSON result of each. Run
// go test -update to regenerate the results, then review the diff.
func TestGolden(t *testing.T) {
	path := filepath.Join("testdata", "golden.txtar")
	a, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(loadShop(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	var queries []byte
	for _, f := range a.Files {
		if f.Name == "queries.jsonl" {
			queries = f.Data
		}
	}
	if queries == nil {
		t.Fatalf("%s has no queries.jsonl", path)
	}
	var got bytes.Buffer
	for _, line := range strings.Split(strings.TrimSpace(string(queries)), "\n") {
		var q Query
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&q); err != nil {
			t.Fatalf("query %s: %v", line, err)
		}
		res, env := s.Search(context.Background(), q)
		var v any = res
		if env != nil {
			v = env
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got.Write(b)
		got.WriteByte('\n')
	}
	if *update {
		a.Files = []txtar.File{{Name: "queries.jsonl", Data: queries}, {Name: "results.jsonl", Data: got.Bytes()}}
		if err := os.WriteFile(path, txtar.Format(a), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	var want []byte
	for _, f := range a.Files {
		if f.Name == "results.jsonl" {
			want = f.Data
		}
	}
	gotLines, wantLines := strings.Split(got.String(), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(gotLines), len(wantLines)) {
		var g, w string
		if i < len(gotLines) {
			g = gotLines[i]
		}
		if i < len(wantLines) {
			w = wantLines[i]
		}
		if g != w {
			t.Errorf("result %d:\n got %s\nwant %s", i+1, g, w)
		}
	}
}
