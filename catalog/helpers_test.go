package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// compileSchema compiles a tool's input schema as JSON Schema 2020-12.
func compileSchema(t testing.TB, name string, raw json.RawMessage) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("%s: input schema is not JSON: %v", name, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	url := fmt.Sprintf("mem:///%s.json", name)
	if err := c.AddResource(url, doc); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Errorf("%s: input schema does not compile: %v", name, err)
		return nil
	}
	return s
}

// mustParse parses a description given as text, failing the test on error.
func mustParse(t testing.TB, text string, opts *Options) *Catalog {
	t.Helper()
	c, err := Parse([]byte(text), opts)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return c
}

// loadFixture loads a file under testdata.
func loadFixture(t testing.TB, name string, opts *Options) *Catalog {
	t.Helper()
	c, err := Load(context.Background(), filepath.Join("testdata", name), opts)
	if err != nil {
		t.Fatalf("Load(%s): %v", name, err)
	}
	return c
}

// mustTool returns the named tool.
func mustTool(t testing.TB, c *Catalog, name string) *Tool {
	t.Helper()
	tool, ok := c.Tool(name)
	if !ok {
		var names []string
		for _, x := range c.Tools() {
			names = append(names, x.Name)
		}
		t.Fatalf("no tool %q; tools: %v", name, names)
	}
	return tool
}

// props decodes a tool's input schema and returns its properties.
func props(t testing.TB, tool *Tool) map[string]any {
	t.Helper()
	var s struct {
		Properties map[string]any `json:"properties"`
	}
	if err := json.Unmarshal(tool.InputSchema, &s); err != nil {
		t.Fatalf("%s: %v", tool.Name, err)
	}
	return s.Properties
}

// compact renders v as compact JSON for got/want messages.
func compact(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// argBinding returns the binding of argument name.
func argBinding(t testing.TB, tool *Tool, name string) ArgBinding {
	t.Helper()
	for _, a := range tool.Binding.Args {
		if a.Name == name {
			return a
		}
	}
	t.Fatalf("%s: no binding for %q in %+v", tool.Name, name, tool.Binding.Args)
	return ArgBinding{}
}

// hasWarning reports whether a warning's location ends with loc and its
// message contains msg.
func hasWarning(c *Catalog, loc, msg string) bool {
	for _, w := range c.Warnings {
		if strings.HasSuffix(w.Location, loc) && strings.Contains(w.Message, msg) {
			return true
		}
	}
	return false
}

// validates reports whether instance (JSON text) is valid against the tool's input schema.
func validates(t testing.TB, tool *Tool, instance string) bool {
	t.Helper()
	s := compileSchema(t, tool.Name, tool.InputSchema)
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(instance))
	if err != nil {
		t.Fatalf("bad instance %s: %v", instance, err)
	}
	return s.Validate(v) == nil
}

func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }
