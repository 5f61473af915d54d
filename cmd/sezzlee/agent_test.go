package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/sezzlee/sezzlee/agent/agenttest"
)

func runAgentCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), &env{stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}, append([]string{"agent"}, args...))
	return code, stdout.String(), stderr.String()
}

func TestAgentUsage(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"no scenario", []string{"--url", "http://127.0.0.1:1/mcp"}, "--scenario is required"},
		{"unknown scenario", []string{"--scenario", "nope", "--url", "http://127.0.0.1:1/mcp"}, `unknown scenario "nope"`},
		{"no server", []string{"--scenario", "all"}, "exactly one of --url and --command"},
		{"both servers", []string{"--scenario", "all", "--url", "http://x", "--command", "sezzlee demo --stdio"}, "exactly one of --url and --command"},
		{"stray argument", []string{"--scenario", "all", "extra"}, `unexpected argument "extra"`},
		{"unknown flag", []string{"--bogus"}, "flag provided but not defined"},
		{"unterminated quote", []string{"--scenario", "all", "--command", `"sezzlee demo`}, "unterminated quote"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runAgentCmd(t, tt.args...)
			if code != exitUsage {
				t.Errorf("exit code = %d, want %d", code, exitUsage)
			}
			if !strings.Contains(stderr, tt.wantErr) {
				t.Errorf("stderr = %q, want it to contain %q", stderr, tt.wantErr)
			}
		})
	}
}

func TestAgentList(t *testing.T) {
	code, stdout, _ := runAgentCmd(t, "--list")
	if code != exitOK {
		t.Fatalf("exit code = %d, want 0", code)
	}
	for _, name := range []string{"validation-retry", "sdk-rejection", "retry-after", "tool-changed", "response-too-large", "leak-check"} {
		if !strings.Contains(stdout, name+" ") {
			t.Errorf("--list output lacks %s:\n%s", name, stdout)
		}
	}
}

func TestAgentUnreachableServerFails(t *testing.T) {
	code, _, stderr := runAgentCmd(t, "--scenario", "leak-check", "--url", "http://127.0.0.1:1/mcp", "--timeout", "10s")
	if code != exitError {
		t.Errorf("exit code = %d, want %d; stderr %s", code, exitError, stderr)
	}
}

// TestAgentAgainstDemo runs every scenario against `sezzlee demo` over both
// transports, as .ci/run does.
func TestAgentAgainstDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs sezzlee demo")
	}
	bin := agenttest.Build(t)
	t.Run("streamable-http", func(t *testing.T) {
		url := agenttest.StartDemo(t, bin)
		code, stdout, stderr := runAgentCmd(t, "--scenario", "all", "--url", url)
		if code != exitOK || !strings.Contains(stdout, "\nscenarios: 6 passed, 0 failed\n") {
			t.Errorf("exit code = %d, want 0 and six scenarios passed\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
	})
	t.Run("stdio", func(t *testing.T) {
		code, stdout, stderr := runAgentCmd(t, "--scenario", "all", "--command", bin+" demo --stdio")
		if strings.Contains(stderr, agenttest.StubMessage) {
			t.Skip("sezzlee demo is not built yet")
		}
		if code != exitOK || !strings.Contains(stdout, "\nscenarios: 6 passed, 0 failed\n") {
			t.Errorf("exit code = %d, want 0 and six scenarios passed\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
	})
}

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		in      string
		want    []string
		wantErr bool
	}{
		{"sezzlee demo --stdio", []string{"sezzlee", "demo", "--stdio"}, false},
		{"  a\tb  ", []string{"a", "b"}, false},
		{`'/opt/my tools/sezzlee' serve --spec "a b.yaml"`, []string{"/opt/my tools/sezzlee", "serve", "--spec", "a b.yaml"}, false},
		{`a\ b c`, []string{"a b", "c"}, false},
		{`"say \"hi\" \n"`, []string{`say "hi" \n`}, false},
		{`'it''s'`, []string{"its"}, false},
		{`""`, []string{""}, false},
		{`"open`, nil, true},
		{`trailing\`, nil, true},
	}
	for _, tt := range tests {
		got, err := splitCommand(tt.in)
		if (err != nil) != tt.wantErr || !slices.Equal(got, tt.want) {
			t.Errorf("splitCommand(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

// TestAgentFailedCheckExits1 runs a scenario against a server whose
// backend never fails: leak-check's checks fail, and so does the command.
func TestAgentFailedCheckExits1(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "always-ok", Version: "test"}, nil)
	answer := func(text string) mcp.ToolHandler {
		return func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
		}
	}
	obj := map[string]any{"type": "object"}
	srv.AddTool(&mcp.Tool{Name: "load_tool", InputSchema: obj}, answer(`{"name":"getOrderInvoice","path":"/orders/{id}/invoice","version":"v1",
		"inputSchema":{"type":"object","properties":{"id":{"type":"integer","minimum":1}},"required":["id"]}}`))
	srv.AddTool(&mcp.Tool{Name: "invoke_tool", InputSchema: obj}, answer(`{"status":200,"body":{}}`))
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer hs.Close()

	code, stdout, stderr := runAgentCmd(t, "--scenario", "leak-check", "--url", hs.URL)
	if code != exitError {
		t.Errorf("exit code = %d, want %d; stderr %s", code, exitError, stderr)
	}
	for _, want := range []string{"FAIL the backend's internal error is an error envelope", "scenarios: 0 passed, 1 failed"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
}

// FuzzSplitCommand checks that splitting never panics and that the words it
// returns, quoted again, split back to themselves.
func FuzzSplitCommand(f *testing.F) {
	for _, s := range []string{"sezzlee demo --stdio", `'a b' "c \" d" e\ f`, `"`, `\`, "a\tb\nc", `''`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, err := splitCommand(s)
		if err != nil {
			return
		}
		quoted := make([]string, len(words))
		for i, w := range words {
			quoted[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
		}
		again, err := splitCommand(strings.Join(quoted, " "))
		if err != nil || !slices.Equal(again, words) {
			t.Errorf("split(%q) = %q; quoted again it splits to %q, %v", s, words, again, err)
		}
	})
}
