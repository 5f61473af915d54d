package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestRepairs(t *testing.T) {
	c := loadFixture(t, "repairs-oas31.yaml", nil)
	tool := mustTool(t, c, "addPet")
	p := props(t, tool)
	tests := []struct {
		name string
		got  any
		want string
	}{
		{"null $ref becomes an open schema", p["details"], `{}`},
		{"$id and $anchor reference resolves", p["detailsId"], `{"examples":[10],"type":"integer"}`},
		{"wrong-type keywords dropped", p["name"], `{"type":"string"}`},
		{"wrong-type minimum dropped, numeric exclusiveMinimum kept", p["weight"], `{"exclusiveMinimum":0,"type":"number"}`},
		{"boolean required on a property dropped", p["owner"], `{"type":"string"}`},
		{"pattern the validator refuses dropped, unknown keyword dropped", p["legs"], `{"type":"integer"}`},
		{"empty enum dropped", p["status"], `{"type":"string"}`},
		{"readOnly property left out", p["id"], `null`},
	}
	for _, tt := range tests {
		if got := compact(tt.got); got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.name, got, tt.want)
		}
	}
	if r := requiredOf(t, tool); !reflect.DeepEqual(r, []string{"name"}) {
		t.Errorf("required = %v, want [name] (readOnly id left out)", r)
	}
	warnings := []struct{ loc, msg string }{
		{"/components/schemas/Pet/properties/details/$ref", "$ref is empty"},
		{"/components/schemas/Pet/properties/name/minLength", "dropped"},
		{"/components/schemas/Pet/properties/name/maxLength", "dropped"},
		{"/components/schemas/Pet/properties/weight/minimum", "must be a number"},
		{"/components/schemas/Pet/properties/owner/required", "dropped"},
		{"/components/schemas/Pet/properties/legs/pattern", "regular expression"},
		{"/components/schemas/Pet/properties/status/enum", "non-empty"},
	}
	for _, w := range warnings {
		if !hasWarning(c, w.loc, w.msg) {
			t.Errorf("no warning at %s saying %q; warnings: %v", w.loc, w.msg, c.Warnings)
		}
	}
	for _, w := range c.Warnings {
		if w.Line == 0 || w.Column == 0 {
			t.Errorf("warning %q has no line and column", w)
		}
	}
	for _, w := range c.Warnings {
		if strings.HasSuffix(w.Location, "details/$ref") && (w.Line != 24 || w.Column != 16) {
			t.Errorf("null $ref warning = %v, want line 24, column 16", w)
		}
	}
	if len(c.Warnings) != len(warnings) {
		t.Errorf("got %d warnings, want %d: %v", len(c.Warnings), len(warnings), c.Warnings)
	}
}

func requiredOf(t *testing.T, tool *Tool) []string {
	t.Helper()
	var s struct{ Required []string }
	if err := jsonUnmarshal(tool.InputSchema, &s); err != nil {
		t.Fatal(err)
	}
	return s.Required
}

func TestNullableDeprecatedExamples(t *testing.T) {
	c := loadFixture(t, "nullable-oas30.yaml", nil)
	tool := mustTool(t, c, "putThing")
	p := props(t, tool)
	tests := []struct {
		prop, want string
	}{
		{"color", `{"enum":["red","blue",null],"examples":["red"],"type":["string","null"]}`},
		{"size", `{"exclusiveMinimum":1,"maximum":10,"type":"integer"}`},
		{"parent", `{"anyOf":[{"allOf":[{"properties":{"id":{"type":"string"}},"type":"object"}]},{"type":"null"}]}`},
		{"old", `{"default":"x","deprecated":true,"type":"string"}`},
		{"created", `null`},
	}
	for _, tt := range tests {
		if got := compact(p[tt.prop]); got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.prop, got, tt.want)
		}
	}
	if r := requiredOf(t, tool); !reflect.DeepEqual(r, []string{"id", "color"}) {
		t.Errorf("required = %v, want [id color]", r)
	}
	color := argBinding(t, tool, "color")
	if color.Type != "string" || !color.Nullable {
		t.Errorf("color binding = %+v, want type string, nullable", color)
	}
	for _, a := range tool.Arguments {
		if a.Name == "old" && !a.Deprecated {
			t.Errorf("argument old is not marked deprecated")
		}
	}
	if !validates(t, tool, `{"id":"1","color":null}`) || validates(t, tool, `{"id":"1","color":"green"}`) {
		t.Errorf("color should accept null and refuse a value outside the enum")
	}
	if tool.Annotations != (Annotations{Idempotent: true}) {
		t.Errorf("PUT annotations = %+v, want idempotent only", tool.Annotations)
	}
}

