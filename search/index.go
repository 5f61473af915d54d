package search

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/sezzlee/sezzlee/catalog"
)

// field is one part of a tool's document, weighted on its own.
type field int

const (
	fName        field = iota // the tool name, split into words
	fMethod                   // the HTTP method and the intent it implies
	fPath                     // path segments, parameter words included
	fSummary                  // the operation's summary
	fDescription              // the description, markup stripped
	fTags                     // the operation's tags
	fArgName                  // argument names (parameters and body properties)
	fArgText                  // argument descriptions
	fArgEnum                  // argument enum values
	fPathItem                 // the path item's summary and description
	numFields
)

// fieldParams are the BM25F weight and length normalisation of one field.
type fieldParams struct {
	weight float64
	b      float64
}

// Bounds on what one document contributes, so that one huge description
// or body schema cannot drown the fields that name the operation.
const (
	maxDescriptionTerms = 200
	maxArgTextTerms     = 24  // per argument
	maxArgTerms         = 600 // all arguments together, per field
	maxEnumValues       = 24  // per argument
	maxContextTerms     = 60  // the path item's text
)

// posting is one document's term frequencies for one term.
type posting struct {
	doc int32
	tf  [numFields]uint16
}

// index is an inverted index over the tools of one catalog. It is
// immutable once built and safe for concurrent queries.
type index struct {
	tools    []*catalog.Tool
	fields   [numFields]fieldParams
	k1       float64
	postings map[string][]posting
	// norm[d][f] is the length normalisation of field f in document d.
	norm [][numFields]float32
	// syn expands query terms; nil means no synonyms.
	syn expansion
	// related expands them further with general English related words
	// (thesaurus.go), at relatedWeight of a synonym; nil means none.
	related expansion
	// coord is the exponent of the share of query concepts a document
	// matches, by which its score is multiplied; 0 leaves scores alone.
	coord float64
	// deprecated multiplies the score of a deprecated operation.
	deprecated float64
	// lead holds each document's leading terms: the first word of its
	// summary and of its name, where operations state their action. verb
	// is the bonus for a query whose first word is that action; 0 for none.
	lead [][2]string
	verb float64
	// intents holds each document's kind of action (docIntent). A
	// document whose kind the query's allows gains the share intentMatch
	// of its score, one whose kind it does not loses intentMismatch.
	intents        []intent
	intentMatch    float64
	intentMismatch float64
}

// fieldTerms returns the terms of each field of t, analysed by terms.
func fieldTerms(t *catalog.Tool, terms func(s string, out []string) []string) [numFields][]string {
	var f [numFields][]string
	f[fName] = terms(t.Name, nil)
	f[fMethod] = terms(methodIntent(t), nil)
	// A parameter repeats its segment's noun (/channels/{channel_id}): in
	// the name and the path a word counts once.
	f[fName] = distinct(f[fName])
	f[fPath] = distinct(pathTerms(t.PathKey, terms))
	summary, desc := splitSummary(t)
	f[fSummary] = terms(summary, nil)
	f[fDescription] = bound(terms(stripMarkup(desc), nil), maxDescriptionTerms)
	for _, tag := range t.Tags {
		f[fTags] = terms(tag, f[fTags])
	}
	f[fPathItem] = bound(terms(stripMarkup(t.Context.PathItem), nil), maxContextTerms)
	for _, a := range t.Arguments {
		f[fArgName] = terms(a.Name, f[fArgName])
		if len(f[fArgText]) < maxArgTerms {
			n := len(f[fArgText])
			f[fArgText] = bound(terms(stripMarkup(a.Description), f[fArgText]), min(n+maxArgTextTerms, maxArgTerms))
		}
		if a.In == catalog.InPath {
			// A path parameter's values choose the operation as much as
			// the path's fixed words do (/request/{id}/{status}: approve,
			// decline).
			for _, e := range a.Enum[:min(len(a.Enum), maxEnumValues)] {
				f[fPath] = terms(e, f[fPath])
			}
		}
		for _, e := range a.Enum[:min(len(a.Enum), maxEnumValues)] {
			if len(f[fArgEnum]) >= maxArgTerms {
				break
			}
			f[fArgEnum] = terms(e, f[fArgEnum])
		}
	}
	return f
}

