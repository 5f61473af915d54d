package catalog

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"

	"go.yaml.in/yaml/v3"
)

// This file holds the helpers that read yaml.Node trees. The loader works on
// the nodes directly: they carry a line and column for every warning, and a
// repair stays local to the node it concerns.

// deref follows YAML aliases.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 32; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.AliasNode {
		return nil
	}
	return n
}

// get returns the value under key in mapping n, or nil.
func get(n *yaml.Node, key string) *yaml.Node {
	n = deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return deref(n.Content[i+1])
		}
	}
	return nil
}

// isMap reports whether n is a mapping.
func isMap(n *yaml.Node) bool { return n != nil && n.Kind == yaml.MappingNode }

// isSeq reports whether n is a sequence.
func isSeq(n *yaml.Node) bool { return n != nil && n.Kind == yaml.SequenceNode }

// isNull reports whether n is absent or an explicit null.
func isNull(n *yaml.Node) bool {
	return n == nil || (n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null")
}

// str returns the value of a string scalar, and whether n was one. Scalars
// YAML resolves to other types (numbers, booleans, timestamps) count as
// strings too: descriptions write `version: 1.0` and `name: 2020` freely.
func str(n *yaml.Node) (string, bool) {
	if n == nil || n.Kind != yaml.ScalarNode || n.ShortTag() == "!!null" {
		return "", false
	}
	return n.Value, true
}

// strOf returns the string value under key, or "".
func strOf(n *yaml.Node, key string) string {
	s, _ := str(get(n, key))
	return s
}

// boolean returns the value of a boolean scalar, and whether n was one.
func boolean(n *yaml.Node) (v, ok bool) {
	if n == nil || n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
		return false, false
	}
	b, err := strconv.ParseBool(strings.ToLower(n.Value))
	return b, err == nil
}

// boolOf returns the boolean under key, false when absent or not a boolean.
func boolOf(n *yaml.Node, key string) bool {
	v, _ := boolean(get(n, key))
	return v
}

// pairs calls f for each key and value of mapping n, in document order,
// until f returns false.
func pairs(n *yaml.Node, f func(k string, kn, v *yaml.Node) bool) {
	n = deref(n)
	if !isMap(n) {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		v := deref(n.Content[i+1])
		if v == nil {
			continue
		}
		if !f(n.Content[i].Value, n.Content[i], v) {
			return
		}
	}
}

// items returns the elements of sequence n with aliases followed.
func items(n *yaml.Node) []*yaml.Node {
	n = deref(n)
	if !isSeq(n) {
		return nil
	}
	out := make([]*yaml.Node, 0, len(n.Content))
	for _, c := range n.Content {
		if c = deref(c); c != nil {
			out = append(out, c)
		}
	}
	return out
}

// scalarValue converts a scalar node to its JSON value: nil, bool, string,
// or a number kept as its JSON text (json.Number) so large integers keep
// their precision.
func scalarValue(n *yaml.Node) any {
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		if b, err := strconv.ParseBool(strings.ToLower(n.Value)); err == nil {
			return b
		}
	case "!!int":
		s := strings.ReplaceAll(n.Value, "_", "")
		if i, err := strconv.ParseInt(s, 0, 64); err == nil {
			return number(strconv.FormatInt(i, 10))
		}
		if u, err := strconv.ParseUint(s, 0, 64); err == nil {
			return number(strconv.FormatUint(u, 10))
		}
		if isJSONNumber(s) {
			return number(s)
		}
	case "!!float":
		s := strings.ReplaceAll(n.Value, "_", "")
		if isJSONNumber(s) {
			return number(s)
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return number(strconv.FormatFloat(f, 'g', -1, 64))
		}
	}
	return n.Value
}

// number is a JSON number kept as text.
type number string

// isJSONNumber reports whether s is a number in JSON syntax.
func isJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i >= len(s):
		return false
	case s[i] == '0':
		i++
	case s[i] >= '1' && s[i] <= '9':
		i = skipDigits(s, i)
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		j := skipDigits(s, i+1)
		if j == i+1 {
			return false
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := skipDigits(s, i)
		if j == i {
			return false
		}
		i = j
	}
	return i == len(s)
}

