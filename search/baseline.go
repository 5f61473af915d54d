package search

import "github.com/sezzlee/sezzlee/catalog"

// baseline is the plain BM25 the evaluation compares the built-in ranking
// with: one document per operation, all its text in one field without
// weights, no synonyms, no stopwords and no stemming beyond lower-casing
// and splitting.
type baseline struct {
	ix *index
}

func newBaseline(tools []*catalog.Tool) *baseline {
	var fields [numFields]fieldParams
	fields[0] = fieldParams{weight: 1, b: 0.75}
	ix := &index{tools: tools, fields: fields, k1: builtinK1, deprecated: 1}
	docs := make([][numFields][]string, len(tools))
	for i, t := range tools {
		f := fieldTerms(t, splitWords)
		f[fMethod] = splitWords(t.Method, nil) // the method alone, no implied intent
		var all []string
		for _, part := range f {
			all = append(all, part...)
		}
		docs[i][0] = all
	}
	ix.build(docs)
	return &baseline{ix: ix}
}

// rank returns the tools in baseline order, best first, at most limit.
func (b *baseline) rank(text string, limit int) []*catalog.Tool {
	cs := b.ix.concepts(splitWords(boundText(text, MaxQueryBytes), nil), 0)
	var out []*catalog.Tool
	for _, r := range b.ix.score(cs, 0, nil) {
		if len(out) == limit {
			break
		}
		out = append(out, b.ix.tools[r.doc])
	}
	return out
}
