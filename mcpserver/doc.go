// Package mcpserver serves a catalog's tools to an MCP client as three
// meta-tools: search_tools ranks the tools for a task, load_tool returns one
// tool's definition, and invoke_tool calls it through an invoke.Invoker.
//
// A Server holds one or more sources, each a catalog with its own invoker
// (in-process or remote backend) and a prefix for its tool names. Sources
// live in an immutable snapshot behind an atomic pointer: Reload builds the
// next snapshot, search index included, off the hot path and swaps it in, so
// calls in flight finish against the snapshot they started with.
//
// The Server speaks MCP through the official go-sdk over stdio (ServeStdio)
// and streamable HTTP (Handler). The HTTP handler applies the transport
// rules of the MCP specification: a browser Origin that is not allowed is
// refused with 403, the Host of a loopback request must be a loopback name,
// request bodies are bounded, and a bearer token is verified when a
// Verifier is configured. The authenticated Caller, together with every
// value of the inbound request's context, reaches the invoker's hooks
// through the context of each call; the caller's token is never forwarded.
// Inside those checks, a plain tools/call of a meta-tool on a live session
// skips the SDK's request machinery, which costs several times the call's
// own work, and is answered with the bytes the SDK would have written;
// every other request, and anything the fast path is not sure of, goes to
// the SDK (Options.DisableFastPath turns it off).
//
// Every meta-tool result is one text content block holding JSON; an error
// envelope sets isError, a success leaves it out. Each call is logged with
// its tool, version, outcome, status, duration and reference, never with
// argument values.
package mcpserver
