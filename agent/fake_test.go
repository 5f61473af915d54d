package agent

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fakeTool is one tool of the fake sezzlee server.
type fakeTool struct {
	name, method, path, version string
	schema                      string
}

var fakeTools = map[string]fakeTool{
	"createOrder": {"createOrder", "POST", "/orders", "c0ffee01", `{"type":"object","additionalProperties":false,
		"properties":{"item":{"type":"string","minLength":1,"maxLength":200,"examples":["mechanical keyboard"]},
		"quantity":{"type":"integer","minimum":1,"maximum":100},"note":{"type":"string"}},
		"required":["item","quantity"]}`},
	"getOrder": {"getOrder", "GET", "/orders/{id}", "c0ffee02", `{"type":"object","additionalProperties":false,
		"properties":{"id":{"type":"integer","minimum":1}},"required":["id"]}`},
	"getOrderStats": {"getOrderStats", "GET", "/reports/stats", "c0ffee03", `{"type":"object","additionalProperties":false,"properties":{}}`},
	"listOrders": {"listOrders", "GET", "/orders", "c0ffee04", `{"type":"object","additionalProperties":false,
		"properties":{"limit":{"type":"integer","minimum":1,"maximum":500,"default":200},"cursor":{"type":"string"},
		"status":{"type":"string","enum":["open","shipped","cancelled"]}}}`},
	"getOrderInvoice": {"getOrderInvoice", "GET", "/orders/{id}/invoice", "c0ffee05", `{"type":"object","additionalProperties":false,
		"properties":{"id":{"type":"integer","minimum":1}},"required":["id"]}`},
}

// fakeCall is what the fake server was asked.
type fakeCall struct {
	Meta string         // search_tools, load_tool or invoke_tool
	Tool string         // the tool named
	Args map[string]any // invoke_tool's arguments
}

// fakeServer answers the meta-tools like a correct sezzlee in front of the
// demo API, unless mutate changes an answer. It exists so that every check
// the scenarios make can be shown to fail against a wrong answer.
type fakeServer struct {
	// mutate may change an answer before it is sent. The key "isError"
	// overrides the result's isError flag and is not sent; the key
	// "rawText" replaces the whole text block.
	mutate func(c fakeCall, answer map[string]any)

	mu    sync.Mutex
	stats int
}

func (f *fakeServer) connect(t *testing.T) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	srv := mcp.NewServer(&mcp.Implementation{Name: "fake-sezzlee", Version: "test"}, nil)
	obj := &jsonObject{Type: "object"}
	srv.AddTool(&mcp.Tool{Name: SearchTools, InputSchema: obj}, f.handle(SearchTools))
	srv.AddTool(&mcp.Tool{Name: LoadTool, InputSchema: obj}, f.handle(LoadTool))
	srv.AddTool(&mcp.Tool{Name: InvokeTool, InputSchema: obj}, f.handle(InvokeTool))
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent-test", Version: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

type jsonObject struct {
	Type string `json:"type"`
}

func (f *fakeServer) handle(meta string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in struct {
			Name      string         `json:"name"`
			Query     string         `json:"query"`
			Arguments map[string]any `json:"arguments"`
			Version   string         `json:"version"`
		}
		if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
			return nil, err
		}
		c := fakeCall{Meta: meta, Tool: in.Name, Args: in.Arguments}
		var answer map[string]any
		switch meta {
		case SearchTools:
			answer = map[string]any{"hits": []any{}}
		case LoadTool:
			answer = f.load(in.Name)
		default:
			answer = f.invoke(in.Name, in.Arguments, in.Version)
		}
		_, isError := answer["error"]
		if f.mutate != nil {
			f.mutate(c, answer)
		}
		if v, ok := answer["isError"].(bool); ok {
			isError = v
			delete(answer, "isError")
		}
		b, err := json.Marshal(answer)
		if err != nil {
			return nil, err
		}
		if raw, ok := answer["rawText"].(string); ok {
			b = []byte(raw)
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}, IsError: isError}, nil
	}
}

func (f *fakeServer) load(name string) map[string]any {
	t, ok := fakeTools[name]
	if !ok {
		return reject("unknown_tool", "No such tool. Use search_tools.")
	}
	return map[string]any{"name": t.name, "method": t.method, "path": t.path, "version": t.version,
		"description": "a fake tool", "tags": []string{"orders"}, "inputSchema": json.RawMessage(t.schema)}
}

func reject(code, message string) map[string]any {
	return map[string]any{"error": code, "message": message, "retryable": false}
}