// skipDigits returns the index of the first non-digit of s at or after i.
func skipDigits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// value converts any node to a JSON value (obj, []any or a scalar value),
// bounded by budget nodes; it returns false when the budget runs out.
func value(n *yaml.Node, budget *int) (any, bool) {
	n = deref(n)
	if n == nil {
		return nil, true
	}
	*budget--
	if *budget < 0 {
		return nil, false
	}
	switch n.Kind {
	case yaml.MappingNode:
		o := make(obj, 0, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			v, ok := value(n.Content[i+1], budget)
			if !ok {
				return nil, false
			}
			o = o.set(n.Content[i].Value, v)
		}
		return o, true
	case yaml.SequenceNode:
		a := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, ok := value(c, budget)
			if !ok {
				return nil, false
			}
			a = append(a, v)
		}
		return a, true
	case yaml.ScalarNode:
		return scalarValue(n), true
	}
	return nil, true
}

// depthExceeds reports whether the tree under n nests deeper than max.
func depthExceeds(n *yaml.Node, max int) (*yaml.Node, bool) {
	if n == nil {
		return nil, false
	}
	if max < 0 {
		return n, true
	}
	for _, c := range n.Content {
		if at, deep := depthExceeds(c, max-1); deep {
			return at, true
		}
	}
	return nil, false
}

// pointerEscape escapes one JSON pointer segment.
func pointerEscape(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// pointerUnescape undoes pointerEscape.
func pointerUnescape(s string) string {
	if !strings.Contains(s, "~") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

// pointer resolves a JSON pointer ("/a/b/0") from n.
func pointer(n *yaml.Node, ptr string) *yaml.Node {
	n = deref(n)
	if ptr == "" {
		return n
	}
	if ptr[0] != '/' {
		return nil
	}
	for _, seg := range strings.Split(ptr[1:], "/") {
		seg = pointerUnescape(seg)
		switch {
		case isMap(n):
			n = get(n, seg)
		case isSeq(n):
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(n.Content) {
				return nil
			}
			n = deref(n.Content[i])
		default:
			return nil
		}
		if n == nil {
			return nil
		}
	}
	return n
}

// fixSurrogates rewrites JSON's UTF-16 surrogate escapes (\ud83d\udc4d),
// which the YAML parser refuses, as YAML's \UXXXXXXXX escapes; a lone
// surrogate becomes U+FFFD. Only JSON input is rewritten: in YAML a
// backslash outside double quotes is a literal character.
func fixSurrogates(data []byte) []byte {
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(trimmed) == 0 || (trimmed[0] != '{' && trimmed[0] != '[') {
		return data
	}
	var out []byte
	last := 0
	for i := 0; i+1 < len(data); i++ {
		if data[i] != '\\' {
			continue
		}
		hi, ok := hex4(data, i)
		if !ok || hi < 0xd800 || hi > 0xdfff {
			i++ // skip the escaped character, so "\\u" is not read as an escape
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(data))
		}
		out = append(out, data[last:i]...)
		r := rune(0xfffd)
		n := 6
		if lo, ok := hex4(data, i+6); ok && hi < 0xdc00 && lo >= 0xdc00 && lo <= 0xdfff {
			r = utf16.DecodeRune(rune(hi), rune(lo))
			n = 12
		}
		out = fmt.Appendf(out, `\U%08X`, r)
		last = i + n
		i += n - 1
	}
	if out == nil {
		return data
	}
	return append(out, data[last:]...)
}

// hex4 reads the \uXXXX escape at data[i:].
func hex4(data []byte, i int) (int, bool) {
	if i+6 > len(data) || data[i] != '\\' || data[i+1] != 'u' {
		return 0, false
	}
	v, err := strconv.ParseUint(string(data[i+2:i+6]), 16, 16)
	return int(v), err == nil
}
