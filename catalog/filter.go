package catalog

import (
	"fmt"
	"path"
	"strings"
)

// validate checks the filter's patterns.
func (f *Filter) validate() error {
	for _, list := range [][]string{f.IncludeOperations, f.ExcludeOperations} {
		for _, p := range list {
			if _, err := path.Match(p, ""); err != nil {
				return fmt.Errorf("filter: bad operation pattern %q", p)
			}
		}
	}
	return nil
}

// drops reports whether the filter removes op, and why.
func (f *Filter) drops(op *operation) (string, bool) {
	if f.ReadOnly && !safeMethod(op.method) {
		return "the catalog is read-only and " + op.method + " is not a safe method", true
	}
	if len(f.Methods) > 0 && !containsFold(f.Methods, op.method) {
		return "its method " + op.method + " is filtered out", true
	}
	if len(f.PathPrefixes) > 0 {
		ok := false
		for _, p := range f.PathPrefixes {
			if strings.HasPrefix(op.pathKey, p) {
				ok = true
			}
		}
		if !ok {
			return "its path is outside the path prefixes kept", true
		}
	}
	if len(f.IncludeTags) > 0 && !anyIn(op.tags, f.IncludeTags) {
		return "none of its tags is included", true
	}
	if len(f.ExcludeTags) > 0 && anyIn(op.tags, f.ExcludeTags) {
		return "one of its tags is excluded", true
	}
	id := op.id
	if id == "" {
		id = op.name
	}
	if len(f.IncludeOperations) > 0 && !matchAny(f.IncludeOperations, id, op.name) {
		return "its operation is not included", true
	}
	if len(f.ExcludeOperations) > 0 && matchAny(f.ExcludeOperations, id, op.name) {
		return "its operation is excluded", true
	}
	return "", false
}

func safeMethod(m string) bool { return m == "GET" || m == "HEAD" || m == "OPTIONS" }

func containsFold(list []string, s string) bool {
	for _, e := range list {
		if strings.EqualFold(e, s) {
			return true
		}
	}
	return false
}

func anyIn(have, want []string) bool {
	for _, h := range have {
		for _, w := range want {
			if h == w {
				return true
			}
		}
	}
	return false
}

func matchAny(patterns []string, names ...string) bool {
	for _, p := range patterns {
		for _, n := range names {
			if ok, _ := path.Match(p, n); ok {
				return true
			}
		}
	}
	return false
}
