package search

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sezzlee/sezzlee/catalog"
	"github.com/sezzlee/sezzlee/envelope"
)

// Query is one search_tools request.
type Query struct {
	// Text is the agent's description of its task. Only its first
	// MaxQueryBytes bytes are read. Empty or whitespace-only text lists
	// the tools (after the filters) in name order with score 0.
	Text string
	// Limit is the number of hits wanted. Zero or less means DefaultLimit;
	// values above MaxLimit are lowered to it.
	Limit int
	// Tag, when set, keeps only tools with this tag (case-insensitive).
	Tag string
	// Method, when set, keeps only tools with this HTTP method
	// (case-insensitive).
	Method string
}

// Limits on the number of hits and on the query read.
const (
	DefaultLimit  = 5
	MaxLimit      = 20
	MaxQueryBytes = 1024
)

// Hit is one ranked tool.
type Hit struct {
	// Name is the tool name load_tool and invoke_tool take.
	Name string `json:"name"`
	// Method and Path are the operation's HTTP method and exact path key.
	Method string `json:"method"`
	Path   string `json:"path"`
	// Summary is a short, bounded summary of the operation.
	Summary string `json:"summary,omitempty"`
	// Score orders the hits; it compares hits of one result only.
	Score float64 `json:"score"`
}

// Result is what search_tools returns.
type Result struct {
	// Hits are the ranked tools, best first; empty, never null, when
	// nothing matches.
	Hits []Hit `json:"hits"`
	// Tool is the first hit's definition when that hit clearly dominates
	// (see Options.DominanceRatio), so the agent can invoke it without a
	// load_tool round trip; nil otherwise.
	Tool *catalog.Definition `json:"tool,omitempty"`
}

// Ranker ranks tools for a query. A host binds its own (an embedding
// service, say) through Options.Ranker; the built-in BM25F index is the
// default. Rank receives the tools left after the query's tag and method
// filters and returns hits best first; only the hits' Name and Score are
// read, and names that are not among tools are ignored. An error (or a
// panic) counts as a failure of the ranker.
type Ranker interface {
	Rank(ctx context.Context, q Query, tools []*catalog.Tool) ([]Hit, error)
}

// RankerFunc adapts a function to a Ranker.
type RankerFunc func(ctx context.Context, q Query, tools []*catalog.Tool) ([]Hit, error)

// Rank calls f.
func (f RankerFunc) Rank(ctx context.Context, q Query, tools []*catalog.Tool) ([]Hit, error) {
	return f(ctx, q, tools)
}

// Options configures a Searcher. A nil *Options and the zero value are both
// usable; each field documents what its zero value means.
type Options struct {
	// Ranker, when set, ranks instead of the built-in index. Zero uses the
	// built-in BM25F ranking.
	Ranker Ranker
	// RefuseOnRankerFailure makes a failure of Ranker answer the
	// search_ranker_unavailable envelope (retryable) instead of the
	// built-in ranking. Zero falls back to the built-in ranking.
	RefuseOnRankerFailure bool
	// OnRankerError is told every failure of Ranker, for the host's logs;
	// the agent never sees the error. Zero reports nothing.
	OnRankerError func(error)
	// RankerTimeout bounds each call of Ranker. Zero means
	// DefaultRankerTimeout.
	RankerTimeout time.Duration

	// DominanceRatio decides when the first hit clearly dominates: its
	// score is at least this many times the second-best tool's, whatever
	// the limit (or no other tool matches), and, with the built-in ranking,
	// it matches at least two thirds of the query's words. Zero means
	// DefaultDominanceRatio; a negative value never includes a definition.
	// Values between 0 and 1 are refused.
	DominanceRatio float64
	// SynonymWeight is the weight of a synonym relative to the query's
	// literal word (1); a related word of the general English table
	// counts half of it. Zero means DefaultSynonymWeight; a negative value
	// turns synonyms and related words off. Values above 1 are refused.
	SynonymWeight float64
}

// Defaults for the zero values of Options.
const (
	DefaultRankerTimeout  = 2 * time.Second
	DefaultDominanceRatio = 1.5
	DefaultSynonymWeight  = 0.9
)