// splitSummary returns the operation's summary and the rest of its
// description, markup stripped. Without a summary, the description's first
// sentence stands for it: many descriptions (Slack's, Twilio's) state the
// operation's purpose there and have no summary at all.
func splitSummary(t *catalog.Tool) (summary, rest string) {
	desc := stripMarkup(t.Description)
	if t.Summary != "" {
		summary = stripMarkup(t.Summary)
		// The catalog joins summary and description; count the summary once.
		rest, _ = strings.CutPrefix(desc, summary)
		return summary, rest
	}
	return firstSentence(desc)
}

// maxSentenceBytes bounds what firstSentence takes as a sentence.
const maxSentenceBytes = 300

// firstSentence splits s after its first sentence: up to the first ". ",
// ".\n" or blank line within maxSentenceBytes, else the first line.
func firstSentence(s string) (first, rest string) {
	s = strings.TrimSpace(s)
	end := len(s)
	for _, sep := range []string{". ", ".\n", "\n\n"} {
		if i := strings.Index(s, sep); i >= 0 && i+1 < end {
			end = i + 1
		}
	}
	if end > maxSentenceBytes {
		if i := strings.IndexByte(s, '\n'); i >= 0 && i < maxSentenceBytes {
			end = i
		} else {
			end = boundLen(s, maxSentenceBytes)
		}
	}
	return s[:end], s[end:]
}

// boundLen is the largest n <= max at which s can be cut without
// splitting a rune.
func boundLen(s string, max int) int {
	return len(boundText(s, max))
}

// distinct drops repeated terms, keeping the first of each.
func distinct(terms []string) []string {
	out := make([]string, 0, len(terms))
	for i, t := range terms {
		if !slices.Contains(terms[:i], t) {
			out = append(out, t)
		}
	}
	return out
}

func bound(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// methodIntent gives the intent an HTTP method implies, in the words a
// task uses: a GET of a collection lists, a POST creates, and so on.
func methodIntent(t *catalog.Tool) string {
	switch t.Method {
	case "GET":
		if isCollection(t.PathKey) {
			return "get list"
		}
		return "get"
	case "POST":
		return "post create"
	case "PUT":
		return "put update"
	case "PATCH":
		return "patch update"
	}
	return t.Method
}

// isCollection reports whether a path key ends in a fixed segment rather
// than a parameter.
func isCollection(key string) bool {
	if i := strings.IndexAny(key, "#?"); i >= 0 {
		key = key[:i]
	}
	key = strings.TrimRight(key, "/")
	return !strings.HasSuffix(key, "}")
}

// pathTerms splits a path key into words: braces go but parameter names
// stay, version segments (v1, v2beta) go, and a #fragment or ?query suffix
// counts as words of the path.
func pathTerms(key string, terms func(s string, out []string) []string) []string {
	var out []string
	for _, seg := range strings.FieldsFunc(key, func(r rune) bool { return r == '/' || r == '#' || r == '?' }) {
		if isVersionSegment(seg) {
			continue
		}
		out = terms(seg, out)
	}
	return out
}

func isVersionSegment(s string) bool {
	if len(s) < 2 || (s[0] != 'v' && s[0] != 'V') || s[1] < '0' || s[1] > '9' {
		return false
	}
	for i := 2; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c == '.' || c >= 'a' && c <= 'z') {
			return false
		}
	}
	return true
}

// build indexes docs, whose fields are already analysed.
func (ix *index) build(docs [][numFields][]string) {
	ix.postings = make(map[string][]posting, 4096)
	ix.norm = make([][numFields]float32, len(docs))
	var total [numFields]float64
	for _, d := range docs {
		for f := range d {
			total[f] += float64(len(d[f]))
		}
	}
	var avg [numFields]float64
	for f := range avg {
		avg[f] = total[f] / math.Max(1, float64(len(docs)))
	}
	seen := make(map[string]int, 256) // term -> index into this doc's postings
	for i, d := range docs {
		for f := range d {
			p := ix.fields[f]
			n := 1.0
			if avg[f] > 0 {
				n = 1 - p.b + p.b*float64(len(d[f]))/avg[f]
			}
			ix.norm[i][f] = float32(n)
		}
		clear(seen)
		for f, terms := range d {
			for _, t := range terms {
				list := ix.postings[t]
				if _, ok := seen[t]; !ok {
					seen[t] = len(list)
					list = append(list, posting{doc: int32(i)})
					ix.postings[t] = list
				}
				pp := &list[seen[t]]
				if pp.tf[f] < math.MaxUint16 {
					pp.tf[f]++
				}
			}
		}
	}
}

