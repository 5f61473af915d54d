package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Caller calls one MCP tool. *mcp.ClientSession satisfies it.
type Caller interface {
	CallTool(ctx context.Context, params *mcp.CallToolParams) (*mcp.CallToolResult, error)
}

var _ Caller = (*mcp.ClientSession)(nil)

// The meta-tools a sezzlee server offers.
const (
	SearchTools = "search_tools"
	LoadTool    = "load_tool"
	InvokeTool  = "invoke_tool"
)

// Client calls sezzlee's three meta-tools and decodes their results. It
// holds no state of its own and is safe for concurrent use when its Caller is.
type Client struct {
	caller Caller
}

// NewClient returns a Client that calls the meta-tools through c.
func NewClient(c Caller) *Client { return &Client{caller: c} }

// Result is one meta-tool result as it came off the wire.
type Result struct {
	// Text is the JSON text of the single text content block.
	Text string
	// IsError is the result's isError flag.
	IsError bool
}

// ErrNoText is returned when a meta-tool result does not hold exactly one
// text content block.
var ErrNoText = errors.New("agent: result does not hold one text content block")

// Call calls a meta-tool and returns its text. The error is a transport or
// protocol failure, or ErrNoText; a tool failure is a Result with IsError.
func (c *Client) Call(ctx context.Context, tool string, args any) (*Result, error) {
	res, err := c.caller.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return nil, fmt.Errorf("agent: %s: %w", tool, err)
	}
	if len(res.Content) != 1 {
		return nil, fmt.Errorf("%w (%s: %d blocks)", ErrNoText, tool, len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		return nil, fmt.Errorf("%w (%s: %T)", ErrNoText, tool, res.Content[0])
	}
	return &Result{Text: tc.Text, IsError: res.IsError}, nil
}

// Hit is one search_tools hit: a tool to load, how it is reached and how
// well it matched (higher is better; scores compare within one answer only).
type Hit struct {
	Name    string  `json:"name"`
	Method  string  `json:"method"`
	Path    string  `json:"path"`
	Summary string  `json:"summary,omitempty"`
	Score   float64 `json:"score"`
}

// Tool is what load_tool returns.
type Tool struct {
	// Name is what invoke_tool's name takes.
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Method and Path say which HTTP operation the tool calls; a {name} in
	// Path is a path parameter.
	Method string   `json:"method,omitempty"`
	Path   string   `json:"path,omitempty"`
	Tags   []string `json:"tags,omitempty"`
	// InputSchema is the JSON Schema the arguments must follow.
	InputSchema json.RawMessage `json:"inputSchema"`
	// Version is what invoke_tool's version takes to pin this definition.
	Version string `json:"version,omitempty"`
	// Annotations are behaviour hints (read-only, idempotent, ...).
	Annotations json.RawMessage `json:"annotations,omitempty"`
}

// Schema parses the tool's input schema.
func (t *Tool) Schema() (*Schema, error) { return ParseSchema(t.InputSchema) }

// ToolError is a search_tools or load_tool call that answered with an error
// envelope.
type ToolError struct {
	Envelope *Envelope
}

// Error returns the code and the message.
func (e *ToolError) Error() string {
	return "agent: " + e.Envelope.Code + ": " + e.Envelope.Message
}

// Search calls search_tools. limit 0 leaves the server's default.
func (c *Client) Search(ctx context.Context, query string, limit int) ([]Hit, error) {
	args := map[string]any{"query": query}
	if limit > 0 {
		args["limit"] = limit
	}
	var out struct {
		Hits []Hit `json:"hits"`
	}
	if err := c.decode(ctx, SearchTools, args, &out); err != nil {
		return nil, err
	}
	return out.Hits, nil
}

// Load calls load_tool.
func (c *Client) Load(ctx context.Context, name string) (*Tool, error) {
	var t Tool
	if err := c.decode(ctx, LoadTool, map[string]any{"name": name}, &t); err != nil {
		return nil, err
	}
	if len(t.InputSchema) == 0 {
		return nil, fmt.Errorf("agent: load_tool %s: no inputSchema", name)
	}
	return &t, nil
}

func (c *Client) decode(ctx context.Context, tool string, args, out any) error {
	r, err := c.Call(ctx, tool, args)
	if err != nil {
		return err
	}
	if r.IsError {
		e, err := Parse([]byte(r.Text))
		if err != nil {
			return fmt.Errorf("agent: %s: %w", tool, err)
		}
		e.IsError = true
		return &ToolError{Envelope: e}
	}
	if err := json.Unmarshal([]byte(r.Text), out); err != nil {
		return fmt.Errorf("agent: %s: %w", tool, err)
	}
	return nil
}

// Invocation is one invoke_tool request.
type Invocation struct {
	// Name is the tool's name.
	Name string `json:"name"`
	// Arguments are the tool's arguments; nil sends none.
	Arguments map[string]any `json:"arguments,omitempty"`
	// Version pins the version load_tool returned; empty does not pin.
	Version string `json:"version,omitempty"`
}

// Invoke calls invoke_tool and returns its envelope, error envelopes
// included. The error is reserved for failures to get an envelope at all.
func (c *Client) Invoke(ctx context.Context, in Invocation) (*Envelope, error) {
	r, err := c.Call(ctx, InvokeTool, in)
	if err != nil {
		return nil, err
	}
	e, err := Parse([]byte(r.Text))
	if err != nil {
		return nil, fmt.Errorf("agent: invoke_tool %s: %w", in.Name, err)
	}
	e.IsError = r.IsError
	return e, nil
}

// RetryPolicy replays a call while its envelope says retryable, waiting what
// the envelope asks within a bound. The zero value is usable.
type RetryPolicy struct {
	// MaxAttempts is the most calls made, the first included. Zero means 3.
	MaxAttempts int
	// MaxWait bounds each wait. Zero means DefaultMaxWait.
	MaxWait time.Duration
	// Backoff is the wait when a retryable envelope names none. Zero means
	// one second.
	Backoff time.Duration
	// Sleep waits d or until ctx ends. Nil means a real timer.
	Sleep func(ctx context.Context, d time.Duration) error
}

// Do calls call until it returns an envelope that is not retryable or the
// attempts run out, and returns the last envelope and the number of calls
// made. An envelope with retryable false is never replayed: the identical
// request would fail identically.
func (p *RetryPolicy) Do(ctx context.Context, call func(context.Context) (*Envelope, error)) (*Envelope, int, error) {
	attempts := p.MaxAttempts
	if attempts <= 0 {
		attempts = 3
	}
	backoff := p.Backoff
	if backoff <= 0 {
		backoff = time.Second
	}
	sleep := p.Sleep
	if sleep == nil {
		sleep = Sleep
	}
	for n := 1; ; n++ {
		e, err := call(ctx)
		if err != nil {
			return nil, n, err
		}
		d, retry := e.RetryAfter(backoff, p.MaxWait)
		if !retry || n >= attempts {
			return e, n, nil
		}
		if err := sleep(ctx, d); err != nil {
			return e, n, err
		}
	}
}

// Sleep waits d or until ctx ends, whichever comes first.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