// Errors New returns.
var (
	// ErrNoCatalog means New was given a nil catalog.
	ErrNoCatalog = errors.New("search: no catalog")
	// ErrOptions means an Options field is out of range; the wrapped
	// message names it.
	ErrOptions = errors.New("search: invalid options")
)

// Searcher answers queries over one catalog. Build it once per catalog
// with New; it is immutable and safe for concurrent use.
type Searcher struct {
	tools     []*catalog.Tool
	byName    map[string]*catalog.Tool
	summaries map[string]string // tool name -> Hit.Summary
	ix        *index
	opts      Options
	synWeight float64
}

// New indexes cat's tools. The catalog must not change afterwards (catalogs
// never do: a reload builds a new catalog and so a new Searcher).
func New(cat *catalog.Catalog, opts *Options) (*Searcher, error) {
	if cat == nil {
		return nil, ErrNoCatalog
	}
	return newSearcher(cat.Tools(), opts)
}

func newSearcher(tools []*catalog.Tool, opts *Options) (*Searcher, error) {
	s := &Searcher{tools: tools, byName: make(map[string]*catalog.Tool, len(tools)),
		summaries: make(map[string]string, len(tools))}
	for _, t := range tools {
		s.byName[t.Name] = t
		s.summaries[t.Name] = shortSummary(t)
	}
	if opts != nil {
		s.opts = *opts
	}
	o := &s.opts
	switch {
	case o.RankerTimeout < 0:
		return nil, fmt.Errorf("%w: RankerTimeout %v is negative", ErrOptions, o.RankerTimeout)
	case o.DominanceRatio > 0 && o.DominanceRatio < 1, math.IsNaN(o.DominanceRatio):
		return nil, fmt.Errorf("%w: DominanceRatio %v is below 1", ErrOptions, o.DominanceRatio)
	case o.SynonymWeight > 1, math.IsNaN(o.SynonymWeight):
		return nil, fmt.Errorf("%w: SynonymWeight %v is above 1", ErrOptions, o.SynonymWeight)
	}
	if o.RankerTimeout == 0 {
		o.RankerTimeout = DefaultRankerTimeout
	}
	if o.DominanceRatio == 0 {
		o.DominanceRatio = DefaultDominanceRatio
	}
	s.synWeight = o.SynonymWeight
	if s.synWeight == 0 {
		s.synWeight = DefaultSynonymWeight
	}
	s.ix = buildBM25F(tools)
	return s, nil
}

// Search ranks the tools for q. It answers an error envelope only when the
// bound ranker fails and Options.RefuseOnRankerFailure is set.
func (s *Searcher) Search(ctx context.Context, q Query) (*Result, *envelope.Envelope) {
	q.Text = boundText(q.Text, MaxQueryBytes)
	q.Method = strings.ToUpper(strings.TrimSpace(q.Method))
	q.Tag = strings.TrimSpace(q.Tag)
	if q.Limit <= 0 {
		q.Limit = DefaultLimit
	}
	q.Limit = min(q.Limit, MaxLimit)

	if strings.TrimSpace(q.Text) == "" {
		return s.browse(q), nil
	}
	if s.opts.Ranker != nil {
		res, err := s.bound(ctx, q)
		if err == nil {
			return res, nil
		}
		if s.opts.OnRankerError != nil {
			s.opts.OnRankerError(err)
		}
		if s.opts.RefuseOnRankerFailure {
			return nil, envelope.Retry(envelope.SearchRankerUnavailable,
				"The search ranker is unavailable right now; retry the search shortly.", true)
		}
	}
	return s.builtin(q), nil
}

// keep reports whether tool t passes q's filters.
func keep(t *catalog.Tool, q Query) bool {
	if q.Method != "" && t.Method != q.Method {
		return false
	}
	if q.Tag != "" {
		for _, tag := range t.Tags {
			if strings.EqualFold(tag, q.Tag) {
				return true
			}
		}
		return false
	}
	return true
}

// browse answers an empty query: the filtered tools in name order.
func (s *Searcher) browse(q Query) *Result {
	res := &Result{Hits: []Hit{}}
	for _, t := range s.tools {
		if len(res.Hits) == q.Limit {
			break
		}
		if keep(t, q) {
			res.Hits = append(res.Hits, s.hitOf(t, 0))
		}
	}
	return res
}

