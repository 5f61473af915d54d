package search

import (
	"slices"
	"testing"
)

func TestExpansion(t *testing.T) {
	tests := []struct {
		word    string
		want    []string // stems the word must expand to
		notWant []string // stems it must not expand to
	}{
		{"remove", []string{"delet", "destroy", "revok"}, []string{"remov", "creat"}},
		{"deleting", []string{"remov"}, nil},
		{"add", []string{"creat", "new", "regist"}, []string{"delet"}},
		{"edit", []string{"updat", "modifi", "chang", "fix"}, nil},
		{"coworkers", []string{"user", "member"}, []string{"team"}},
		{"picture", []string{"imag", "photo"}, nil},
		{"purchase", []string{"buy", "order"}, []string{"sell"}},
		{"stop", []string{"cancel", "abort"}, []string{"start"}},
		// Words outside the table expand to nothing.
		{"pet", nil, []string{"pet"}},
	}
	a := newAnalyzer()
	for _, tt := range tests {
		got := expand[a.stem(tt.word)]
		for _, w := range tt.want {
			if !slices.Contains(got, w) {
				t.Errorf("expand[%q] = %q, want it to hold %q", tt.word, got, w)
			}
		}
		for _, w := range tt.notWant {
			if slices.Contains(got, w) {
				t.Errorf("expand[%q] = %q, want it without %q", tt.word, got, w)
			}
		}
	}
}

// TestSynonymTable checks the table itself: every word can match (no
// stopwords, no one-letter words, no word that splits in two), and the
// expansion is symmetric without self-links.
func TestSynonymTable(t *testing.T) {
	for _, g := range synonymGroups {
		if len(g) < 2 {
			t.Errorf("group %q has fewer than two words", g)
		}
		for _, w := range g {
			if words := splitWords(w, nil); len(words) != 1 || words[0] != w || len(w) < 2 || stopwords[w] {
				t.Errorf("group %q: %q can never match a term", g, w)
			}
		}
	}
	for term, alts := range expand {
		for _, o := range alts {
			if o == term {
				t.Errorf("expand[%q] holds the term itself", term)
			}
			if !slices.Contains(expand[o], term) {
				t.Errorf("expand[%q] holds %q but not the reverse", term, o)
			}
		}
	}
}
