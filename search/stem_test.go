package search

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStem(t *testing.T) {
	// Expected stems are those of the reference Snowball English stemmer.
	tests := []struct{ in, want string }{
		{"consign", "consign"}, {"consigned", "consign"}, {"consignment", "consign"},
		{"consistency", "consist"}, {"consistently", "consist"},
		{"consolatory", "consolatori"}, {"consolidating", "consolid"},
		{"conspicuous", "conspicu"}, {"conspiracy", "conspiraci"},
		{"knackeries", "knackeri"}, {"kneaded", "knead"}, {"knitting", "knit"},
		{"cries", "cri"}, {"ties", "tie"}, {"gaps", "gap"}, {"gas", "gas"},
		{"hopping", "hop"}, {"hoping", "hope"}, {"fizzed", "fizz"},
		{"generations", "generat"}, {"communication", "communic"},
		{"replies", "repli"}, {"skies", "sky"}, {"news", "news"},
		{"succeeding", "succeed"}, {"exceed", "exceed"},
		// Words the algorithm does not apply to are left alone.
		{"v2", "v2"}, {"id", "id"}, {"naïve", "naïve"},
	}
	for _, tt := range tests {
		if got := stem(tt.in); got != tt.want {
			t.Errorf("stem(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestStemInflections checks what search relies on: the forms of one API
// verb or noun meet at one stem.
func TestStemInflections(t *testing.T) {
	groups := [][]string{
		{"create", "creates", "created", "creating"},
		{"update", "updates", "updated", "updating"},
		{"delete", "deletes", "deleted", "deleting"},
		{"list", "lists", "listed", "listing"},
		{"schedule", "schedules", "scheduled", "scheduling"},
		{"message", "messages"},
		{"transcription", "transcriptions"},
		{"embedding", "embeddings", "embedded"},
		{"reply", "replies", "replied"},
	}
	for _, g := range groups {
		want := stem(g[0])
		for _, w := range g[1:] {
			if got := stem(w); got != want {
				t.Errorf("stem(%q) = %q, want %q like stem(%q)", w, got, want, g[0])
			}
		}
	}
}

func FuzzStem(f *testing.F) {
	for _, s := range []string{"generations", "yyy", "eed", "ies", "y", "sses"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, w string) {
		s := stem(w)
		if len(s) > len(w)+1 {
			t.Fatalf("stem(%q) = %q: longer than the word", w, s)
		}
	})
}

// TestStemReference compares stem with the reference Snowball stemmer on
// words taken from real API descriptions (testdata/stems.txt).
func TestStemReference(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "stems.txt"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		word, want, ok := strings.Cut(line, " ")
		if !ok || strings.HasPrefix(line, "#") {
			continue
		}
		n++
		if got := stem(word); got != want {
			t.Errorf("stem(%q) = %q, want %q", word, got, want)
		}
	}
	if n < 1000 {
		t.Fatalf("read %d words from testdata/stems.txt, want at least 1000", n)
	}
}
