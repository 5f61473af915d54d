package search

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sezzlee/sezzlee/catalog"
)

func TestReadEvalQueries(t *testing.T) {
	good := `{"spec": "a.yaml", "query": "add a pet", "expect": ["POST /pets"], "kind": "keyword"}`
	tests := []struct {
		name, in string
		want     int // queries read; -1 for an error
	}{
		{"one", good, 1},
		{"blank lines", "\n" + good + "\n\n  \n" + good + "\n", 2},
		{"empty file", "", 0},
		{"unknown key", `{"spec": "a.yaml", "query": "q", "expect": ["GET /a"], "kind": "k", "extra": 1}`, -1},
		{"no expect", `{"spec": "a.yaml", "query": "q", "expect": [], "kind": "k"}`, -1},
		{"lower-case method", `{"spec": "a.yaml", "query": "q", "expect": ["get /a"], "kind": "k"}`, -1},
		{"no slash", `{"spec": "a.yaml", "query": "q", "expect": ["GET a"], "kind": "k"}`, -1},
		{"spec with a folder", `{"spec": "../a.yaml", "query": "q", "expect": ["GET /a"], "kind": "k"}`, -1},
		{"blank query", `{"spec": "a.yaml", "query": "  ", "expect": ["GET /a"], "kind": "k"}`, -1},
		{"two values", good + good, -1},
		{"not JSON", "spec=a.yaml", -1},
	}
	for _, tt := range tests {
		qs, err := ReadEvalQueries(strings.NewReader(tt.in))
		switch {
		case tt.want < 0 && !errors.Is(err, ErrEvalQueries):
			t.Errorf("%s: error = %v, want ErrEvalQueries", tt.name, err)
		case tt.want >= 0 && (err != nil || len(qs) != tt.want):
			t.Errorf("%s: got %d queries, %v; want %d", tt.name, len(qs), err, tt.want)
		}
	}
	_, err := ReadEvalQueries(strings.NewReader("\n" + good + "\n{}"))
	if err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("error = %v, want it to name line 3", err)
	}
}

// TestEvaluateFigures checks the metrics on queries whose ranks are known.
func TestEvaluateFigures(t *testing.T) {
	tools := petTools()
	qs := []EvalQuery{
		{Spec: "pets", Query: "delete a pet", Expect: []string{"DELETE /pets/{petId}"}, Kind: "a"},                       // rank 1
		{Spec: "pets", Query: "delete a pet", Expect: []string{"PUT /pets/{petId}", "GET /x"}, Kind: "a"},                // not rank 1
		{Spec: "pets", Query: "delete a pet", Expect: []string{"GET /nowhere"}, Kind: "b"},                               // absent
		{Spec: "other", Query: "cancel a shipment", Expect: []string{"POST /shipments/{shipment_id}/cancel"}, Kind: "b"}, // rank 1
	}
	loads := 0
	rep, err := evaluate(context.Background(), qs, func(_ context.Context, spec string) ([]*catalog.Tool, error) {
		loads++
		return tools, nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if loads != 2 {
		t.Errorf("loaded %d times, want once per description (2)", loads)
	}
	second := rep.Misses[0].Rank
	if len(rep.Misses) != 2 || second < 2 || rep.Misses[1].Rank != 0 {
		t.Fatalf("misses = %+v, want the second query ranked lower and the third absent", rep.Misses)
	}
	o := rep.Overall
	wantR5 := 0.5
	if second <= 5 {
		wantR5 = 0.75
	}
	want := Metrics{RecallAt1: 0.5, RecallAt5: wantR5, MRR: round4((1 + 1/float64(second) + 0 + 1) / 4)}
	if o.Queries != 4 || o.Search != want {
		t.Errorf("overall = %d queries, %+v; want 4, %+v", o.Queries, o.Search, want)
	}
	if len(rep.BySpec) != 2 || rep.BySpec[0].Group != "other" || rep.BySpec[0].Search.RecallAt1 != 1 {
		t.Errorf("by spec = %+v, want other (r@1 1) then pets", rep.BySpec)
	}
	if len(rep.ByKind) != 2 || rep.ByKind[1].Group != "b" || rep.ByKind[1].Queries != 2 {
		t.Errorf("by kind = %+v, want a and b with 2 queries each", rep.ByKind)
	}

	_, err = evaluate(context.Background(), qs, func(context.Context, string) ([]*catalog.Tool, error) {
		return nil, errors.New("no such file")
	}, nil)
	if err == nil || !strings.Contains(err.Error(), "pets") {
		t.Errorf("error = %v, want the failing description named", err)
	}
}

func FuzzReadEvalQueries(f *testing.F) {
	f.Add(`{"spec": "a.yaml", "query": "add a pet", "expect": ["POST /pets"], "kind": "keyword"}`)
	f.Add("\n\n{}")
	f.Add(`{"spec": "a", "query": "q", "expect": ["GET /a#b?c"], "kind": ""}` + "\n" + `[1]`)
	f.Fuzz(func(t *testing.T, in string) {
		qs, err := ReadEvalQueries(strings.NewReader(in))
		if err != nil {
			return
		}
		for _, q := range qs {
			if q.Spec == "" || strings.TrimSpace(q.Query) == "" || len(q.Expect) == 0 {
				t.Fatalf("accepted an incomplete query %+v", q)
			}
		}
	})
}
