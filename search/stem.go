package search

import "strings"

// stem reduces a lower-case English word to its stem with the Porter2
// (Snowball English) algorithm, so that "creates", "created" and "creating"
// meet at "creat". Words that are not plain ASCII letters (identifiers with
// digits, other scripts) are returned unchanged.
//
// The full algorithm rather than an S-stemmer: task descriptions are verbs
// in every tense ("scheduled", "uploading") and nouns from verbs
// ("transcription", "generation") that an S-stemmer leaves apart.
func stem(w string) string {
	if len(w) <= 2 || !isASCIILower(w) {
		return w
	}
	if s, ok := stemExceptions[w]; ok {
		return s
	}
	b := []byte(w)
	// Mark y as a consonant (Y) at the start and after a vowel.
	for i := range b {
		if b[i] == 'y' && (i == 0 || isVowel(b[i-1])) {
			b[i] = 'Y'
		}
	}
	r1, r2 := regions(b)

	b = step0(b)
	b = step1a(b)
	if stemInvariant[string(b)] {
		return lowerY(b)
	}
	b = step1b(b, r1)
	b = step1c(b)
	b = step2(b, r1)
	b = step3(b, r1, r2)
	b = step4(b, r2)
	b = step5(b, r1, r2)
	return lowerY(b)
}

var stemExceptions = map[string]string{
	"skis": "ski", "skies": "sky", "dying": "die", "lying": "lie",
	"tying": "tie", "idly": "idl", "gently": "gentl", "ugly": "ugli",
	"early": "earli", "only": "onli", "singly": "singl",
	"sky": "sky", "news": "news", "howe": "howe", "atlas": "atlas",
	"cosmos": "cosmos", "bias": "bias", "andes": "andes",
}

// stemInvariant are left as they are after step 1a.
var stemInvariant = setOf("inning", "outing", "canning", "herring",
	"earring", "proceed", "exceed", "succeed")