func TestCyclesAndSharedRefs(t *testing.T) {
	c := loadFixture(t, "cycle-oas30.yaml", nil)
	tree := mustTool(t, c, "plantTree")
	if got, want := string(tree.InputSchema), `{"type":"object","properties":{"label":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/$defs/Node"}}},"required":["label"],"additionalProperties":false,"$defs":{"Node":{"type":"object","required":["label"],"properties":{"label":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/$defs/Node"}}}}}}`; got != want {
		t.Errorf("recursive schema:\ngot  %s\nwant %s", got, want)
	}
	if !validates(t, tree, `{"label":"a","children":[{"label":"b","children":[{"label":"c"}]}]}`) {
		t.Errorf("a three-level tree does not validate")
	}
	if validates(t, tree, `{"label":"a","children":[{"children":[]}]}`) {
		t.Errorf("a nested node without its required label validates")
	}
	pair := mustTool(t, c, "makePair")
	p := props(t, pair)
	if got := compact(p["left"]); got != `{"$ref":"#/$defs/Leaf"}` {
		t.Errorf("a ref used twice should go to $defs; left = %s", got)
	}
	if got := compact(p["only"]); got != `{"properties":{"w":{"type":"boolean"}},"type":"object"}` {
		t.Errorf("a ref used once should be inlined; only = %s", got)
	}
	if strings.Contains(string(pair.InputSchema), `"Once"`) {
		t.Errorf("$defs holds a schema used once: %s", pair.InputSchema)
	}
}

func TestSiblingFileRefs(t *testing.T) {
	dir := t.TempDir()
	copyDir(t, filepath.Join("testdata", "refs"), filepath.Join(dir, "refs"))
	copyDir(t, filepath.Join("testdata", "outside"), filepath.Join(dir, "outside"))
	if err := os.Symlink(filepath.Join(dir, "outside", "secret.yaml"), filepath.Join(dir, "refs", "sub", "link.yaml")); err != nil {
		t.Skipf("cannot make a symlink here: %v", err)
	}
	c, err := Load(t.Context(), filepath.Join(dir, "refs", "main.yaml"), nil)
	if err != nil {
		t.Fatal(err)
	}
	tool := mustTool(t, c, "addPet")
	p := props(t, tool)
	if got, want := compact(p["pet"]), `{"properties":{"name":{"type":"string"},"tag":{"maxLength":20,"type":"string"}},"type":"object"}`; got != want {
		t.Errorf("pet from a sibling file: got %s, want %s", got, want)
	}
	if got := compact(p["X-Trace"]); got != `{"type":"string"}` {
		t.Errorf("parameter from a sibling file: got %s", got)
	}
	for _, name := range []string{"secret", "linked"} {
		if got := compact(p[name]); got != `{}` {
			t.Errorf("%s: a ref leaving the folder must give an open schema, got %s", name, got)
		}
		if strings.Contains(string(tool.InputSchema), "outside the description") {
			t.Errorf("%s: the content of a file outside the folder was read", name)
		}
	}
	if !hasWarning(c, "properties/secret/$ref", "outside the description's folder") {
		t.Errorf("no warning for the ../ escape: %v", c.Warnings)
	}
	if !hasWarning(c, "properties/linked/$ref", "links outside the description's folder") {
		t.Errorf("no warning for the symlink out: %v", c.Warnings)
	}
}

