// Package specs finds the folder of real public OpenAPI descriptions that
// tests and benchmarks read in place. They are not copied into the
// repository: SEZZLEE_SPECS names the folder, and without it the folder
// ../shared/specs beside the module root is used when it exists.
package specs

import (
	"os"
	"path/filepath"
	"testing"
)

// EnvVar names the folder holding the real descriptions.
const EnvVar = "SEZZLEE_SPECS"

// Lookup returns the folder of real descriptions, or "" when there is none.
func Lookup() string {
	if d := os.Getenv(EnvVar); d != "" {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
		return ""
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			d := filepath.Join(dir, "..", "shared", "specs")
			if st, err := os.Stat(d); err == nil && st.IsDir() {
				return d
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Dir returns the folder of real descriptions, skipping tb with a plain
// reason when it is absent (as on a fresh clone without shared/).
func Dir(tb testing.TB) string {
	tb.Helper()
	d := Lookup()
	if d == "" {
		tb.Skipf("skipped: the real OpenAPI descriptions are absent (set %s or place them in ../shared/specs)", EnvVar)
	}
	return d
}

// File returns the path of one real description, skipping tb when it is absent.
func File(tb testing.TB, name string) string {
	tb.Helper()
	p := filepath.Join(Dir(tb), name)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("skipped: %s is absent from %s", name, filepath.Dir(p))
	}
	return p
}

// EvalDir returns the folder of search evaluation queries, or "" when absent.
// SEZZLEE_SEARCH_EVAL names it; otherwise ../shared/search-eval beside the specs.
func EvalDir() string {
	if d := os.Getenv("SEZZLEE_SEARCH_EVAL"); d != "" {
		return d
	}
	s := Lookup()
	if s == "" {
		return ""
	}
	d := filepath.Join(s, "..", "search-eval")
	if _, err := os.Stat(d); err != nil {
		return ""
	}
	return d
}
