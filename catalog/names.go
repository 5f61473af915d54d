package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
)

// maxName is the longest tool name every major LLM API accepts.
const maxName = 64

// isWordByte reports whether b may appear in a tool name.
func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b == '-'
}

// safeName makes s match ^[a-zA-Z0-9_-]{1,64}$: other runes become '_',
// runs of '_' collapse, '_' and '-' are trimmed from both ends, and a name
// too long keeps a prefix followed by '_' and 8 hex digits of a hash of s.
// It returns "" when nothing usable is left.
func safeName(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	under := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isWordByte(c) {
			c = '_'
		}
		if c == '_' {
			if under {
				continue
			}
			under = true
		} else {
			under = false
		}
		b.WriteByte(c)
	}
	name := strings.Trim(b.String(), "_-")
	if len(name) > maxName {
		sum := sha256.Sum256([]byte(s))
		name = strings.TrimRight(name[:maxName-9], "_-") + "_" + hex.EncodeToString(sum[:4])
	}
	return name
}

// nameFromPath builds a name for an operation without an operationId:
// the method in lower case, then the path's segments with braces removed,
// then the words of a #fragment or ?query suffix, joined by '_'
// (GET /user/{userId}/settings becomes get_user_userId_settings).
func nameFromPath(method, pathKey string) string {
	var b strings.Builder
	b.WriteString(strings.ToLower(method))
	for _, f := range strings.FieldsFunc(pathKey, func(r rune) bool {
		return r == '/' || r == '{' || r == '}' || r == '#' || r == '?' || r == '&' || r == '='
	}) {
		b.WriteByte('_')
		b.WriteString(f)
	}
	return safeName(b.String())
}

// assignNames gives every operation a unique name. Operations are taken in
// sorted (path key, method) order; the first to want a name gets it, and
// later ones get the first free of name_2, name_3, ... So the same
// description always yields the same names, whatever filters apply.
func assignNames(ops []*operation) {
	sorted := append([]*operation(nil), ops...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].pathKey != sorted[j].pathKey {
			return sorted[i].pathKey < sorted[j].pathKey
		}
		return sorted[i].method < sorted[j].method
	})
	wanted := make([]string, len(sorted))
	reserved := map[string]bool{}
	for i, op := range sorted {
		name := safeName(op.id)
		if name == "" {
			name = nameFromPath(op.method, op.pathKey)
		}
		if name == "" {
			name = "operation"
		}
		wanted[i] = name
		reserved[name] = true
	}
	taken := map[string]bool{}
	for i, op := range sorted {
		name := wanted[i]
		if taken[name] {
			for n := 2; ; n++ {
				suffix := fmt.Sprintf("_%d", n)
				base := name
				if len(base)+len(suffix) > maxName {
					base = base[:maxName-len(suffix)]
				}
				cand := base + suffix
				if !taken[cand] && !reserved[cand] {
					name = cand
					break
				}
			}
		}
		taken[name] = true
		op.name = name
	}
}