func (s *Searcher) builtin(q Query) *Result {
	cs := s.ix.concepts(analyzeQuery(q.Text), s.synWeight)
	var filter func(int) bool
	if q.Method != "" || q.Tag != "" {
		filter = func(d int) bool { return keep(s.tools[d], q) }
	}
	ranked := s.ix.score(cs, queryIntent(q.Text, s.ix.unnamed), filter)
	res := &Result{Hits: make([]Hit, 0, min(len(ranked), q.Limit))}
	for _, r := range ranked[:min(len(ranked), q.Limit)] {
		res.Hits = append(res.Hits, s.hitOf(s.tools[r.doc], r.score))
	}
	if len(ranked) == 0 || float64(ranked[0].matched) < dominanceCoverage*float64(len(cs)) {
		return res
	}
	second := 0.0
	if len(ranked) > 1 {
		second = ranked[1].score
	}
	if s.dominates(ranked[0].score, second) {
		res.Tool = definition(s.tools[ranked[0].doc])
	}
	return res
}

// dominanceCoverage is the share of the query's words the first hit must
// match, literally or through a synonym, to dominate.
const dominanceCoverage = 2.0 / 3

// dominates applies the score part of the dominance rule to the best and
// second-best scores of the whole ranking, not of the hits kept: a limit of
// one must not make every first hit dominant. second is 0 when there is
// no second hit.
func (s *Searcher) dominates(first, second float64) bool {
	r := s.opts.DominanceRatio
	return r > 0 && first > 0 && first >= r*second
}

// rankerPanicError reports a panic inside the bound ranker.
type rankerPanicError struct{ v any }

func (e rankerPanicError) Error() string { return fmt.Sprintf("search: ranker panicked: %v", e.v) }

// bound asks the bound ranker and keeps only the hits it may return.
func (s *Searcher) bound(ctx context.Context, q Query) (res *Result, err error) {
	tools := make([]*catalog.Tool, 0, len(s.tools))
	for _, t := range s.tools {
		if keep(t, q) {
			tools = append(tools, t)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, s.opts.RankerTimeout)
	defer cancel()
	defer func() {
		if v := recover(); v != nil {
			res, err = nil, rankerPanicError{v}
		}
	}()
	hits, err := s.opts.Ranker.Rank(ctx, q, tools)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("search: ranker answered after its deadline: %w", err)
	}
	res = &Result{Hits: make([]Hit, 0, min(len(hits), q.Limit))}
	seen := make(map[string]bool, q.Limit)
	var scores [2]float64 // the best two, for the dominance rule
	for _, h := range hits {
		if len(seen) == q.Limit+1 {
			break
		}
		t, ok := s.byName[h.Name]
		if !ok || seen[h.Name] || !keep(t, q) {
			continue
		}
		score := h.Score
		if math.IsNaN(score) || math.IsInf(score, 0) {
			score = 0
		}
		if len(seen) < 2 {
			scores[len(seen)] = score
		}
		seen[h.Name] = true // a name counts once
		if len(res.Hits) < q.Limit {
			res.Hits = append(res.Hits, s.hitOf(t, score))
		}
	}
	if len(res.Hits) > 0 && s.dominates(scores[0], scores[1]) {
		res.Tool = definition(s.byName[res.Hits[0].Name])
	}
	return res, nil
}

func definition(t *catalog.Tool) *catalog.Definition {
	d := t.Definition()
	return &d
}

// maxSummaryBytes bounds Hit.Summary.
const maxSummaryBytes = 160

func (s *Searcher) hitOf(t *catalog.Tool, score float64) Hit {
	return Hit{
		Name:    t.Name,
		Method:  t.Method,
		Path:    t.PathKey,
		Summary: s.summaries[t.Name],
		Score:   math.Round(score*1e4) / 1e4,
	}
}

// shortSummary is the tool's summary, or else the first sentence of its
// description, bounded.
func shortSummary(t *catalog.Tool) string {
	s, _ := splitSummary(t)
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > maxSummaryBytes {
		s = boundText(s, maxSummaryBytes-len("…")) + "…"
	}
	return s
}

// boundText cuts s to at most n bytes at a rune boundary.
func boundText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