func backend(status int, code, message string, retryable bool) map[string]any {
	return map[string]any{"status": status, "error": code, "message": message, "retryable": retryable}
}

// fakeTypes is the JSON type each argument of the fake tools takes.
var fakeTypes = map[string]string{"item": "string", "note": "string", "cursor": "string", "status": "string",
	"quantity": "integer", "limit": "integer", "id": "integer"}

func (f *fakeServer) invoke(name string, args map[string]any, version string) map[string]any {
	t, ok := fakeTools[name]
	if !ok {
		return reject("unknown_tool", "No such tool.")
	}
	if version != "" && version != t.version {
		return reject("tool_changed", "The tool changed after it was loaded. Load it again and retry with the new version.")
	}
	var schema struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	_ = json.Unmarshal([]byte(t.schema), &schema)
	for _, n := range sortedKeys(args) {
		if _, ok := schema.Properties[n]; !ok {
			return reject("unknown_argument", "Unknown argument: "+n+".")
		}
		if fakeTypes[n] == "integer" {
			if v, ok := args[n].(float64); !ok || v != float64(int(v)) {
				if strings.Contains(t.path, "{"+n+"}") {
					return reject("invalid_path_type", "Argument '"+n+"' must be of type integer.")
				}
				return reject("invalid_type", "Argument '"+n+"' must be of type integer.")
			}
		} else if _, ok := args[n].(string); !ok {
			return reject("invalid_type", "Argument '"+n+"' must be of type string.")
		}
	}
	switch name {
	case "createOrder":
		var fields []Field
		if item, ok := args["item"].(string); !ok {
			fields = append(fields, Field{"item", "The Item field is required."})
		} else if strings.TrimSpace(item) == "" {
			fields = append(fields, Field{"item", "The Item field is required."})
			if item == "" {
				fields = append(fields, Field{"item", "The field Item must be a string or array type with a minimum length of '1'."})
			}
		} else if len(item) > 200 {
			fields = append(fields, Field{"item", "The field Item must be a string or array type with a maximum length of '200'."})
		}
		if q, ok := args["quantity"].(float64); !ok {
			fields = append(fields, Field{"quantity", "The Quantity field is required."})
		} else if q < 1 || q > 100 {
			fields = append(fields, Field{"quantity", "The field Quantity must be between 1 and 100."})
		}
		if len(fields) > 0 {
			e := backend(400, "validation_failed", "The backend rejected one or more arguments. Fix the listed fields and call again.", false)
			e["fields"] = fields
			return e
		}
		return map[string]any{"status": 201, "body": map[string]any{"id": 7, "item": args["item"], "quantity": args["quantity"]},
			"contentType": "application/json", "location": "/orders/7"}
	case "getOrder":
		return map[string]any{"status": 200, "body": map[string]any{"id": args["id"]}, "contentType": "application/json"}
	case "getOrderStats":
		f.mu.Lock()
		f.stats++
		n := f.stats
		f.mu.Unlock()
		if n%2 == 0 {
			e := backend(429, "rate_limited", "Too many calls. Wait and retry.", true)
			e["retryAfterSeconds"] = 1
			return e
		}
		return map[string]any{"status": 200, "body": map[string]any{"open": 3}}
	case "listOrders":
		limit := 200.0
		if v, ok := args["limit"].(float64); ok {
			limit = v
		}
		if limit > 100 {
			e := reject("response_too_large", "The answer is too large. Narrow the call with the listed arguments.")
			e["payload"] = map[string]any{"bytes": int(limit) * 350, "limit": 65536, "contentType": "application/json"}
			e["fields"] = []Field{{"cursor", "Pages through the results."}, {"limit", "Sets the page size."}, {"status", "Filters by state."}}
			return e
		}
		return map[string]any{"status": 200, "body": map[string]any{"orders": []any{}, "nextCursor": nil}}
	case "getOrderInvoice":
		e := backend(500, "backend_error", "The backend failed. Its details were withheld.", false)
		e["reference"] = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
		return e
	}
	return reject("not_invocable", "Not invocable.")
}

// fieldsOf reads the fields of an answer, whatever their Go type.
func fieldsOf(answer map[string]any) []Field {
	b, _ := json.Marshal(answer["fields"])
	var fs []Field
	_ = json.Unmarshal(b, &fs)
	return fs
}

func sortedFieldNames(fs []Field) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Name)
	}
	sort.Strings(out)
	return out
}
