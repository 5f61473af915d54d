package mcpserver

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/sezzlee/sezzlee/catalog"
	"github.com/sezzlee/sezzlee/envelope"
	"github.com/sezzlee/sezzlee/invoke"
	"github.com/sezzlee/sezzlee/search"
)

// The meta-tools' names.
const (
	SearchTool = "search_tools"
	LoadTool   = "load_tool"
	InvokeTool = "invoke_tool"
)

// instructions is sent to the client at initialisation: the loop in brief.
const instructions = "This server exposes an HTTP API as tools you reach in three steps: " +
	"search_tools to find a tool for your task, load_tool to read its input schema, " +
	"invoke_tool to call it with arguments that follow that schema."

const searchDescription = `Find the API operations that fit a task. Describe the task in plain words in query; optionally narrow by tag and cap the number of hits with limit (default 5, at most 20).
Each hit names a tool. Next, call load_tool with the name you pick to read its input schema before invoking it; when the result also carries tool, that is the first hit's full definition, and you may invoke it directly.`

const loadDescription = `Read one tool's definition: what it does, its HTTP method and path, its JSON input schema and its version.
Build invoke_tool's arguments from inputSchema exactly (names, types, required fields), and pass version along so a changed tool is detected.`

const invokeDescription = `Call a tool with a JSON object of arguments that follows the inputSchema from load_tool; pass the version load_tool gave you.
The result is JSON. On success it has status and body. On failure it has error, message and retryable:
- retryable true: the same call may succeed later; wait retryAfterSeconds when present.
- retryable false: change something first. fields lists each argument to repair, one entry per broken rule.
- a result without status was refused by sezzlee before reaching the API: re-read the schema with load_tool (after tool_changed, reload it) and fix the arguments.`

