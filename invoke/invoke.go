// Package invoke checks an agent's arguments against a tool, composes the
// HTTP request as a dry run (no I/O), dispatches it to a Backend and maps the
// answer to an envelope.
//
// invoke knows nothing of MCP: the same Invoker serves the MCP gateway, an
// embedded server dispatching in-process and a hosted runtime.
//
// Composition judges only what it needs to build a request: argument names,
// path parameters, JSON types and nulls, header and cookie safety, deferred
// values and files. Every violation is reported at once, in the envelope's
// fields. Value rules (ranges, lengths, patterns, required body properties)
// are left to the backend, which stays the authority on them.
//
// Requests are built from a clean slate: nothing of the agent's own request
// to sezzlee (its headers, its token) is copied, and credentials come only
// from the host's Credentials hook. Secrets never reach an envelope or a log.
package invoke

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

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
//
// A composed request's URL holds only the operation's path and query; the
// backend places it under its base URL (see Remote) or serves it as is
// (see Handler).
type Backend interface {
	Do(ctx context.Context, req *http.Request) (*http.Response, error)
}

// BackendFunc adapts a function to a Backend.
type BackendFunc func(ctx context.Context, req *http.Request) (*http.Response, error)

// Do calls f.
func (f BackendFunc) Do(ctx context.Context, req *http.Request) (*http.Response, error) {
	return f(ctx, req)
}

var _ Backend = BackendFunc(nil)

// Invoker composes and dispatches calls. It holds no catalog: each call
// names the catalog it runs against, so a reload swaps catalogs without
// touching the Invoker. An Invoker is safe for concurrent use.
type Invoker struct {
	opts  Options
	plans planCache
	idem  *idemStore
	now   func() time.Time
}

// composed is a request ready to send, with what dispatch needs to know.
type composed struct {
	req  *http.Request
	tool *catalog.Tool
	plan *plan
	args map[string]any // the agent's decoded arguments
}

// Invoke runs one call against cat and returns its envelope. It never
// returns nil and never panics on any input.
func (inv *Invoker) Invoke(ctx context.Context, cat *catalog.Catalog, call Call) (env *envelope.Envelope) {
	start := inv.now()
	defer func() {
		if r := recover(); r != nil {
			env = inv.internal(call.Tool, fmt.Errorf("panic: %v", r))
		}
	}()
	ctx, cancel := context.WithTimeout(ctx, inv.opts.Timeout)
	defer cancel()
	c, env := inv.compose(ctx, cat, call)
	if env != nil {
		inv.opts.Logger.Debug("invoke: refused", "tool", call.Tool, "error", string(env.Error))
		return env
	}
	env = inv.dispatch(ctx, c)
	inv.opts.Logger.Debug("invoke: done", "tool", call.Tool, "method", c.req.Method,
		"status", env.Status, "error", string(env.Error), "duration", inv.now().Sub(start))
	return env
}

// Compose runs the dry run alone: it checks the call and returns the request
// Invoke would send, or the error envelope it would answer. Nothing is sent;
// only file references are read, through Options.Files. The request's URL
// holds the path and query only (see Backend).
func (inv *Invoker) Compose(ctx context.Context, cat *catalog.Catalog, call Call) (req *http.Request, env *envelope.Envelope) {
	defer func() {
		if r := recover(); r != nil {
			req, env = nil, inv.internal(call.Tool, fmt.Errorf("panic: %v", r))
		}
	}()
	c, env := inv.compose(ctx, cat, call)
	if env != nil {
		return nil, env
	}
	return c.req, nil
}

// excluder is the part of *catalog.Catalog that lists filtered-out tools.
type excluder interface {
	Excluded(name string) (reason string, ok bool)
}

func (inv *Invoker) compose(ctx context.Context, cat *catalog.Catalog, call Call) (*composed, *envelope.Envelope) {
	if cat == nil {
		return nil, envelope.Reject(envelope.UnknownTool, "No tools are loaded. Use search_tools to find a tool.", nil)
	}
	t, ok := cat.Tool(call.Tool)
	if !ok {
		if ex, ok := any(cat).(excluder); ok {
			if reason, ok := ex.Excluded(call.Tool); ok {
				return nil, envelope.Reject(envelope.NotInvocable,
					fmt.Sprintf("The tool '%s' cannot be called on this server: %s.", call.Tool, reason), nil)
			}
		}
		return nil, envelope.Reject(envelope.UnknownTool,
			fmt.Sprintf("No tool named '%s'. Use search_tools to find the exact name.", call.Tool), nil)
	}
	if t.NotInvocable != "" {
		return nil, envelope.Reject(envelope.NotInvocable,
			fmt.Sprintf("The tool '%s' cannot be called: %s.", t.Name, t.NotInvocable), nil)
	}
	if call.Version != "" && call.Version != t.Version {
		return nil, envelope.Reject(envelope.ToolChanged,
			fmt.Sprintf("The tool '%s' changed after it was loaded, so the call was not sent. Load it again with load_tool and retry with the new version.", t.Name), nil)
	}
	p := inv.planFor(t)
	args, env := decodeArguments(call.Arguments)
	if env != nil {
		return nil, env
	}
	b := builder{inv: inv, ctx: ctx, tool: t, cat: cat, plan: p, args: args}
	req := b.build()
	if len(b.violations) > 0 {
		return nil, b.envelope()
	}
	if b.hostFault != nil {
		return nil, inv.internal(t.Name, b.hostFault)
	}
	return &composed{req: req, tool: t, plan: p, args: args}, nil
}

func (inv *Invoker) internal(tool string, cause error) *envelope.Envelope {
	ref := newReference()
	inv.opts.Logger.Error("invoke: internal error", "tool", tool, "reference", ref, "cause", cause.Error())
	e := envelope.Reject(envelope.InternalError, "sezzlee failed while handling this call. Quote the reference when reporting it.", nil)
	e.Reference = ref
	return e
}
