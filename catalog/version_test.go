package catalog

import (
	"strings"
	"testing"
)

const versionBase = `openapi: 3.0.3
info: {title: versions, version: "1"}
paths:
  /orders/{id}:
    patch:
      operationId: updateOrder
      summary: Change an order
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
        - {name: notify, in: query, schema: {type: boolean}}
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                quantity: {type: integer}
  /reports:
    get:
      operationId: getReport
      parameters:
        - {name: year, in: query, schema: {type: integer}}
`

func versions(t *testing.T, text string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, tool := range mustParse(t, text, nil).Tools() {
		out[tool.Name] = tool.Version
	}
	return out
}

func TestVersion(t *testing.T) {
	base := versions(t, versionBase)
	if again := versions(t, versionBase); again["updateOrder"] != base["updateOrder"] || again["getReport"] != base["getReport"] {
		t.Fatalf("versions differ across loads: %v, %v", base, again)
	}
	if len(base["updateOrder"]) != 12 {
		t.Errorf("version %q, want 12 hex characters", base["updateOrder"])
	}
	tests := []struct {
		name        string
		old, new    string
		wantChanged bool
	}{
		{"a parameter's type", "{name: notify, in: query, schema: {type: boolean}}", "{name: notify, in: query, schema: {type: string}}", true},
		{"a new parameter", "{name: notify, in: query, schema: {type: boolean}}", "{name: notify, in: query, schema: {type: boolean}}\n        - {name: dry, in: query, schema: {type: boolean}}", true},
		{"a body property", "quantity: {type: integer}", "quantity: {type: integer, minimum: 1}", true},
		{"the binding only (style)", "{name: notify, in: query, schema: {type: boolean}}", "{name: notify, in: query, style: form, explode: false, schema: {type: boolean}}", true},
		{"the binding only (location)", "{name: notify, in: query, schema: {type: boolean}}", "{name: notify, in: header, schema: {type: boolean}}", true},
		{"the summary only", "summary: Change an order", "summary: Change one order", false},
		{"another operation only", "{name: year, in: query, schema: {type: integer}}", "{name: year, in: query, schema: {type: string}}", false},
	}
	for _, tt := range tests {
		text := strings.Replace(versionBase, tt.old, tt.new, 1)
		if text == versionBase {
			t.Fatalf("%s: the edit did not apply", tt.name)
		}
		got := versions(t, text)
		if changed := got["updateOrder"] != base["updateOrder"]; changed != tt.wantChanged {
			t.Errorf("%s: updateOrder version changed = %v, want %v", tt.name, changed, tt.wantChanged)
		}
	}
}
