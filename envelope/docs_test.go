package envelope

import (
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// docPages are the docs pages whose JSON examples are envelopes.
var docPages = []string{"../docs/envelope.md", "../docs/validation-errors.md", "../docs/large-responses.md"}

// exampleMark, on the line before a ```json block, names the fixture whose
// mapped envelope the block must equal.
var exampleMark = regexp.MustCompile(`^<!-- example: (\S+) -->$`)

type docExample struct {
	page, fixture, json string
	line                int
}

func readDocExamples(t *testing.T, page string) []docExample {
	t.Helper()
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var out []docExample
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```json" {
			continue
		}
		ex := docExample{page: page, line: i + 1}
		if i > 0 {
			if m := exampleMark.FindStringSubmatch(strings.TrimSpace(lines[i-1])); m != nil {
				ex.fixture = m[1]
			}
		}
		var body []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			body = append(body, lines[i])
		}
		ex.json = strings.Join(body, "\n")
		out = append(out, ex)
	}
	return out
}

func TestDocsExamples(t *testing.T) {
	for _, page := range docPages {
		examples := readDocExamples(t, page)
		if len(examples) == 0 {
			t.Errorf("%s has no JSON examples", page)
		}
		for _, ex := range examples {
			if err := Validate([]byte(ex.json)); err != nil {
				t.Errorf("%s:%d: example does not validate: %v", ex.page, ex.line, err)
				continue
			}
			if ex.fixture == "" {
				continue
			}
			var got, want any
			json.Unmarshal([]byte(ex.json), &got)
			mapped := golden(t, "testdata/"+strings.TrimPrefix(ex.fixture, "testdata/"))
			json.Unmarshal(encode(t, mapped), &want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s:%d: example differs from what %s maps to:\n%s", ex.page, ex.line, ex.fixture, encode(t, mapped))
			}
		}
	}
}
