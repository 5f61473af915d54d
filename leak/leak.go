// Package leak removes from a backend's error text whatever would tell an
// agent about the backend's insides or hand it a secret: stack frames,
// exception type names, file paths, connection strings, credential-shaped
// values and internal addresses.
//
// The filter is a deny list of shapes, not a parser of any one stack: whole
// lines that are stack frames are dropped, and spans that look like a
// secret, a path or an internal host are replaced by Placeholder. Ordinary
// validation prose ("must be at least 12 characters", "uses the Bearer
// scheme") has none of those shapes and passes unchanged.
//
// The filter's output is never longer than MaxRunes runes, and filtering
// its output again changes nothing. It is safe for concurrent use.
package leak

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// MaxRunes is the most runes Filter and Clean return. Longer text is cut and
// ends with an ellipsis. It counts runes, not bytes, so a message in any
// script keeps the same length budget.
const MaxRunes = 1000

// Placeholder replaces a span that was withheld.
const Placeholder = "[withheld]"

// Note is what Clean appends when something was withheld.
const Note = "(details were withheld)"

// ellipsis marks a cut.
const ellipsis = "…"

// Filter returns s without leaking content, cut to MaxRunes runes, and
// whether anything was withheld or cut. Filter(Filter(s)) returns the same
// text as Filter(s).
func Filter(s string) (out string, withheld bool) {
	cur, cut := precut(s)
	withheld = cut
	// Replacing a span can leave a shape that one more pass would catch
	// (a cut that ends on a host name, two placeholders side by side), so
	// passes run until the text stops changing; three are enough in
	// practice and the bound keeps the cost fixed.
	for range 4 {
		next, w := pass(cur)
		next, cut := truncate(next, MaxRunes)
		withheld = withheld || w || cut
		if next == cur {
			break
		}
		cur = next
	}
	return cur, withheld
}

// Clean returns Filter's output followed by Note when something was
// withheld, still within MaxRunes runes. Clean(Clean(s)) == Clean(s).
func Clean(s string) string {
	out, withheld := Filter(s)
	if !withheld || strings.HasSuffix(out, Note) {
		return out
	}
	if out == "" {
		return Note
	}
	room := MaxRunes - utf8.RuneCountInString(Note) - 1
	out, _ = truncate(out, room)
	// The note goes on the last line unless it would complete a shape the
	// filter catches there (a frame "at x.y" followed by its parenthesis),
	// then on a line of its own; should both change under the filter, the
	// text goes without it rather than lose Clean(Clean(s)) == Clean(s).
	for _, sep := range []string{" ", "\n"} {
		if joined := out + sep + Note; filtered(joined) {
			return joined
		}
	}
	return out
}

// filtered reports whether s is its own filter output.
func filtered(s string) bool {
	out, _ := Filter(s)
	return out == s
}

// maxInput bounds the text the rules run on. The output keeps at most
// MaxRunes runes, so text this far in can only surface when more than
// this much before it was withheld; the bound keeps a multi-megabyte error
// page from costing seconds.
const maxInput = 16 << 10

// precut cuts s to maxInput bytes, back to the last space or line break so
// that a secret cut in half is dropped whole rather than left unmatched.
func precut(s string) (string, bool) {
	if len(s) <= maxInput {
		return s, false
	}
	s = s[:maxInput]
	if i := strings.LastIndexAny(s, " \t\n"); i > 0 {
		s = s[:i]
	}
	return s, true
}

// truncate cuts s to max runes, the last of which is an ellipsis.
func truncate(s string, max int) (string, bool) {
	if utf8.RuneCountInString(s) <= max {
		return s, false
	}
	n := 0
	for i := range s {
		if n == max-1 {
			return strings.TrimRight(s[:i], " \t\n") + ellipsis, true
		}
		n++
	}
	return s, false
}

// pass runs every rule once.
func pass(s string) (string, bool) {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	var r redactor
	s = r.spans(pemBlock, s)
	s = r.lines(s)
	s = r.apply(s)
	s = collapse(s)
	return s, r.withheld
}

// redactor applies the rules and remembers whether any changed the text.
type redactor struct{ withheld bool }

