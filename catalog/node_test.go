package catalog

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestFixSurrogates(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a": "Hello! \ud83d\udc4d"}`, "Hello! \U0001F44D"},
		{`{"a": "lone \ud83d end"}`, "lone \uFFFD end"},
		{`{"a": "low first \udc4d"}`, "low first \uFFFD"},
		{`{"a": "escaped \\ud83d stays"}`, `escaped \ud83d stays`},
		{`{"a": "plain \u00e9"}`, "plain é"},
	}
	for _, tt := range tests {
		var v struct{ A string }
		if err := yaml.Unmarshal(fixSurrogates([]byte(tt.in)), &v); err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		if v.A != tt.want {
			t.Errorf("%s: got %q, want %q", tt.in, v.A, tt.want)
		}
	}
	yamlText := "a: \"\\ud83d\"\n" // YAML is left alone: only JSON is rewritten
	if got := string(fixSurrogates([]byte(yamlText))); got != yamlText {
		t.Errorf("YAML input was rewritten: %q", got)
	}
}

func TestScalarValue(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"v: 10", `10`},
		{"v: 0x1F", `31`},
		{"v: 1_000", `1000`},
		{"v: 1.5e3", `1.5e3`},
		{"v: .inf", `".inf"`},
		{"v: 12345678901234567890123", `12345678901234567890123`},
		{"v: true", `true`},
		{"v: ~", `null`},
		{"v: 2020-01-01", `"2020-01-01"`},
		{"v: '10'", `"10"`},
	}
	for _, tt := range tests {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(tt.yaml), &n); err != nil {
			t.Fatal(err)
		}
		v := get(n.Content[0], "v")
		if got := string(appendJSON(nil, scalarValue(v))); got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.yaml, got, tt.want)
		}
	}
}

func TestIsJSONNumber(t *testing.T) {
	for s, want := range map[string]bool{
		"0": true, "-1": true, "10.5": true, "1e9": true, "1.5E-3": true, "-0.0": true,
		"": false, "-": false, "01": false, "1.": false, ".5": false, "1e": false, "+1": false, "0x1F": false, "1_000": false,
	} {
		if got := isJSONNumber(s); got != want {
			t.Errorf("isJSONNumber(%q) = %v, want %v", s, got, want)
		}
	}
}