func isASCIILower(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

func isVowel(c byte) bool {
	switch c {
	case 'a', 'e', 'i', 'o', 'u', 'y':
		return true
	}
	return false
}

func lowerY(b []byte) string {
	for i := range b {
		if b[i] == 'Y' {
			b[i] = 'y'
		}
	}
	return string(b)
}

// regions returns the starts of R1 and R2.
func regions(b []byte) (r1, r2 int) {
	r1 = len(b)
	s := string(b)
	switch {
	case strings.HasPrefix(s, "gener"), strings.HasPrefix(s, "arsen"):
		r1 = 5
	case strings.HasPrefix(s, "commun"):
		r1 = 6
	default:
		r1 = afterVC(b, 0)
	}
	return r1, afterVC(b, r1)
}

// afterVC returns the position after the first non-vowel that follows a
// vowel, at or after from; len(b) when there is none.
func afterVC(b []byte, from int) int {
	for i := from + 1; i < len(b); i++ {
		if !isVowel(b[i]) && isVowel(b[i-1]) {
			return i + 1
		}
	}
	return len(b)
}

// shortSyllableAt reports whether b ends in a short syllable.
func endsShortSyllable(b []byte) bool {
	n := len(b)
	if n == 2 {
		return isVowel(b[0]) && !isVowel(b[1])
	}
	if n < 3 {
		return false
	}
	c := b[n-1]
	return !isVowel(b[n-3]) && isVowel(b[n-2]) && !isVowel(c) && c != 'w' && c != 'x' && c != 'Y'
}

func isShort(b []byte, r1 int) bool {
	return r1 >= len(b) && endsShortSyllable(b)
}

func hasSuffix(b []byte, s string) bool {
	return len(b) >= len(s) && string(b[len(b)-len(s):]) == s
}

func hasVowel(b []byte) bool {
	for _, c := range b {
		if isVowel(c) {
			return true
		}
	}
	return false
}

func step0(b []byte) []byte {
	for _, s := range []string{"'s'", "'s", "'"} {
		if hasSuffix(b, s) {
			return b[:len(b)-len(s)]
		}
	}
	return b
}

func step1a(b []byte) []byte {
	switch {
	case hasSuffix(b, "sses"):
		return b[:len(b)-2]
	case hasSuffix(b, "ied"), hasSuffix(b, "ies"):
		if len(b) > 4 {
			return b[:len(b)-2]
		}
		return b[:len(b)-1]
	case hasSuffix(b, "us"), hasSuffix(b, "ss"):
		return b
	case hasSuffix(b, "s"):
		if len(b) >= 3 && hasVowel(b[:len(b)-2]) {
			return b[:len(b)-1]
		}
	}
	return b
}

func step1b(b []byte, r1 int) []byte {
	for _, s := range []string{"eedly", "eed"} {
		if hasSuffix(b, s) {
			if len(b)-len(s) >= r1 {
				return append(b[:len(b)-len(s)], 'e', 'e')
			}
			return b
		}
	}
	for _, s := range []string{"ingly", "edly", "ing", "ed"} {
		if !hasSuffix(b, s) {
			continue
		}
		stemPart := b[:len(b)-len(s)]
		if !hasVowel(stemPart) {
			return b
		}
		b = stemPart
		switch {
		case hasSuffix(b, "at"), hasSuffix(b, "bl"), hasSuffix(b, "iz"):
			return append(b, 'e')
		case isDouble(b):
			return b[:len(b)-1]
		case isShort(b, r1):
			return append(b, 'e')
		}
		return b
	}
	return b
}

func isDouble(b []byte) bool {
	n := len(b)
	if n < 2 || b[n-1] != b[n-2] {
		return false
	}
	switch b[n-1] {
	case 'b', 'd', 'f', 'g', 'm', 'n', 'p', 'r', 't':
		return true
	}
	return false
}

func step1c(b []byte) []byte {
	n := len(b)
	if n > 2 && (b[n-1] == 'y' || b[n-1] == 'Y') && !isVowel(b[n-2]) {
		b[n-1] = 'i'
	}
	return b
}

type rule struct{ suffix, repl string }

var step2Rules = []rule{
	{"ization", "ize"}, {"ational", "ate"}, {"fulness", "ful"},
	{"ousness", "ous"}, {"iveness", "ive"}, {"tional", "tion"},
	{"biliti", "ble"}, {"lessli", "less"}, {"entli", "ent"}, {"ation", "ate"},
	{"alism", "al"}, {"aliti", "al"}, {"ousli", "ous"}, {"iviti", "ive"},
	{"fulli", "ful"}, {"enci", "ence"}, {"anci", "ance"}, {"abli", "able"},
	{"izer", "ize"}, {"ator", "ate"}, {"alli", "al"}, {"bli", "ble"},
	{"ogi", "og"}, {"li", ""},
}

func step2(b []byte, r1 int) []byte {
	for _, r := range step2Rules {
		if !hasSuffix(b, r.suffix) {
			continue
		}
		at := len(b) - len(r.suffix)
		if at < r1 {
			return b
		}
		switch r.suffix {
		case "ogi":
			if at == 0 || b[at-1] != 'l' {
				return b
			}
		case "li":
			if at == 0 || !strings.ContainsRune("cdeghkmnrt", rune(b[at-1])) {
				return b
			}
		}
		return append(b[:at], r.repl...)
	}
	return b
}

var step3Rules = []rule{
	{"ational", "ate"}, {"tional", "tion"}, {"alize", "al"}, {"icate", "ic"},
	{"iciti", "ic"}, {"ative", ""}, {"ical", "ic"}, {"ness", ""}, {"ful", ""},
}

func step3(b []byte, r1, r2 int) []byte {
	for _, r := range step3Rules {
		if !hasSuffix(b, r.suffix) {
			continue
		}
		at := len(b) - len(r.suffix)
		if at < r1 || (r.suffix == "ative" && at < r2) {
			return b
		}
		return append(b[:at], r.repl...)
	}
	return b
}

var step4Suffixes = []string{
	"ement", "ance", "ence", "able", "ible", "ment", "ant", "ent", "ism",
	"ate", "iti", "ous", "ive", "ize", "ion", "al", "er", "ic",
}

func step4(b []byte, r2 int) []byte {
	for _, s := range step4Suffixes {
		if !hasSuffix(b, s) {
			continue
		}
		at := len(b) - len(s)
		if at < r2 {
			return b
		}
		if s == "ion" && (at == 0 || (b[at-1] != 's' && b[at-1] != 't')) {
			return b
		}
		return b[:at]
	}
	return b
}

func step5(b []byte, r1, r2 int) []byte {
	n := len(b)
	switch {
	case n > 0 && b[n-1] == 'e':
		at := n - 1
		if at >= r2 || (at >= r1 && !endsShortSyllable(b[:at])) {
			return b[:at]
		}
	case n > 1 && b[n-1] == 'l' && b[n-2] == 'l':
		if n-1 >= r2 {
			return b[:n-1]
		}
	}
	return b
}
