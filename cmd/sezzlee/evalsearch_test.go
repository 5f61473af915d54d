package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sezzlee/sezzlee/internal/specs"
	"github.com/sezzlee/sezzlee/search"
)

func evalJSON(t *testing.T, args ...string) *search.Report {
	t.Helper()
	code, out, stderr := runCmd(t, append([]string{"eval-search", "--json"}, args...)...)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var rep search.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("stdout is not a JSON report: %v\n%s", err, out)
	}
	return &rep
}

// TestEvalSearchFixture runs the tiny fixture set: its figures are known.
func TestEvalSearchFixture(t *testing.T) {
	rep := evalJSON(t, "--queries", "testdata/search/queries.jsonl", "--specs", "testdata/search")
	o := rep.Overall
	if o.Queries != 4 || len(rep.BySpec) != 1 || len(rep.ByKind) != 3 {
		t.Fatalf("report groups = %d queries, %d specs, %d kinds; want 4, 1, 3", o.Queries, len(rep.BySpec), len(rep.ByKind))
	}
	want := search.Metrics{RecallAt1: 0.75, RecallAt5: 1, MRR: 0.8}
	if o.Search != want {
		t.Errorf("search figures = %+v, want %+v", o.Search, want)
	}
	if o.Baseline.RecallAt5 != 1 || o.Baseline.MRR <= 0 {
		t.Errorf("baseline figures = %+v, want them computed in the same run", o.Baseline)
	}
	if len(rep.Misses) != 1 || rep.Misses[0].Query != "let a friend read my note" {
		t.Errorf("misses = %+v, want the one hard query", rep.Misses)
	}

	code, out, stderr := runCmd(t, "eval-search", "--queries", "testdata/search/queries.jsonl", "--specs", "testdata/search")
	if code != exitOK {
		t.Fatalf("text: exit %d, stderr %q", code, stderr)
	}
	for _, w := range []string{"notes.yaml", "paraphrase", "overall  ", "0.750  1.000  0.800"} {
		if !strings.Contains(out, w) {
			t.Errorf("text output lacks %q:\n%s", w, out)
		}
	}
}

// TestEvalSearchDevSet runs the shared development set, when present, and
// guards the figures the ranking has reached.
func TestEvalSearchDevSet(t *testing.T) {
	dir := specs.EvalDir()
	if dir == "" {
		t.Skip("skipped: the search evaluation set is absent (../shared/search-eval)")
	}
	rep := evalJSON(t, "--queries", filepath.Join(dir, "queries.jsonl"), "--specs", specs.Dir(t))
	o := rep.Overall
	t.Logf("overall: search %+v, baseline %+v, definitions %d/%d", o.Search, o.Baseline, o.DefinitionsRight, o.Definitions)
	if o.Queries != 80 {
		t.Errorf("ran %d queries, want 80", o.Queries)
	}
	if o.Search.RecallAt1 < 0.675 || o.Search.RecallAt5 < 0.875 {
		t.Errorf("search recall@1 %.3f, recall@5 %.3f: below the reached 0.675 and 0.875", o.Search.RecallAt1, o.Search.RecallAt5)
	}
	if o.Search.MRR < o.Baseline.MRR+0.15 {
		t.Errorf("search MRR %.3f is not clearly above the baseline's %.3f", o.Search.MRR, o.Baseline.MRR)
	}
}

// TestEvalSearchHeldOut runs the two held-out sets, over descriptions the
// development set does not use, and guards the figures they have reached.
func TestEvalSearchHeldOut(t *testing.T) {
	dir := specs.Dir(t)
	for _, tt := range []struct {
		file     string
		queries  int
		at1, at5 float64
	}{
		{"heldout.jsonl", 32, 0.65, 0.9},
		{"heldout2.jsonl", 31, 0.5, 0.8},
	} {
		rep := evalJSON(t, "--queries", filepath.Join("..", "..", "search", "testdata", tt.file), "--specs", dir)
		o := rep.Overall
		t.Logf("%s: search %+v, baseline %+v, definitions %d/%d", tt.file, o.Search, o.Baseline, o.DefinitionsRight, o.Definitions)
		if o.Queries != tt.queries {
			t.Errorf("%s: ran %d queries, want %d", tt.file, o.Queries, tt.queries)
		}
		if o.Search.RecallAt1 < tt.at1 || o.Search.RecallAt5 < tt.at5 {
			t.Errorf("%s: search recall@1 %.3f, recall@5 %.3f: below the reached %.2f and %.2f", tt.file, o.Search.RecallAt1, o.Search.RecallAt5, tt.at1, tt.at5)
		}
		if o.Search.MRR < o.Baseline.MRR+0.1 {
			t.Errorf("%s: search MRR %.3f is not clearly above the baseline's %.3f", tt.file, o.Search.MRR, o.Baseline.MRR)
		}
	}
}

// TestEvalSearchMisses checks that --misses lists each miss with its rank,
// what was expected and what came first.
func TestEvalSearchMisses(t *testing.T) {
	code, out, stderr := runCmd(t, "eval-search", "--misses", "--queries", "testdata/search/queries.jsonl", "--specs", "testdata/search")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	_, list, ok := strings.Cut(out, "\n1 misses (")
	if !ok {
		t.Fatalf("output lacks the misses heading:\n%s", out)
	}
	for _, w := range []string{`"let a friend read my note"`, "want ", "got "} {
		if !strings.Contains(list, w) {
			t.Errorf("misses list lacks %q:\n%s", w, list)
		}
	}
}

func TestEvalSearchErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	if err := os.WriteFile(bad, []byte(`{"spec":"notes.yaml","query":"x","expect":["DELETE notes"],"kind":"k"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	unknown := filepath.Join(t.TempDir(), "unknown.jsonl")
	if err := os.WriteFile(unknown, []byte(`{"spec":"absent.yaml","query":"x","expect":["GET /x"],"kind":"k"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want int
	}{
		{[]string{"eval-search"}, exitUsage},
		{[]string{"eval-search", "--queries", "testdata/search/queries.jsonl"}, exitUsage},
		{[]string{"eval-search", "--queries", "absent.jsonl", "--specs", "testdata/search"}, exitUsage},
		{[]string{"eval-search", "--queries", bad, "--specs", "testdata/search"}, exitUsage},
		{[]string{"eval-search", "--queries", unknown, "--specs", "testdata/search"}, exitError},
	}
	for _, tt := range tests {
		if code, _, stderr := runCmd(t, tt.args...); code != tt.want {
			t.Errorf("sezzlee %q: exit %d, want %d (stderr %q)", tt.args, code, tt.want, stderr)
		}
	}
}
