package search

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/sezzlee/sezzlee/catalog"
)

// EvalQuery is one line of an evaluation query file: a task written the
// way an agent would, and the operations that answer it.
type EvalQuery struct {
	// Spec is the file name of the description the query runs against.
	Spec string `json:"spec"`
	// Query is the text passed to search.
	Query string `json:"query"`
	// Expect lists every operation that answers the query, each written
	// "METHOD /pathkey" with the exact path key.
	Expect []string `json:"expect"`
	// Kind groups queries for the report (paraphrase, keyword, hard).
	Kind string `json:"kind"`
}

// ErrEvalQueries means a query file line is malformed; the wrapped message
// names the line.
var ErrEvalQueries = errors.New("search: malformed evaluation query")

// maxEvalLine bounds one line of a query file.
const maxEvalLine = 64 << 10

// ReadEvalQueries reads a query file: one JSON object per line with
// exactly the keys of EvalQuery; blank lines are skipped.
func ReadEvalQueries(r io.Reader) ([]EvalQuery, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxEvalLine)
	var qs []EvalQuery
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		q, err := parseEvalQuery(line)
		if err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrEvalQueries, n, err)
		}
		qs = append(qs, q)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrEvalQueries, err)
	}
	return qs, nil
}

func parseEvalQuery(line []byte) (EvalQuery, error) {
	var q EvalQuery
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&q); err != nil {
		return q, err
	}
	if dec.More() {
		return q, errors.New("more than one JSON value")
	}
	switch {
	case q.Spec == "":
		return q, errors.New("spec is empty")
	case strings.ContainsAny(q.Spec, `/\`) || q.Spec == "." || q.Spec == "..":
		return q, fmt.Errorf("spec %q is not a plain file name", q.Spec)
	case strings.TrimSpace(q.Query) == "":
		return q, errors.New("query is empty")
	case len(q.Expect) == 0:
		return q, errors.New("expect is empty")
	}
	for _, e := range q.Expect {
		m, p, ok := strings.Cut(e, " ")
		if !ok || m == "" || m != strings.ToUpper(m) || !strings.HasPrefix(p, "/") {
			return q, fmt.Errorf("expect %q is not \"METHOD /path\"", e)
		}
	}
	return q, nil
}

// Metrics are the figures of one ranking over a set of queries.
type Metrics struct {
	// RecallAt1 and RecallAt5 are the shares of queries with an expected
	// operation first, and among the first five.
	RecallAt1 float64 `json:"recallAt1"`
	RecallAt5 float64 `json:"recallAt5"`
	// MRR is the mean of 1/rank of the first expected operation, counting
	// ranks up to MaxLimit (0 when none is found there).
	MRR float64 `json:"mrr"`
}

// Figures compare the built-in ranking with the plain BM25 baseline over
// one group of queries.
type Figures struct {
	// Group names the description, the kind, or "overall".
	Group    string  `json:"group"`
	Queries  int     `json:"queries"`
	Search   Metrics `json:"search"`
	Baseline Metrics `json:"baseline"`
	// Definitions counts the queries whose result included the first
	// hit's definition, and DefinitionsRight those where that hit was an
	// expected operation.
	Definitions      int `json:"definitions"`
	DefinitionsRight int `json:"definitionsRight"`
}

// Report is the outcome of an evaluation.
type Report struct {
	// Overall covers every query; BySpec and ByKind are sorted by group.
	Overall Figures   `json:"overall"`
	BySpec  []Figures `json:"bySpec"`
	ByKind  []Figures `json:"byKind"`
	// Misses lists the queries whose expected operation was not first.
	Misses []Miss `json:"misses"`
}

// Miss is a query the built-in ranking did not answer at rank 1.
type Miss struct {
	EvalQuery
	// Rank is the rank of the first expected operation, 0 when not in the
	// first MaxLimit hits.
	Rank int `json:"rank"`
	// Top is the "METHOD /path" of the first hit, empty when none.
	Top string `json:"top"`
}

// Evaluate runs every query against the catalog of its description, which
// load returns (it is called once per description), with the built-in
// ranking configured by opts and with the plain BM25 baseline.
func Evaluate(ctx context.Context, queries []EvalQuery, load func(ctx context.Context, spec string) (*catalog.Catalog, error), opts *Options) (*Report, error) {
	return evaluate(ctx, queries, func(ctx context.Context, spec string) ([]*catalog.Tool, error) {
		c, err := load(ctx, spec)
		if err != nil {
			return nil, err
		}
		return c.Tools(), nil
	}, opts)
}

// tally accumulates one group's figures.
type tally struct {
	n               int
	s, b            [3]float64 // hits at 1, hits at 5, reciprocal ranks
	defs, defsRight int
}

func (t *tally) figures(group string) Figures {
	m := func(v [3]float64) Metrics {
		if t.n == 0 {
			return Metrics{}
		}
		n := float64(t.n)
		return Metrics{RecallAt1: round4(v[0] / n), RecallAt5: round4(v[1] / n), MRR: round4(v[2] / n)}
	}
	return Figures{Group: group, Queries: t.n, Search: m(t.s), Baseline: m(t.b), Definitions: t.defs, DefinitionsRight: t.defsRight}
}

func round4(f float64) float64 { return float64(int64(f*1e4+0.5)) / 1e4 }

func add(v *[3]float64, rank int) {
	if rank == 1 {
		v[0]++
	}
	if rank >= 1 && rank <= 5 {
		v[1]++
	}
	if rank >= 1 {
		v[2] += 1 / float64(rank)
	}
}

func evaluate(ctx context.Context, queries []EvalQuery, load func(ctx context.Context, spec string) ([]*catalog.Tool, error), opts *Options) (*Report, error) {
	type ranked struct {
		s *Searcher
		b *baseline
	}
	bySpec := map[string]*ranked{}
	overall := &tally{}
	specs, kinds := map[string]*tally{}, map[string]*tally{}
	rep := &Report{Misses: []Miss{}}
	for _, q := range queries {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r := bySpec[q.Spec]
		if r == nil {
			tools, err := load(ctx, q.Spec)
			if err != nil {
				return nil, fmt.Errorf("loading %s: %w", q.Spec, err)
			}
			s, err := newSearcher(tools, opts)
			if err != nil {
				return nil, err
			}
			r = &ranked{s: s, b: newBaseline(tools)}
			bySpec[q.Spec] = r
		}
		res, env := r.s.Search(ctx, Query{Text: q.Query, Limit: MaxLimit})
		if env != nil {
			return nil, fmt.Errorf("query %q: %s: %s", q.Query, env.Error, env.Message)
		}
		var got []string
		for _, h := range res.Hits {
			got = append(got, h.Method+" "+h.Path)
		}
		var base []string
		for _, t := range r.b.rank(q.Query, MaxLimit) {
			base = append(base, t.Method+" "+t.PathKey)
		}
		sRank, bRank := rankOf(got, q.Expect), rankOf(base, q.Expect)
		dominant := res.Tool != nil
		for _, t := range []*tally{overall, group(specs, q.Spec), group(kinds, q.Kind)} {
			t.n++
			add(&t.s, sRank)
			add(&t.b, bRank)
			if dominant {
				t.defs++
				if sRank == 1 {
					t.defsRight++
				}
			}
		}
		if sRank != 1 {
			m := Miss{EvalQuery: q, Rank: sRank}
			if len(got) > 0 {
				m.Top = got[0]
			}
			rep.Misses = append(rep.Misses, m)
		}
	}
	rep.Overall = overall.figures("overall")
	rep.BySpec = sortedFigures(specs)
	rep.ByKind = sortedFigures(kinds)
	return rep, nil
}

func group(m map[string]*tally, k string) *tally {
	t := m[k]
	if t == nil {
		t = &tally{}
		m[k] = t
	}
	return t
}

func sortedFigures(m map[string]*tally) []Figures {
	out := make([]Figures, 0, len(m))
	for k, t := range m {
		out = append(out, t.figures(k))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Group < out[j].Group })
	return out
}

// rankOf returns the 1-based rank of the first of got in expect, or 0.
func rankOf(got, expect []string) int {
	for i, g := range got {
		for _, e := range expect {
			if g == e {
				return i + 1
			}
		}
	}
	return 0
}

// WriteText writes the report as a table: each description, each kind, and
// the overall figures, the built-in ranking next to the baseline.
func (r *Report) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "group\tqueries\tr@1\tr@5\tMRR\t\tbaseline r@1\tr@5\tMRR\tdefinitions right")
	row := func(f Figures) {
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%.3f\t\t%.3f\t%.3f\t%.3f\t%d/%d\n", f.Group, f.Queries,
			f.Search.RecallAt1, f.Search.RecallAt5, f.Search.MRR,
			f.Baseline.RecallAt1, f.Baseline.RecallAt5, f.Baseline.MRR, f.DefinitionsRight, f.Definitions)
	}
	for _, f := range r.BySpec {
		row(f)
	}
	fmt.Fprintln(tw, "\t\t\t\t\t\t\t\t\t")
	for _, f := range r.ByKind {
		row(f)
	}
	fmt.Fprintln(tw, "\t\t\t\t\t\t\t\t\t")
	row(r.Overall)
	return tw.Flush()
}
