package search

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"strings"
	"sync"
)

// thesaurusData is a general English related-word table derived from
// WordNet 3.0 (see WORDNET_LICENSE): for each stemmed verb and noun, the
// stemmed one-word lemmas of its two most frequent senses, one line each,
// "stem related related ...". TestGenerateThesaurus writes it.
//
// It bridges the everyday words of a task and an API's own ("shut" and
// close, "ask" and request) where the synonym table has no group. WordNet
// orders a word's senses by how often they occur, so the rare senses that
// would connect everything to everything are left out.
//
//go:embed thesaurus.txt.gz
var thesaurusData []byte

// relatedWeight is the weight of a related word relative to a synonym's
// (Options.SynonymWeight): the table is general English, not API
// vocabulary, and its senses are not always the task's.
const relatedWeight = 0.5

// thesaurus returns the related-word table, read on first use. A table
// that cannot be read is empty: the ranking loses recall, never answers.
var thesaurus = sync.OnceValue(func() expansion {
	e, _ := readThesaurus(thesaurusData)
	return e
})

// readThesaurus reads a gzipped table; lines starting with # are comments.
func readThesaurus(data []byte) (expansion, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return expansion{}, err
	}
	e := make(expansion, 40000)
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		if w, rest, ok := strings.Cut(line, " "); ok {
			e[w] = strings.Fields(rest)
		}
	}
	return e, sc.Err()
}
