package search

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sezzlee/sezzlee/catalog"
)

// TestDocsRefusal checks the refusal envelope docs/search.md shows against
// the one a failing ranker produces.
func TestDocsRefusal(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "search.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```json refusal\n")
	if !ok {
		t.Fatal("docs/search.md has no ```json refusal block")
	}
	block, _, _ := strings.Cut(rest, "```")
	s := mustSearcher(t, petTools(), &Options{RefuseOnRankerFailure: true,
		Ranker: RankerFunc(func(context.Context, Query, []*catalog.Tool) ([]Hit, error) { return nil, errRanker })})
	_, env := s.Search(context.Background(), Query{Text: "add a pet"})
	got, err := json.MarshalIndent(env, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := json.Indent(&want, []byte(block), "", "  "); err != nil {
		t.Fatalf("the refusal block is not JSON: %v", err)
	}
	if strings.TrimSpace(want.String()) != string(got) {
		t.Errorf("docs/search.md shows\n%s\nthe refusal is\n%s", want.String(), got)
	}
}