// concept is one query word with the alternatives that may stand for it.
type concept struct {
	alts []alt
}

type alt struct {
	term   string
	weight float64
}

// concepts turns a query's terms into concepts, dropping repeats. Each
// synonym of a literal term is an alternative of lower weight.
func (ix *index) concepts(terms []string, synWeight float64) []concept {
	var cs []concept
	seen := make(map[string]bool, len(terms))
	for _, t := range terms {
		if seen[t] {
			continue
		}
		seen[t] = true
		c := concept{alts: []alt{{t, 1}}}
		if synWeight > 0 {
			for _, s := range ix.syn[t] {
				c.alts = append(c.alts, alt{s, synWeight})
			}
			// Related words only where the description uses them: a
			// word it lacks cannot match, and would only cost time.
			for _, r := range ix.related[t] {
				if len(ix.postings[r]) > 0 && weightIn(c, r) == 0 {
					c.alts = append(c.alts, alt{r, synWeight * relatedWeight})
				}
			}
		}
		cs = append(cs, c)
	}
	return cs
}

func (ix *index) idf(term string) float64 {
	n := float64(len(ix.tools))
	df := float64(len(ix.postings[term]))
	return math.Log(1 + (n-df+0.5)/(df+0.5))
}

// scored is a document's score for one query.
type scored struct {
	doc     int
	score   float64
	matched int // concepts the document matched
}

// score ranks the documents allowed by keep (nil keeps all) for the
// concepts cs and returns those with a positive score, best first, ties by
// tool name.
func (ix *index) score(cs []concept, qi intent, keep func(doc int) bool) []scored {
	total := make([]float64, len(ix.tools))
	matched := make([]int, len(ix.tools))
	best := make([]float64, len(ix.tools))
	var touched []int32
	for _, c := range cs {
		touched = touched[:0]
		for _, a := range c.alts {
			list := ix.postings[a.term]
			if len(list) == 0 {
				continue
			}
			// A synonym counts with the rarity of the query's own word at
			// most: a rare synonym of a common word is not a rare match.
			idf := ix.idf(a.term)
			if a.term != c.alts[0].term {
				idf = min(idf, ix.idf(c.alts[0].term))
			}
			w := a.weight * idf * (ix.k1 + 1)
			for i := range list {
				p := &list[i]
				var tf float64
				norm := &ix.norm[p.doc]
				for f := field(0); f < numFields; f++ {
					if p.tf[f] != 0 {
						tf += ix.fields[f].weight * float64(p.tf[f]) / float64(norm[f])
					}
				}
				s := w * tf / (ix.k1 + tf)
				if s > best[p.doc] {
					if best[p.doc] == 0 {
						touched = append(touched, p.doc)
					}
					best[p.doc] = s
				}
			}
		}
		for _, d := range touched {
			total[d] += best[d]
			matched[d]++
			best[d] = 0
		}
	}
	var out []scored
	for d, s := range total {
		if s > 0 && (keep == nil || keep(d)) {
			if ix.coord > 0 {
				s *= math.Pow(float64(matched[d])/float64(len(cs)), ix.coord)
			}
			if ix.tools[d].Deprecated {
				s *= ix.deprecated
			}
			if ix.verb > 0 && len(cs) > 1 {
				s *= 1 + ix.verb*ix.leads(cs[0], d)
			}
			if qi != 0 && ix.intents != nil {
				if di := ix.intents[d]; di&qi != 0 {
					s *= 1 + ix.intentMatch
				} else if di != 0 {
					s *= 1 - ix.intentMismatch
				}
			}
			out = append(out, scored{doc: d, score: s, matched: matched[d]})
		}
	}
	slices.SortFunc(out, func(a, b scored) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return strings.Compare(ix.tools[a.doc].Name, ix.tools[b.doc].Name)
	})
	return out
}