// lines drops every line that is part of a stack trace.
func (r *redactor) lines(s string) string {
	lower := strings.ToLower(s)
	var active []*regexp.Regexp
	for _, ru := range frameLines {
		if ru.may(lower) {
			active = append(active, ru.re)
		}
	}
	goDump := strings.Contains(lower, "goroutine ")
	python := strings.Contains(lower, "file \"")
	if len(active) == 0 && !goDump && !python {
		return s
	}
	in := strings.Split(s, "\n")
	out := in[:0]
	inGo := false  // inside a goroutine dump, until a blank line
	pyIndent := -1 // indentation of the last Python frame, -1 if none
	for _, line := range in {
		trimmed := strings.TrimSpace(line)
		indent := len(line) - len(strings.TrimLeft(line, " \t"))
		switch {
		case inGo && trimmed != "":
			r.withheld = true
			continue
		case inGo:
			inGo = false
		case goDump && goroutineHeader.MatchString(line):
			inGo = true
			r.withheld = true
			continue
		case pyIndent >= 0 && trimmed != "" && indent > pyIndent:
			// The source line Python prints under a frame.
			r.withheld = true
			continue
		}
		pyIndent = -1
		if python && pythonFrame.MatchString(line) {
			pyIndent = indent
			r.withheld = true
			continue
		}
		if matchAny(active, line) {
			r.withheld = true
			continue
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

func matchAny(res []*regexp.Regexp, line string) bool {
	for _, re := range res {
		if re.MatchString(line) {
			return true
		}
	}
	return false
}

// apply runs the span rules in order: the most specific shapes first, so
// that a connection string is withheld whole before its host could be.
func (r *redactor) apply(s string) string {
	lower := strings.ToLower(s)
	for _, ru := range plainSpans {
		if ru.may(lower) {
			s = r.spans(ru.re, s)
		}
	}
	// The gates below are literal tests each pattern needs to match; they
	// keep ordinary prose from paying for every pattern.
	hasEq := strings.Contains(s, "=")
	if hasEq {
		s = r.fn(connKeyValues, s, func(m string) string {
			if connSecretKey.MatchString(m) {
				return Placeholder
			}
			return m
		})
	}
	if strings.Contains(lower, "bearer") {
		s = r.group(bearer, s, 1, func(tok string) string {
			if tokenish(tok) {
				return Placeholder
			}
			return tok
		})
	}
	if strings.Contains(lower, "basic") {
		s = r.group(basic, s, 1, func(tok string) string {
			if basicCredential(tok) {
				return Placeholder
			}
			return tok
		})
	}
	if hasEq || strings.Contains(s, ":") {
		s = r.keyValues(s)
	}
	if hasEq {
		s = r.group(entropyValue, s, 2, func(v string) string {
			if highEntropy(v) {
				return Placeholder
			}
			return v
		})
	}
	// Addresses before type names: "fd00::1" also reads as A::B.
	if strings.Count(s, ":") >= 2 {
		s = r.fn(ipv6, s, internalIP)
	}
	hasColon := strings.Contains(s, ":")
	if hasColon || strings.Contains(s, "\\") || strings.Contains(s, "Exception") || strings.Contains(s, "Error") ||
		strings.Contains(s, "Violation") || strings.Contains(s, "Fault") {
		s = r.fn(exceptionName, s, func(m string) string {
			name := strings.TrimRight(m, " \t")
			if strings.HasSuffix(name, ":") {
				return ""
			}
			return Placeholder + m[len(name):]
		})
	}
	if strings.Contains(s, "Error)") {
		s = r.spans(errorInParens, s)
	}
	if strings.ContainsAny(s, "/\\") {
		for _, re := range pathSpans {
			s = r.group(re, s, 1, func(string) string { return Placeholder })
		}
	}
	if hasColon && strings.Contains(s, ".") {
		s = r.spans(sourceRef, s)
	}
	for _, tld := range internalTLDs {
		if strings.Contains(lower, tld) {
			s = r.spans(internalHost, s)
			break
		}
	}
	if strings.Contains(s, ".") && strings.ContainsAny(s, "0123456789") {
		s = r.fn(ipv4, s, internalIP)
	}
	if strings.Contains(lower, "localhost") {
		s = r.spans(localhost, s)
	}
	return s
}

// spans replaces every match of re with Placeholder.
func (r *redactor) spans(re *regexp.Regexp, s string) string {
	return r.fn(re, s, func(string) string { return Placeholder })
}

// fn replaces every match of re with repl(match).
func (r *redactor) fn(re *regexp.Regexp, s string, repl func(string) string) string {
	return re.ReplaceAllStringFunc(s, func(m string) string {
		if m == Placeholder {
			return m
		}
		out := repl(m)
		if out != m {
			r.withheld = true
		}
		return out
	})
}

// group replaces submatch g of every match of re with repl(submatch).
func (r *redactor) group(re *regexp.Regexp, s string, g int, repl func(string) string) string {
	idx := re.FindAllStringSubmatchIndex(s, -1)
	if idx == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range idx {
		start, end := m[2*g], m[2*g+1]
		if start < 0 {
			continue
		}
		v := s[start:end]
		out := v
		if v != Placeholder {
			out = repl(v)
		}
		if out != v {
			r.withheld = true
		}
		b.WriteString(s[last:start])
		b.WriteString(out)
		last = end
	}
	b.WriteString(s[last:])
	return b.String()
}

// keyValues withholds the value of a key that names a secret. With "=" any
// value is a secret; with ":" only a quoted or token-shaped one is, so that
// prose like "password: must be at least 12 characters" passes.
func (r *redactor) keyValues(s string) string {
	idx := secretKeyValue.FindAllStringSubmatchIndex(s, -1)
	if idx == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range idx {
		sep := s[m[4]:m[5]]
		vs, ve := m[6], m[7]
		v := s[vs:ve]
		quoted := len(v) >= 2 && (v[0] == '"' || v[0] == '\'')
		if quoted {
			vs, ve = vs+1, ve-1
			v = s[vs:ve]
		}
		secret := false
		switch {
		case v == Placeholder || v == "":
		case strings.Contains(sep, "="):
			secret = len(v) >= 3 || quoted
		default:
			secret = quoted || tokenish(v)
		}
		if !secret {
			continue
		}
		r.withheld = true
		b.WriteString(s[last:vs])
		b.WriteString(Placeholder)
		last = ve
	}
	b.WriteString(s[last:])
	return b.String()
}

// collapse merges neighbouring placeholders, trims line ends and drops
// runs of blank lines, so that what remains reads as text.
func collapse(s string) string {
	s = placeholderRun.ReplaceAllString(s, Placeholder)
	lines := strings.Split(s, "\n")
	out := lines[:0]
	blank := false
	for _, l := range lines {
		l = strings.TrimRight(l, " \t")
		if l == "" {
			if blank || len(out) == 0 {
				continue
			}
			blank = true
		} else {
			blank = false
		}
		out = append(out, l)
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}
