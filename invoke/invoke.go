// Package invoke checks an agent's arguments against a tool, composes the
// HTTP request as a dry run (no I/O), dispatches it to a Backend and maps the
// answer to an envelope.
//
// invoke knows nothing of MCP: the same Invoker serves the MCP gateway, an
// embedded server dispatching in-process and a hosted runtime.
package invoke

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/sezzlee/sezzlee/catalog"
	"github.com/sezzlee/sezzlee/envelope"
)

// Call is one invoke_tool request.
type Call struct {
	// Tool is the tool's name.
	Tool string
	// Arguments is the agent's JSON object of arguments; empty means {}.
	Arguments json.RawMessage
	// Version, when set, pins the version the agent loaded; a different
	// version in the catalog answers tool_changed.
	Version string
}

// Backend sends a composed request and returns the response.
// Implementations must not follow redirects.
type Backend interface {
	Do(ctx context.Context, req *http.Request) (*http.Response, error)
}

// Invoker composes and dispatches calls. It holds no catalog: each call
// names the catalog it runs against, so a reload swaps catalogs without
// touching the Invoker. An Invoker is safe for concurrent use.
type Invoker struct {
	opts Options
}

// Invoke runs one call against cat and returns its envelope. It never
// returns nil and never panics on any input.
func (inv *Invoker) Invoke(ctx context.Context, cat *catalog.Catalog, call Call) *envelope.Envelope {
	return envelope.Reject(envelope.InternalError, "not implemented", nil)
}
