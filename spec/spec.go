// Package spec holds sezzlee's normative documents, embedded so that code
// and tests read the very bytes that are published:
//
//   - error-mapping.md: every error code, backend and SDK-side, with when it
//     happens, its status mapping, its retryability and what an agent should
//     do about it.
//   - invoke-result.schema.json: the JSON Schema (2020-12) of every envelope
//     invoke_tool returns, and of search_tools' error envelope.
//
// The envelope package validates against the schema and its tests keep the
// code registry, the table and the schema in step.
package spec

import "embed"

// Names of the embedded documents in FS.
const (
	ErrorMappingFile       = "error-mapping.md"
	InvokeResultSchemaFile = "invoke-result.schema.json"
)

// FS holds the normative documents, read-only.
//
//go:embed error-mapping.md invoke-result.schema.json
var FS embed.FS

// ErrorMapping returns the text of error-mapping.md.
func ErrorMapping() []byte { return read(ErrorMappingFile) }

// InvokeResultSchema returns the text of invoke-result.schema.json.
func InvokeResultSchema() []byte { return read(InvokeResultSchemaFile) }

// read reads an embedded file. The go:embed directive fails the build
// when a file is missing, so the error cannot happen at run time.
func read(name string) []byte {
	b, _ := FS.ReadFile(name)
	return b
}
