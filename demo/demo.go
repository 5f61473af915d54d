// Package demo is the orders API bundled with sezzlee: the embedded default
// that `sezzlee demo` serves, and the backend the end-to-end tests and the
// example agent client run against.
package demo

import _ "embed"

// Description is the demo API's OpenAPI 3.1 description.
//
//go:embed openapi.yaml
var Description []byte

// Deferred names the arguments the host supplies from the authenticated
// caller rather than the agent.
var Deferred = []string{"owner"}
