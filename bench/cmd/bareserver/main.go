// Command bareserver is the baseline of the call-cost harness: a go-sdk
// streamable HTTP server with one tool, get_item, that only forwards the call
// to the backend and hands its body back as one text block.
//
// It is written the way the SDK's documentation shows (mcp.AddTool with a
// typed input, so the SDK infers, validates and decodes the arguments), so
// that what it costs is what the MCP transport costs a typical Go server.
// Flags switch on the SDK options the harness compares (stateless mode, JSON
// responses) and an optional net/http/pprof listener for profiling.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sezzlee/sezzlee/bench/internal/procserve"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "address to serve MCP on, at /mcp")
	upstream := flag.String("upstream", "", "backend base URL, e.g. http://127.0.0.1:8081")
	stateless := flag.Bool("stateless", false, "use the SDK's stateless mode")
	jsonResp := flag.Bool("json", false, "answer application/json instead of text/event-stream")
	raw := flag.Bool("raw", false, "register the tool with Server.AddTool and a written schema instead of the typed mcp.AddTool")
	lean := flag.Bool("lean", false, "answer get_item calls on a lean path before the SDK (a prototype)")
	pprofAddr := flag.String("pprof", "", "if set, serve net/http/pprof on this loopback address")
	flag.Parse()
	cfg := config{
		upstream: *upstream, raw: *raw, lean: *lean,
		opts: &mcp.StreamableHTTPOptions{Stateless: *stateless, JSONResponse: *jsonResp},
	}
	if err := run(*listen, *pprofAddr, cfg); err != nil {
		fmt.Fprintln(os.Stderr, "bareserver:", err)
		os.Exit(1)
	}
}

// itemArgs is get_item's input; the SDK derives the input schema from it.
type itemArgs struct {
	ID int `json:"id" jsonschema:"the item's numeric id"`
}

// maxBody bounds what is read from the backend.
const maxBody = 1 << 20

// config is how the server is put together.
type config struct {
	upstream string
	opts     *mcp.StreamableHTTPOptions
	// raw registers get_item with Server.AddTool: the SDK neither validates
	// nor decodes the arguments; the handler decodes them itself.
	raw bool
	// lean puts leanHandler in front of the SDK's handler.
	lean bool
}

func run(listen, pprofAddr string, cfg config) error {
	if err := procserve.CheckUpstream(cfg.upstream); err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", newHandler(cfg))
	procserve.Pprof("bareserver", pprofAddr)
	return procserve.Run(listen, mux)
}

// newHandler returns the MCP handler whose get_item tool forwards to the upstream.
func newHandler(cfg config) http.Handler {
	client := &http.Client{
		Timeout:   10 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: 64, DisableCompression: true},
	}
	fetchItem := func(ctx context.Context, id int) ([]byte, error) {
		return fetch(ctx, client, cfg.upstream+"/items/"+strconv.Itoa(id))
	}
	result := func(body []byte) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(body)}}}
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "bareserver", Version: "v0.0.1"}, nil)
	tool := &mcp.Tool{Name: "get_item", Description: "Fetch one item by id."}
	if cfg.raw {
		tool.InputSchema = json.RawMessage(`{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"],"additionalProperties":false}`)
		server.AddTool(tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in itemArgs
			if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
				return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "bad arguments: " + err.Error()}}}, nil
			}
			body, err := fetchItem(ctx, in.ID)
			if err != nil {
				return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}, nil
			}
			return result(body), nil
		})
	} else {
		mcp.AddTool(server, tool, func(ctx context.Context, _ *mcp.CallToolRequest, in itemArgs) (*mcp.CallToolResult, any, error) {
			body, err := fetchItem(ctx, in.ID)
			if err != nil {
				return nil, nil, err // the SDK turns this into an isError result
			}
			return result(body), nil, nil
		})
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, cfg.opts)
	if !cfg.lean {
		return h
	}
	return newLeanHandler(h, cfg.opts, func(r *http.Request, id int) ([]byte, error) { return fetchItem(r.Context(), id) })
}

// fetch GETs url and returns its body, bounded by maxBody.
func fetch(ctx context.Context, client *http.Client, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("backend answered %s", resp.Status)
	}
	return body, nil
}
