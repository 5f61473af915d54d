package search

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// splitWords splits s into lower-case words: at every character that is
// not a letter or digit, at a lower-to-upper case change ("postMessage"),
// before the last capital of a run followed by a lower-case letter
// ("HTMLParser" gives html, parser) and between letters and digits
// ("oauth2" gives oauth, 2). It applies no stopwords and no stemming; it is
// the splitting that both the built-in index and the plain baseline share.
func splitWords(s string, out []string) []string {
	start := -1
	var prev rune
	flush := func(end int) {
		if start >= 0 && end > start {
			out = append(out, strings.ToLower(s[start:end]))
		}
		start = -1
	}
	for i, r := range s {
		alnum := unicode.IsLetter(r) || unicode.IsDigit(r)
		if !alnum {
			flush(i)
			prev = 0
			continue
		}
		if start >= 0 {
			switch {
			case unicode.IsDigit(r) != unicode.IsDigit(prev):
				flush(i)
			case unicode.IsUpper(r) && unicode.IsLower(prev):
				flush(i)
			case unicode.IsLower(r) && unicode.IsUpper(prev) && i-start > utf8.RuneLen(prev):
				// "HTMLParser": the P starts the next word.
				flush(i - utf8.RuneLen(prev))
				start = i - utf8.RuneLen(prev)
			}
		}
		if start < 0 {
			start = i
		}
		prev = r
	}
	flush(len(s))
	return out
}

// stopwords are words too common in task descriptions and API prose to tell
// operations apart. Words that carry an intent ("all", "new", "not") are
// deliberately absent: the synonym table gives them meaning.
var stopwords = setOf(
	"a", "about", "an", "and", "any", "are", "as", "at", "be", "been", "but",
	"by", "can", "could", "do", "does", "for", "from", "has", "have", "how",
	"i", "if", "in", "into", "is", "it", "its", "me", "my", "of", "on", "one",
	"or", "our", "please", "should", "so", "some", "that", "the", "their",
	"them", "then", "there", "these", "they", "this", "those", "to", "us",
	"was", "we", "were", "what", "when", "where", "whether", "which", "who",
	"will", "with", "would", "you", "your", "want", "wants", "need", "needs",
	"e", "g", "eg", "ie", "etc",
	// Filler of an agent's phrasing: who or what a task is for is an
	// argument, not the operation.
	"let", "someone", "somebody", "something", "anyone", "anything",
	"just", "also", "really", "now",
)

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// analyzer turns text into index terms: split, drop stopwords, numbers and
// one-letter words, stem. One that caches stems (newAnalyzer) must not be
// shared between goroutines; the zero analyzer caches nothing.
type analyzer struct {
	stems map[string]string
	buf   []string
}

func newAnalyzer() *analyzer {
	return &analyzer{stems: make(map[string]string, 1024)}
}

// terms appends the terms of s to out.
func (a *analyzer) terms(s string, out []string) []string {
	a.buf = splitWords(s, a.buf[:0])
	for _, w := range a.buf {
		if len(w) < 2 || stopwords[w] || isDigits(w) {
			continue
		}
		out = append(out, a.stem(w))
	}
	return out
}

func (a *analyzer) stem(w string) string {
	if a.stems == nil {
		return stem(w)
	}
	if s, ok := a.stems[w]; ok {
		return s
	}
	s := stem(w)
	a.stems[w] = s
	return s
}

// stripMarkup removes what HTML and Markdown add to prose and what would
// otherwise become noise terms: tags, entities, link targets, bare URLs and
// fenced code. Link texts and the words inside emphasis are kept.
func stripMarkup(s string) string {
	if !strings.ContainsAny(s, "<&[`:") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '<':
			// An HTML tag or comment: skip to its end when it has one.
			if j := strings.IndexByte(s[i:], '>'); j > 0 && isTagStart(s[i+1:]) {
				b.WriteByte(' ')
				i += j + 1
				continue
			}
		case c == '&':
			if j := strings.IndexByte(s[i:], ';'); j > 1 && j <= 8 && isEntity(s[i+1:i+j]) {
				b.WriteByte(' ')
				i += j + 1
				continue
			}
		case c == ']' && i+1 < len(s) && s[i+1] == '(':
			// The target of a Markdown link: [text](target).
			if j := strings.IndexByte(s[i:], ')'); j > 0 {
				b.WriteByte(' ')
				i += j + 1
				continue
			}
		case c == '`' && strings.HasPrefix(s[i:], "```"):
			if j := strings.Index(s[i+3:], "```"); j >= 0 {
				b.WriteByte(' ')
				i += 3 + j + 3
				continue
			}
		case c == ':' && strings.HasPrefix(s[i:], "://"):
			// A bare URL: drop the scheme word already written and the rest.
			out := b.String()
			k := len(out)
			for k > 0 && isSchemeByte(out[k-1]) {
				k--
			}
			b.Reset()
			b.WriteString(out[:k])
			j := i + 3
			for j < len(s) && !isURLEnd(s[j]) {
				j++
			}
			b.WriteByte(' ')
			i = j
			continue
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

func isTagStart(s string) bool {
	if s == "" {
		return false
	}
	c := s[0]
	return c == '/' || c == '!' || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

func isEntity(s string) bool {
	if s[0] == '#' {
		s = s[1:]
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

func isSchemeByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isURLEnd(c byte) bool {
	return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == ')' || c == '>' || c == '"' || c == '\''
}

func isDigits(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return true
}
