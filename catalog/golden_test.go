package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sezzlee/sezzlee/internal/specs"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// goldenTool is everything a tool carries, as the golden files show it.
type goldenTool struct {
	Name         string                `json:"name"`
	OperationID  string                `json:"operationId,omitempty"`
	Method       string                `json:"method"`
	Path         string                `json:"path"`
	Summary      string                `json:"summary,omitempty"`
	Description  string                `json:"description,omitempty"`
	Tags         []string              `json:"tags,omitempty"`
	Deprecated   bool                  `json:"deprecated,omitempty"`
	Annotations  Annotations           `json:"annotations"`
	Version      string                `json:"version"`
	NotInvocable string                `json:"notInvocable,omitempty"`
	Security     []SecurityRequirement `json:"security,omitempty"`
	InputSchema  json.RawMessage       `json:"inputSchema"`
	Arguments    []goldenArgument      `json:"arguments,omitempty"`
	Binding      Binding               `json:"binding"`
}

type goldenArgument struct {
	Name       string   `json:"name"`
	In         Location `json:"in"`
	Required   bool     `json:"required,omitempty"`
	Type       string   `json:"type,omitempty"`
	Nullable   bool     `json:"nullable,omitempty"`
	Enum       []string `json:"enum,omitempty"`
	File       bool     `json:"file,omitempty"`
	Deprecated bool     `json:"deprecated,omitempty"`
	Paging     bool     `json:"paging,omitempty"`
}

// goldenArchive renders a catalog as a txtar archive: the catalog's own
// fields, the warnings, the skipped operations, then one file per tool.
func goldenArchive(t *testing.T, c *Catalog) []byte {
	t.Helper()
	var a txtar.Archive
	add := func(name string, v any) {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		a.Files = append(a.Files, txtar.File{Name: name, Data: append(b, '\n')})
	}
	add("catalog.json", map[string]any{
		"title": c.Title, "apiVersion": c.APIVersion, "openapi": c.OpenAPI,
		"servers": c.Servers, "securitySchemes": c.SecuritySchemes,
	})
	var w bytes.Buffer
	for _, x := range c.Warnings {
		fmt.Fprintln(&w, x.String())
	}
	a.Files = append(a.Files, txtar.File{Name: "warnings.txt", Data: w.Bytes()})
	if len(c.Skipped) > 0 {
		add("skipped.json", c.Skipped)
	}
	for _, tool := range c.Tools() {
		g := goldenTool{
			Name: tool.Name, OperationID: tool.OperationID, Method: tool.Method, Path: tool.PathKey,
			Summary: tool.Summary, Description: tool.Description, Tags: tool.Tags, Deprecated: tool.Deprecated,
			Annotations: tool.Annotations, Version: tool.Version, NotInvocable: tool.NotInvocable,
			Security: tool.Security, InputSchema: tool.InputSchema, Binding: tool.Binding,
		}
		for _, x := range tool.Arguments {
			g.Arguments = append(g.Arguments, goldenArgument{x.Name, x.In, x.Required, x.Type, x.Nullable, x.Enum, x.File, x.Deprecated, x.Paging})
		}
		add("tools/"+tool.Name+".json", g)
	}
	return txtar.Format(&a)
}

// checkGolden compares got with testdata/golden/name.txtar, or rewrites it
// under -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".txtar")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./catalog -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		gotA, wantA := txtar.Parse(got), txtar.Parse(want)
		wantFiles := map[string]string{}
		for _, f := range wantA.Files {
			wantFiles[f.Name] = string(f.Data)
		}
		var diffs []string
		for _, f := range gotA.Files {
			if w, ok := wantFiles[f.Name]; !ok {
				diffs = append(diffs, f.Name+": new")
			} else if w != string(f.Data) {
				diffs = append(diffs, fmt.Sprintf("%s:\ngot:\n%s\nwant:\n%s", f.Name, f.Data, w))
			}
			delete(wantFiles, f.Name)
		}
		for n := range wantFiles {
			diffs = append(diffs, n+": missing")
		}
		t.Errorf("%s differs from the loader's output (go test ./catalog -update rewrites it):\n%s", path, strings.Join(diffs, "\n"))
	}
}

// TestGolden loads the three Petstores and the parameter-style fixture in
// place and compares every tool, schema, binding and warning with the
// golden files: they are the loader's specification.
func TestGolden(t *testing.T) {
	for _, name := range []string{"petstore-oas30", "petstore-oas31", "petstore-swagger20", "readme-parameters-style-oas30"} {
		t.Run(name, func(t *testing.T) {
			file := name + ".yaml"
			if name == "petstore-swagger20" {
				file = name + ".json"
			}
			c, err := Load(context.Background(), specs.File(t, file), nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, tool := range c.Tools() {
				compileSchema(t, tool.Name, tool.InputSchema)
			}
			checkGolden(t, name, goldenArchive(t, c))
		})
	}
}