// builtinFields are the built-in ranking's field weights and length
// normalisation. Fields that name the operation weigh most and are
// normalised almost fully: a short name or summary that holds the task's
// word (chat.delete, "Create a message") is more about it than a longer one
// that also holds it (chat.deleteScheduledMessage, ".../crosspost"). Prose
// and argument text weigh least. It is never modified.
var builtinFields = [numFields]fieldParams{
	fName:        {weight: 3, b: 0.9},
	fMethod:      {weight: 1, b: 0},
	fPath:        {weight: 2.5, b: 0.9},
	fSummary:     {weight: 3, b: 0.9},
	fDescription: {weight: 0.5, b: 0.75},
	fTags:        {weight: 1, b: 0.3},
	fArgName:     {weight: 0.6, b: 0.75},
	fArgText:     {weight: 0.3, b: 0.75},
	fArgEnum:     {weight: 0.3, b: 0.3},
	fPathItem:    {weight: 0.3, b: 0.75},
}

// builtinK1 is BM25's term-frequency saturation.
const builtinK1 = 1.2

// deprecatedFactor ranks a deprecated operation below an equally good
// current one.
const deprecatedFactor = 0.9

// builtinCoord rewards documents that match more of the query's words: a
// score is multiplied by the square root of the share of words matched.
const builtinCoord = 0.5

// expand is the synonym table, stemmed once.
var expand = buildExpansion(newAnalyzer(), synonymGroups)

// buildBM25F builds the built-in index over tools.
func buildBM25F(tools []*catalog.Tool) *index {
	ix := &index{tools: tools, fields: builtinFields, k1: builtinK1, syn: expand, coord: builtinCoord, deprecated: deprecatedFactor, verb: verbBonus,
		intentMatch: intentMatchBonus, intentMismatch: intentMismatchCost}
	a := newAnalyzer()
	docs := make([][numFields][]string, len(tools))
	ix.lead = make([][2]string, len(tools))
	for i, t := range tools {
		docs[i] = fieldTerms(t, a.terms)
		if s := docs[i][fSummary]; len(s) > 0 {
			ix.lead[i][0] = s[0]
		}
		if n := docs[i][fName]; len(n) > 0 {
			ix.lead[i][1] = n[0]
		}
	}
	ix.intents = make([]intent, len(tools))
	for i, t := range tools {
		ix.intents[i] = docIntent(t.Method, ix.lead[i], docs[i][fName])
	}
	ix.build(docs)
	ix.related = thesaurus()
	return ix
}

// leads returns the weight with which concept c names the action document
// d leads with, 0 when it does not.
func (ix *index) leads(c concept, d int) float64 {
	var w float64
	for _, t := range ix.lead[d] {
		if t != "" {
			w = max(w, weightIn(c, t))
		}
	}
	return w
}

func weightIn(c concept, term string) float64 {
	for _, a := range c.alts {
		if a.term == term {
			return a.weight
		}
	}
	return 0
}

// intentMatchBonus and intentMismatchCost weigh the kind of action a task
// asks for against the kind an operation performs (intent.go).
const (
	intentMatchBonus   = 0.2
	intentMismatchCost = 0.2
)

// verbBonus is the share by which a tool's score grows when the query's
// first word is the action its summary or name leads with ("fix a typo in
// a message" and "Updates a message"): agents state the action first.
const verbBonus = 0.3

// maxQueryTerms bounds the words of one query that are scored.
const maxQueryTerms = 32

// analyzeQuery returns the terms of a query as the built-in index sees them.
func analyzeQuery(text string) []string {
	var a analyzer
	return bound(a.terms(normalizeQuery(text), nil), maxQueryTerms)
}

// unnamed reports whether no tool's name or path holds term: a word that
// names none of the API's resources or operations.
func (ix *index) unnamed(term string) bool {
	for _, p := range ix.postings[term] {
		if p.tf[fName] > 0 || p.tf[fPath] > 0 {
			return false
		}
	}
	return true
}
