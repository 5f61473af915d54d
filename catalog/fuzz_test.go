package catalog

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// FuzzParse feeds arbitrary bytes to Parse: it must never panic, must
// answer quickly on small inputs, and whatever it builds must be valid:
// names matching the pattern and input schemas that compile.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.*"))
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"swagger":"2.0","paths":{"/a/{b}":{"post":{"parameters":[{"in":"body","name":"x","schema":{"type":["string","null"]}},{"in":"formData","name":"f","type":"file"}]}}}}`))
	f.Add([]byte("openapi: 3.1.0\npaths:\n  /a:\n    get:\n      parameters:\n        - $ref: '#/paths/~1a/get/parameters/0'\n"))
	f.Add([]byte("openapi: 3.0.0\ncomponents: {schemas: {A: {$ref: '#/components/schemas/A'}}}\npaths: {/a: {post: {requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/A'}}}}}}}\n"))
	f.Add([]byte("openapi: 3.1.0\npaths: {/x: {get: {parameters: [{name: q, in: query, schema: {$recursiveRef: '#'}}]}}}\n"))
	f.Add([]byte("openapi: 3.0.0\ncomponents: {schemas: {Arr: {type: array, items: {$ref: '#/components/schemas/Arr'}}}}\npaths: {/u: {post: {requestBody: {content: {multipart/form-data: {schema: {type: object, properties: {t: {$ref: '#/components/schemas/Arr'}}}}}}}}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 64<<10 {
			return
		}
		start := time.Now()
		c, err := Parse(data, &Options{MaxBytes: 64 << 10})
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("Parse took %v on %d bytes", d, len(data))
		}
		if err != nil {
			le, ok := err.(*LoadError)
			if !ok || le.Code == CodeInternal {
				t.Fatalf("error %T %v: want a *LoadError that is not internal", err, err)
			}
			return
		}
		for _, tool := range c.Tools() {
			if !namePattern.MatchString(tool.Name) {
				t.Errorf("name %q", tool.Name)
			}
			if !json.Valid(tool.InputSchema) {
				t.Fatalf("%s: input schema is not JSON: %s", tool.Name, tool.InputSchema)
			}
			compileSchema(t, tool.Name, tool.InputSchema)
		}
	})
}
