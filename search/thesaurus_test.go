package search

import (
	"bufio"
	"compress/gzip"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var wordnetDir = flag.String("wordnet", "", "with TestGenerateThesaurus: the WordNet 3.0 database folder (Debian's wordnet-base installs /usr/share/wordnet) from which to write thesaurus.txt.gz")

// thesaurusSenses is how many of a word's most frequent senses the table
// keeps.
const thesaurusSenses = 2

// TestGenerateThesaurus writes thesaurus.txt.gz from WordNet when -wordnet
// names its folder:
//
//	go test ./search -run TestGenerateThesaurus -wordnet /usr/share/wordnet
func TestGenerateThesaurus(t *testing.T) {
	if *wordnetDir == "" {
		t.Skip("skipped: -wordnet names no WordNet folder")
	}
	related := map[string][]string{}
	var keys []string
	for _, pos := range []string{"verb", "noun"} {
		synsets := readSynsets(t, filepath.Join(*wordnetDir, "data."+pos))
		forEachLine(t, filepath.Join(*wordnetDir, "index."+pos), func(fs []string) {
			// lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...
			if len(fs) < 6 || !isASCIILower(fs[0]) || stopwords[fs[0]] {
				return
			}
			n, _ := strconv.Atoi(fs[2])
			p, _ := strconv.Atoi(fs[3])
			if 6+p > len(fs) {
				t.Fatalf("index.%s: malformed line for %q", pos, fs[0])
			}
			offsets := fs[6+p:]
			offsets = offsets[:min(len(offsets), n, thesaurusSenses)]
			w := stem(fs[0])
			if stopwords[w] {
				return
			}
			if _, ok := related[w]; !ok {
				keys = append(keys, w)
				related[w] = nil
			}
			for _, o := range offsets {
				for _, l := range synsets[o] {
					if s := stem(l); s != w && !stopwords[l] && !stopwords[s] && !slices.Contains(related[w], s) {
						related[w] = append(related[w], s)
					}
				}
			}
		})
	}
	slices.Sort(keys)
	f, err := os.Create("thesaurus.txt.gz")
	if err != nil {
		t.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
	bw := bufio.NewWriter(zw)
	fmt.Fprintln(bw, "# Derived from WordNet 3.0, Copyright 2006 by Princeton University; see WORDNET_LICENSE.")
	lines := 0
	for _, k := range keys {
		if r := related[k]; len(r) > 0 {
			fmt.Fprintf(bw, "%s %s\n", k, strings.Join(r, " "))
			lines++
		}
	}
	for _, err := range []error{bw.Flush(), zw.Close(), f.Close()} {
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("wrote %d words", lines)
}

// readSynsets maps each synset offset of a WordNet data file to its
// one-word lower-case lemmas.
func readSynsets(t *testing.T, path string) map[string][]string {
	m := map[string][]string{}
	forEachLine(t, path, func(fs []string) {
		// synset_offset lex_filenum ss_type w_cnt word lex_id [word lex_id...] ...
		if len(fs) < 4 {
			return
		}
		n, err := strconv.ParseInt(fs[3], 16, 32)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		var lemmas []string
		for i := 0; i < int(n) && 4+2*i < len(fs); i++ {
			if w := fs[4+2*i]; isASCIILower(w) && len(w) > 1 {
				lemmas = append(lemmas, w)
			}
		}
		m[fs[0]] = lemmas
	})
	return m
}

// forEachLine calls fn with the fields of each line of a WordNet file,
// skipping the licence header (lines that start with spaces).
func forEachLine(t *testing.T, path string, fn func([]string)) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		if line := sc.Text(); !strings.HasPrefix(line, " ") {
			fn(strings.Fields(line))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

// TestThesaurus checks the embedded table: it loads, its words are lower
// case, none relates to itself, and everyday task verbs reach API words
// through it.
func TestThesaurus(t *testing.T) {
	e, err := readThesaurus(thesaurusData)
	if err != nil {
		t.Fatal(err)
	}
	if len(e) < 10000 {
		t.Fatalf("table has %d words, want the WordNet verbs and nouns (over 10000)", len(e))
	}
	for w, rel := range e {
		if !isASCIILower(w) || stopwords[w] {
			t.Errorf("key %q is not a lower-case word or is a stopword", w)
		}
		if slices.Contains(rel, w) {
			t.Errorf("%q is related to itself", w)
		}
	}
	for _, tt := range []struct{ word, related string }{
		{"shut", "close"},
		{"ask", "request"},
		{"tag", "label"},
		{"delete", "erase"},
	} {
		if w, r := stem(tt.word), stem(tt.related); !slices.Contains(e[w], r) {
			t.Errorf("related(%q) = %q, want it to hold %q", w, e[w], r)
		}
	}
	if _, err := readThesaurus([]byte("not gzip")); err == nil {
		t.Error("readThesaurus(not gzip) gave no error")
	}
}

// BenchmarkThesaurusLoad measures reading the embedded table, which the
// first index built in a process pays once.
func BenchmarkThesaurusLoad(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := readThesaurus(thesaurusData); err != nil {
			b.Fatal(err)
		}
	}
}