var (
	searchSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "query": {"type": "string", "minLength": 1, "description": "The task, in plain words."},
    "limit": {"type": "integer", "minimum": 1, "maximum": 20, "description": "How many hits to return; 5 when absent."},
    "tag": {"type": "string", "description": "Only tools with this tag."}
  },
  "required": ["query"],
  "additionalProperties": false
}`)
	loadSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "description": "A tool name from search_tools."}
  },
  "required": ["name"],
  "additionalProperties": false
}`)
	invokeSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "description": "The tool to call."},
    "arguments": {"type": "object", "description": "The tool's arguments, following its inputSchema."},
    "version": {"type": "string", "description": "The version load_tool returned; a changed tool then answers tool_changed."}
  },
  "required": ["name"],
  "additionalProperties": false
}`)
)

// metaTool is a meta-tool's implementation, reached by the SDK through
// handle and by the fast path directly.
type metaTool struct {
	name string
	f    func(ctx context.Context, args json.RawMessage) outcome
}

func (s *Server) addTools() {
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true}
	s.metaTools = map[string]*metaTool{
		SearchTool: {SearchTool, s.searchTools},
		LoadTool:   {LoadTool, s.loadTool},
		InvokeTool: {InvokeTool, s.invokeTool},
	}
	s.mcp.AddTool(&mcp.Tool{Name: SearchTool, Description: searchDescription, InputSchema: searchSchema, Annotations: ro}, s.handle(SearchTool, s.searchTools))
	s.mcp.AddTool(&mcp.Tool{Name: LoadTool, Description: loadDescription, InputSchema: loadSchema, Annotations: ro}, s.handle(LoadTool, s.loadTool))
	s.mcp.AddTool(&mcp.Tool{Name: InvokeTool, Description: invokeDescription, InputSchema: invokeSchema}, s.handle(InvokeTool, s.invokeTool))
}

// outcome is what a meta-tool produced: a JSON result or an error envelope,
// plus what the log record needs.
type outcome struct {
	result  any
	env     *envelope.Envelope
	tool    string
	version string
}

// handle adapts a meta-tool to the SDK: it gives the call its context and
// runs it.
func (s *Server) handle(meta string, f func(ctx context.Context, args json.RawMessage) outcome) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ctx = s.callContext(ctx, req.Extra)
		var raw json.RawMessage
		if req.Params != nil {
			raw = req.Params.Arguments
		}
		return s.run(ctx, meta, f, raw), nil
	}
}

// run calls a meta-tool and turns the outcome into one text block.
func (s *Server) run(ctx context.Context, meta string, f func(ctx context.Context, args json.RawMessage) outcome, raw json.RawMessage) *mcp.CallToolResult {
	return result(s.outcome(ctx, meta, f, raw))
}

// outcome calls a meta-tool, recovering from a panic, and logs the call.
// The SDK's handler (through run) and the fast path both call it.
func (s *Server) outcome(ctx context.Context, meta string, f func(ctx context.Context, args json.RawMessage) outcome, raw json.RawMessage) (out outcome) {
	start := time.Now()
	func() {
		defer func() {
			if p := recover(); p != nil {
				ref := newReference()
				s.log.Error("panic in meta-tool", "meta", meta, "reference", ref, "panic", fmt.Sprint(p))
				e := envelope.Retry(envelope.InternalError, "sezzlee failed while handling this call; quote the reference if it persists.", false)
				e.Reference = ref
				out = outcome{env: e}
			}
		}()
		out = f(ctx, raw)
	}()
	s.logCall(ctx, meta, out, time.Since(start))
	return out
}

func result(out outcome) *mcp.CallToolResult {
	data, isError := encodeOutcome(out)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(data)}}, IsError: isError}
}

// encodeOutcome is the JSON text of a meta-tool's result block, and
// whether the block is an error.
func encodeOutcome(out outcome) (data []byte, isError bool) {
	var v any = out.result
	if out.env != nil {
		v = out.env
	}
	data, err := json.Marshal(v)
	if err != nil {
		data, _ = json.Marshal(envelope.Retry(envelope.InternalError, "sezzlee could not encode the result.", false))
		return data, true
	}
	return data, out.env != nil && out.env.IsError()
}

func (s *Server) logCall(ctx context.Context, meta string, out outcome, d time.Duration) {
	attrs := []slog.Attr{slog.String("meta", meta), slog.Duration("duration", d)}
	if out.tool != "" {
		attrs = append(attrs, slog.String("tool", out.tool))
	}
	if out.version != "" {
		attrs = append(attrs, slog.String("version", out.version))
	}
	level := slog.LevelInfo
	code := "ok"
	if e := out.env; e != nil {
		if e.IsError() {
			code = string(e.Error)
			if e.Error == envelope.InternalError {
				level = slog.LevelError
			}
		}
		if e.Status != 0 {
			attrs = append(attrs, slog.Int("status", e.Status))
		}
		if e.Reference != "" {
			attrs = append(attrs, slog.String("reference", e.Reference))
		}
	}
	attrs = append(attrs, slog.String("outcome", code))
	if c, ok := CallerFromContext(ctx); ok {
		attrs = append(attrs, slog.String("caller", c.Subject))
	}
	s.log.LogAttrs(ctx, level, "call", attrs...)
}

// decodeArgs decodes a meta-tool's arguments with exact keys. A failure is
// an SDK-side envelope naming each offending field.
func decodeArgs(meta string, raw json.RawMessage, v any, keys string) *envelope.Envelope {
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		raw = json.RawMessage("{}")
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(raw, &probe); err != nil {
		return envelope.Reject(envelope.InvalidType, meta+" takes a JSON object of arguments.", nil)
	}
	var unknown []envelope.Field
	allowed := strings.Split(keys, ",")
	for k := range probe {
		if !contains(allowed, k) {
			name := truncate(k, 64)
			if name == "" {
				name = `""`
			}
			unknown = append(unknown, envelope.Field{Name: name, Message: fmt.Sprintf("%s takes only %s.", meta, strings.Join(allowed, ", "))})
		}
	}
	if len(unknown) > 0 {
		sort.Slice(unknown, func(i, j int) bool { return unknown[i].Name < unknown[j].Name })
		return envelope.Reject(envelope.UnknownArgument, "Remove the arguments "+meta+" does not take.", unknown)
	}
	// Every key is one of v's fields, spelled exactly: a plain Unmarshal
	// (no decoder, no unknown-field check) can only fail on a type.
	if err := json.Unmarshal(raw, v); err != nil {
		field := "arguments"
		if te, ok := err.(*json.UnmarshalTypeError); ok && te.Field != "" {
			field = te.Field
		}
		return envelope.Reject(envelope.InvalidType, "An argument of "+meta+" has the wrong type; follow its input schema.",
			[]envelope.Field{{Name: field, Message: "has the wrong JSON type"}})
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func missing(meta, name string) *envelope.Envelope {
	return envelope.Reject(envelope.InvalidType, meta+" needs "+name+".",
		[]envelope.Field{{Name: name, Message: "is required and must not be empty"}})
}

func (s *Server) searchTools(ctx context.Context, raw json.RawMessage) outcome {
	var args struct {
		Query string `json:"query"`
		Limit int    `json:"limit"`
		Tag   string `json:"tag"`
	}
	if e := decodeArgs(SearchTool, raw, &args, "query,limit,tag"); e != nil {
		return outcome{env: e}
	}
	if strings.TrimSpace(args.Query) == "" {
		return outcome{env: missing(SearchTool, "query")}
	}
	limit := args.Limit
	if limit <= 0 {
		limit = search.DefaultLimit
	}
	limit = min(limit, search.MaxLimit)
	snap := s.snap.Load()
	q := search.Query{Text: args.Query, Limit: limit, Tag: args.Tag}
	results := make([]*search.Result, 0, len(snap.sources))
	for _, src := range snap.sources {
		r, e := src.searcher.Search(ctx, q)
		if e != nil {
			return outcome{env: e}
		}
		if r == nil {
			continue
		}
		hits := make([]search.Hit, len(r.Hits))
		for i, h := range r.Hits {
			h.Name = src.Prefix + h.Name
			hits[i] = h
		}
		pr := &search.Result{Hits: hits}
		if r.Tool != nil {
			d := *r.Tool
			d.Name = src.Prefix + d.Name
			pr.Tool = &d
		}
		results = append(results, pr)
	}
	res := mergeResults(results, limit)
	if res.Hits == nil {
		res.Hits = []search.Hit{}
	}
	return outcome{result: res}
}

func unknownTool(name string) *envelope.Envelope {
	return envelope.Reject(envelope.UnknownTool,
		fmt.Sprintf("No tool is named %q. Call search_tools to find the right name.", truncate(name, 80)), nil)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func (s *Server) loadTool(_ context.Context, raw json.RawMessage) outcome {
	var args struct {
		Name string `json:"name"`
	}
	if e := decodeArgs(LoadTool, raw, &args, "name"); e != nil {
		return outcome{env: e}
	}
	if args.Name == "" {
		return outcome{env: missing(LoadTool, "name")}
	}
	ref, ok := s.snap.Load().byName[args.Name]
	if !ok {
		return outcome{env: unknownTool(args.Name), tool: truncate(args.Name, 80)}
	}
	def := definitionFor(args.Name, ref.tool)
	return outcome{result: def, tool: args.Name, version: def.Version}
}

func (s *Server) invokeTool(ctx context.Context, raw json.RawMessage) outcome {
	var args struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		Version   string          `json:"version"`
	}
	if e := decodeArgs(InvokeTool, raw, &args, "name,arguments,version"); e != nil {
		return outcome{env: e}
	}
	if args.Name == "" {
		return outcome{env: missing(InvokeTool, "name")}
	}
	if a := bytes.TrimSpace(args.Arguments); len(a) > 0 && a[0] != '{' && !bytes.Equal(a, []byte("null")) {
		return outcome{env: envelope.Reject(envelope.InvalidType, "arguments must be a JSON object.",
			[]envelope.Field{{Name: "arguments", Message: "must be a JSON object"}}), tool: args.Name}
	}
	ref, ok := s.snap.Load().byName[args.Name]
	if !ok {
		return outcome{env: unknownTool(args.Name), tool: truncate(args.Name, 80)}
	}
	env := ref.src.Invoker.Invoke(ctx, ref.src.Catalog, invoke.Call{
		Tool:      ref.tool.Name,
		Arguments: args.Arguments,
		Version:   args.Version,
	})
	if env == nil {
		env = envelope.Retry(envelope.InternalError, "sezzlee produced no result for this call.", false)
	}
	return outcome{env: env, tool: args.Name, version: ref.tool.Version}
}

// newReference returns a random reference for sezzlee's own failures.
func newReference() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "sz-" + hex.EncodeToString(b[:])
}

// definitionFor is load_tool's result for a tool under an agent-facing name.
func definitionFor(name string, t *catalog.Tool) catalog.Definition {
	d := t.Definition()
	d.Name = name
	return d
}
