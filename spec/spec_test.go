package spec_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sezzlee/sezzlee/envelope"
	"github.com/sezzlee/sezzlee/spec"
)

func TestEmbedded(t *testing.T) {
	var schema map[string]any
	if err := json.Unmarshal(spec.InvokeResultSchema(), &schema); err != nil {
		t.Fatalf("the schema is not JSON: %v", err)
	}
	if got := schema["$schema"]; got != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %v; want JSON Schema 2020-12", got)
	}
	doc := string(spec.ErrorMapping())
	for _, c := range envelope.Codes() {
		if !strings.Contains(doc, "`"+string(c.Code)+"`") {
			t.Errorf("error-mapping.md does not mention %s", c.Code)
		}
	}
	if !strings.Contains(doc, "arrives without\n  `status`") {
		t.Error("error-mapping.md must state that every SDK-side code arrives without status")
	}
}
