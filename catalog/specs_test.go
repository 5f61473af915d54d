package catalog

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/sezzlee/sezzlee/internal/specs"
	"go.yaml.in/yaml/v3"
)

var namePattern = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// TestEveryRealDescription loads every real description and checks that
// each operation became a tool or was skipped with a reason, that names are
// valid and unique, and that every input schema compiles.
func TestEveryRealDescription(t *testing.T) {
	dir := specs.Dir(t)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") && !strings.HasSuffix(name, ".yaml") && !strings.HasSuffix(name, ".yml") {
			continue
		}
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name)
			c, err := Load(context.Background(), path, nil)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			want := countOperations(t, path)
			got := map[string]bool{}
			for _, tool := range c.Tools() {
				if !namePattern.MatchString(tool.Name) {
					t.Errorf("tool name %q does not match %s", tool.Name, namePattern)
				}
				key := tool.Method + " " + tool.PathKey
				if got[key] {
					t.Errorf("two tools for %s", key)
				}
				got[key] = true
				compileSchema(t, tool.Name, tool.InputSchema)
			}
			for _, s := range c.Skipped {
				if s.Reason == "" {
					t.Errorf("%s %s skipped without a reason", s.Method, s.PathKey)
				}
				got[s.Method+" "+s.PathKey] = true
			}
			for k := range want {
				if !got[k] {
					t.Errorf("operation %s is neither a tool nor skipped", k)
				}
			}
			if len(got) != len(want) {
				t.Errorf("tools+skipped = %d, operations = %d", len(got), len(want))
			}
			if strings.HasPrefix(name, "petstore") && len(c.Skipped) > 0 {
				t.Errorf("a Petstore must load whole; skipped: %v", c.Skipped)
			}
			t.Logf("%s: %d operations, %d tools, %d skipped, %d warnings", name, len(want), c.Len(), len(c.Skipped), len(c.Warnings))
		})
	}
}

// countOperations lists "METHOD pathkey" for every operation under paths,
// read independently of the loader.
func countOperations(t *testing.T, path string) map[string]bool {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]any `yaml:"paths" json:"paths"`
	}
	unmarshal := yaml.Unmarshal
	if strings.HasSuffix(path, ".json") {
		unmarshal = json.Unmarshal // the YAML parser refuses JSON's surrogate escapes
	}
	if err := unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for key, item := range doc.Paths {
		for m := range item {
			switch m {
			case "get", "put", "post", "delete", "options", "head", "patch", "trace":
				out[strings.ToUpper(m)+" "+key] = true
			}
		}
	}
	return out
}

// TestRetainedHeap checks that a built catalog keeps compact JSON and
// bindings, not the node trees: it must hold well under 10 times the size
// of the description it came from.
func TestRetainedHeap(t *testing.T) {
	path := specs.File(t, "github-api.github.com-2020.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	c, err := Parse(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	retained := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	runtime.KeepAlive(c)
	runtime.KeepAlive(data) // alive in both measures, so it is not counted
	if ratio := float64(retained) / float64(len(data)); ratio > 10 {
		t.Errorf("the catalog retains %d bytes, %.1fx the %d-byte description; want under 10x", retained, ratio, len(data))
	} else {
		t.Logf("retained %d bytes, %.2fx the description", retained, ratio)
	}
}
