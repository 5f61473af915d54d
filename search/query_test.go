package search

import (
	"slices"
	"testing"
)

func TestNormalizeQuery(t *testing.T) {
	tests := []struct{ in, want string }{
		{"find the account for jane@example.com", "find the account for email"},
		{"find the account for jane@example.com.", "find the account for email"},
		{"Get rid of a coupon", "remove a coupon"},
		{"call off the payment", "cancel the payment"},
		{"sign out of the shop", "logout of the shop"},
		{"fetch https://example.com/a.png into a file", "fetch url into a file"},
		{"send to @channel", "send to @channel"}, // no domain: not an address
		{"get a coupon", "get a coupon"},         // unchanged text is returned as it was
		{"Get A Coupon", "Get A Coupon"},
		{"getting rid of", "getting rid of"}, // whole words only
		{"call my server whenever a file changes", "call my server webhook a file changes"},
		{"notify me every time someone pushes", "notify me webhook someone pushes"},
		{"every timeline", "every timeline"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := normalizeQuery(tt.in); got != tt.want {
			t.Errorf("normalizeQuery(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPhrasalVerbsTable(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range slices.Concat(phrasalVerbs, eventPhrases) {
		if seen[p[0]] {
			t.Errorf("phrase %q appears twice", p[0])
		}
		seen[p[0]] = true
		if got := normalizeQuery(p[0]); got != p[1] {
			t.Errorf("normalizeQuery(%q) = %q, want %q", p[0], got, p[1])
		}
		if len(analyzeQuery(p[1])) != 1 {
			t.Errorf("replacement %q of %q is not one index word", p[1], p[0])
		}
	}
}
