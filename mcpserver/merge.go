package mcpserver

import (
	"sort"

	"github.com/sezzlee/sezzlee/catalog"
	"github.com/sezzlee/sezzlee/search"
)

// mergeResults merges the search results of several sources, whose hit
// names already carry their prefixes, into one ranked list of at most
// limit hits. The top hit's definition is kept only when the source that
// ranked it offered one for it.
func mergeResults(results []*search.Result, limit int) *search.Result {
	if len(results) == 1 {
		r := results[0]
		if len(r.Hits) > limit {
			r.Hits = r.Hits[:limit]
		}
		return r
	}
	out := &search.Result{Hits: []search.Hit{}}
	var defs []*catalog.Definition
	for _, r := range results {
		out.Hits = append(out.Hits, r.Hits...)
		if r.Tool != nil {
			defs = append(defs, r.Tool)
		}
	}
	sort.SliceStable(out.Hits, func(i, j int) bool { return out.Hits[i].Score > out.Hits[j].Score })
	if len(out.Hits) > limit {
		out.Hits = out.Hits[:limit]
	}
	if len(out.Hits) > 0 {
		for _, d := range defs {
			if d.Name == out.Hits[0].Name {
				out.Tool = d
			}
		}
	}
	return out
}