func TestParseRefusesFileRefs(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "refs", "main.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !hasWarning(c, "properties/pet/$ref", "not followed for a description given as bytes") {
		t.Errorf("no warning for a file ref in Parse: %v", c.Warnings)
	}
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestNotADescription(t *testing.T) {
	tests := []struct {
		name, text   string
		code         string
		line, column int
		msg          string
	}{
		{"empty", "", CodeNotDescription, 1, 1, "empty"},
		{"a list", "- a\n- b\n", CodeNotDescription, 1, 1, "top level is not an object"},
		{"no openapi key", "info:\n  title: x\npaths: {}\n", CodeNotDescription, 1, 1, "no openapi or swagger key"},
		{"bad version", "openapi: 4.0.0\npaths: {}\n", CodeNotDescription, 1, 10, "unsupported OpenAPI version"},
		{"swagger 1.2", "swagger: '1.2'\n", CodeNotDescription, 1, 10, "unsupported Swagger version"},
		{"paths not a map", "openapi: 3.0.0\ninfo: {title: x, version: '1'}\npaths:\n  - /a\n", CodeNotDescription, 4, 3, "paths is not an object"},
		{"not YAML", "openapi: 3.0.0\npaths: {\n  a: [\n", CodeSyntax, 3, 0, "not YAML or JSON"},
		{"not JSON", "{\"openapi\": \"3.0.0\",\n \"paths\": {]}", CodeSyntax, 1, 0, "not YAML or JSON"},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.text), nil)
		var le *LoadError
		if !errors.As(err, &le) {
			t.Errorf("%s: err = %v, want a *LoadError", tt.name, err)
			continue
		}
		if le.Code != tt.code || le.Line != tt.line || le.Column != tt.column || !strings.Contains(le.Message, tt.msg) {
			t.Errorf("%s: got %s line %d column %d %q; want %s line %d column %d containing %q",
				tt.name, le.Code, le.Line, le.Column, le.Message, tt.code, tt.line, tt.column, tt.msg)
		}
	}
}

func TestLoadErrorNamesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(path, []byte("just: text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(t.Context(), path, nil)
	if err == nil || !strings.HasPrefix(err.Error(), path+": line 1, column 1: ") {
		t.Errorf("err = %v, want it to start with %q", err, path+": line 1, column 1: ")
	}
	_, err = Load(t.Context(), filepath.Join(t.TempDir(), "missing.yaml"), nil)
	var le *LoadError
	if !errors.As(err, &le) || le.Code != CodeUnreadable || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: err = %v, want an unreadable *LoadError wrapping os.ErrNotExist", err)
	}
}

func TestBounds(t *testing.T) {
	deep := "openapi: 3.0.0\ninfo: {title: x, version: '1'}\npaths: {}\nx: " + strings.Repeat("[", 50) + strings.Repeat("]", 50) + "\n"
	_, err := Parse([]byte(deep), &Options{MaxDepth: 20})
	var le *LoadError
	if !errors.As(err, &le) || le.Code != CodeTooDeep || le.Line != 4 {
		t.Errorf("too deep: err = %v, want a too_deep *LoadError on line 4", err)
	}
	if _, err := Parse([]byte(deep), &Options{MaxDepth: 60}); err != nil {
		t.Errorf("within MaxDepth: %v", err)
	}

	big := "openapi: 3.0.0\ninfo: {title: x, version: '1'}\npaths: {}\n# " + strings.Repeat("x", 2000) + "\n"
	_, err = Parse([]byte(big), &Options{MaxBytes: 1000})
	if !errors.As(err, &le) || le.Code != CodeTooLarge {
		t.Errorf("too big (Parse): err = %v, want a too_large *LoadError", err)
	}
	path := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(path, []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Load(t.Context(), path, &Options{MaxBytes: 1000})
	if !errors.As(err, &le) || le.Code != CodeTooLarge {
		t.Errorf("too big (Load): err = %v, want a too_large *LoadError", err)
	}

	if _, err := Parse([]byte(big), &Options{MaxBytes: -1}); !errors.As(err, &le) || le.Code != CodeBadOptions {
		t.Errorf("negative MaxBytes: err = %v, want bad_options", err)
	}
}

func TestAliasBombIsBounded(t *testing.T) {
	// Each level doubles the size of the expanded schema: 2^30 nodes if followed naively.
	var b strings.Builder
	b.WriteString("openapi: 3.0.0\ninfo: {title: x, version: '1'}\nx:\n  a0: &a0 {type: string}\n")
	for i := 1; i <= 30; i++ {
		b.WriteString("  a" + itoa(i) + ": &a" + itoa(i) + " {type: object, properties: {l: *a" + itoa(i-1) + ", r: *a" + itoa(i-1) + "}}\n")
	}
	b.WriteString("paths:\n  /bomb:\n    post:\n      operationId: bomb\n      requestBody:\n        content:\n          application/json:\n            schema: *a30\n")
	c, err := Parse([]byte(b.String()), nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Len() != 0 || len(c.Skipped) != 1 || !strings.Contains(c.Skipped[0].Reason, "larger than") {
		t.Errorf("got %d tools and skipped %+v; want the operation skipped as too large", c.Len(), c.Skipped)
	}
	if reason, ok := c.Excluded("bomb"); !ok || !strings.Contains(reason, "larger than") {
		t.Errorf("Excluded(bomb) = %q, %v", reason, ok)
	}
}
