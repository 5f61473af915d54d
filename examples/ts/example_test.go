package ts_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/sezzlee/sezzlee/agent/agenttest"
)

// prepare installs the example's packages when node_modules is missing,
// compiles it, and returns the compiled script. It skips when node or npm
// is absent.
func prepare(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed; the TypeScript example needs Node.js and npm", tool)
		}
	}
	if _, err := os.Stat("node_modules"); os.IsNotExist(err) {
		npm(t, "ci", "--no-audit", "--no-fund")
	}
	npm(t, "run", "build")
	return filepath.Join("dist", "validation-retry.js")
}

func npm(t *testing.T, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "npm", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("npm %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// node runs the example and returns its exit code and output.
func node(t *testing.T, script string, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", append([]string{script}, args...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String()
	} else if err != nil {
		t.Fatalf("node: %v", err)
	}
	return 0, out.String()
}

const orderSchema = `{"type":"object","additionalProperties":false,
	"properties":{"item":{"type":"string","minLength":1,"maxLength":200,"examples":["mechanical keyboard"]},
	"quantity":{"type":"integer","minimum":1,"maximum":100},"note":{"type":"string"}},
	"required":["item","quantity"]}`

// orderServer serves load_tool and invoke_tool for one createOrder tool over
// streamable HTTP, judging arguments as the demo's backend does. When broken
// is set, its validation envelopes claim retryable: true.
func orderServer(t *testing.T, broken bool) string {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "order-server", Version: "test"}, nil)
	text := func(v any, isError bool) *mcp.CallToolResult {
		b, _ := json.Marshal(v)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}, IsError: isError}
	}
	obj := map[string]any{"type": "object"}
	srv.AddTool(&mcp.Tool{Name: "load_tool", InputSchema: obj}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text(map[string]any{"name": "createOrder", "method": "POST", "path": "/orders", "version": "v1",
			"inputSchema": json.RawMessage(orderSchema)}, false), nil
	})
	srv.AddTool(&mcp.Tool{Name: "invoke_tool", InputSchema: obj}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in struct {
			Arguments struct {
				Item     *string  `json:"item"`
				Quantity *float64 `json:"quantity"`
			} `json:"arguments"`
		}
		if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
			return nil, err
		}
		var fields []map[string]string
		a := in.Arguments
		if a.Item == nil || strings.TrimSpace(*a.Item) == "" {
			fields = append(fields, map[string]string{"name": "item", "message": "The Item field is required."})
		}
		if a.Item != nil && *a.Item == "" {
			fields = append(fields, map[string]string{"name": "item", "message": "The field Item must have a minimum length of '1'."})
		}
		if a.Quantity == nil || *a.Quantity < 1 || *a.Quantity > 100 {
			fields = append(fields, map[string]string{"name": "quantity", "message": "The field Quantity must be between 1 and 100."})
		}
		if len(fields) > 0 {
			return text(map[string]any{"error": "validation_failed", "message": "Fix the listed fields.", "status": 400,
				"retryable": broken, "fields": fields}, true), nil
		}
		return text(map[string]any{"status": 201, "body": map[string]any{"id": 1, "item": *a.Item, "quantity": *a.Quantity}}, false), nil
	})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(hs.Close)
	return hs.URL
}

func TestValidationRetryExample(t *testing.T) {
	script := prepare(t)

	t.Run("correct server", func(t *testing.T) {
		code, out := node(t, script, "--url", orderServer(t, false))
		if code != 0 || !strings.Contains(out, "validation-retry: PASS") {
			t.Errorf("exit code %d, want 0 and a PASS; output:\n%s", code, out)
		}
	})
	t.Run("broken server", func(t *testing.T) {
		code, out := node(t, script, "--url", orderServer(t, true))
		if code != 1 || !strings.Contains(out, "FAIL retryable is false") {
			t.Errorf("exit code %d, want 1 and a failed retryable check; output:\n%s", code, out)
		}
	})
	t.Run("bad usage", func(t *testing.T) {
		if code, out := node(t, script); code != 2 {
			t.Errorf("exit code %d, want 2; output:\n%s", code, out)
		}
	})
	t.Run("sezzlee demo", func(t *testing.T) {
		if testing.Short() {
			t.Skip("builds and runs sezzlee demo")
		}
		bin := agenttest.Build(t)
		t.Run("streamable HTTP", func(t *testing.T) {
			code, out := node(t, script, "--url", agenttest.StartDemo(t, bin))
			if code != 0 {
				t.Errorf("exit code %d, want 0; output:\n%s", code, out)
			}
		})
		t.Run("stdio", func(t *testing.T) {
			code, out := node(t, script, "--command", bin+" demo --stdio")
			if strings.Contains(out, agenttest.StubMessage) {
				t.Skip("sezzlee demo is not built yet")
			}
			if code != 0 {
				t.Errorf("exit code %d, want 0; output:\n%s", code, out)
			}
		})
	})
}
