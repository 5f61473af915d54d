package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
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
