package search

import (
	"slices"
	"strings"
	"testing"
)

func TestSplitWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"postMessage", []string{"post", "message"}},
		{"chat.postMessage", []string{"chat", "post", "message"}},
		{"get_user-by_id", []string{"get", "user", "by", "id"}},
		{"HTMLParser", []string{"html", "parser"}},
		{"getURL", []string{"get", "url"}},
		{"oauth2Token", []string{"oauth", "2", "token"}},
		{"/files/{file_id}#add_shared_link", []string{"files", "file", "id", "add", "shared", "link"}},
		{"thumbnail.{extension}", []string{"thumbnail", "extension"}},
		{"ÉtéCafé", []string{"été", "café"}},
		{"  ", nil},
		{"", nil},
	}
	for _, tt := range tests {
		got := splitWords(tt.in, nil)
		if !slices.Equal(got, tt.want) {
			t.Errorf("splitWords(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestAnalyzerTerms(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		// Stopwords and one-letter words go; the rest is stemmed.
		{"Delete the pets of a user", []string{"delet", "pet", "user"}},
		{"listing all scheduled messages", []string{"list", "all", "schedul", "messag"}},
		// Intent words are not stopwords.
		{"create new", []string{"creat", "new"}},
		{"the of and", nil},
		{"fine_tuning jobs", []string{"fine", "tune", "job"}},
	}
	a := newAnalyzer()
	for _, tt := range tests {
		got := a.terms(tt.in, nil)
		if !slices.Equal(got, tt.want) {
			t.Errorf("terms(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestStripMarkup(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"plain text", "plain text"},
		{"Lists <b>all</b> pets<br/>", "Lists  all  pets "},
		{"See [the guide](https://example.com/guide) now", "See [the guide  now"},
		{"Visit https://docs.example.com/a/b?x=1 for more", "Visit   for more"},
		{"a &amp; b &#39;c&#39;", "a   b  c "},
		{"code ```go\nx := 1\n``` after", "code   after"},
		{"x < y & z > w", "x < y & z > w"},
		{"unclosed <tag", "unclosed <tag"},
	}
	for _, tt := range tests {
		if got := stripMarkup(tt.in); got != tt.want {
			t.Errorf("stripMarkup(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPathTerms(t *testing.T) {
	tests := []struct {
		key  string
		want []string
	}{
		{"/v1/customers/{customer}/sources", []string{"custom", "custom", "sourc"}},
		{"/v2beta/files", []string{"file"}},
		{"/responses/compact?beta=true", []string{"respons", "compact", "beta", "true"}},
		{"/users/{user_id}/folders/0", []string{"user", "user", "id", "folder"}},
		{"/videos/{id}", []string{"video", "id"}},
	}
	a := newAnalyzer()
	for _, tt := range tests {
		if got := pathTerms(tt.key, a.terms); !slices.Equal(got, tt.want) {
			t.Errorf("pathTerms(%q) = %q, want %q", tt.key, got, tt.want)
		}
	}
}

func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{"postMessage", "<b>x</b> &amp; [a](b) https://x.y", "```", "ÉtéCafé2", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a := newAnalyzer()
		for _, term := range a.terms(stripMarkup(s), nil) {
			if term == "" || term != strings.ToLower(term) {
				t.Fatalf("terms(%q) gave term %q: want non-empty lower case", s, term)
			}
		}
		_ = analyzeQuery(s)
	})
}

func FuzzNormalizeQuery(f *testing.F) {
	for _, s := range []string{"get rid of a coupon", "mail jane@example.com", "fetch https://x.y/z", "log in log in", "@.", "a@b.", "\xff@\xfe.x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := normalizeQuery(s)
		if n, m := len(strings.Fields(got)), len(strings.Fields(s)); n > m {
			t.Fatalf("normalizeQuery(%q) = %q: %d words from %d", s, got, n, m)
		}
		_ = queryIntent(s, nil)
	})
}
