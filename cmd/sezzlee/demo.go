package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/sezzlee/sezzlee/catalog"
	"github.com/sezzlee/sezzlee/demo"
	"github.com/sezzlee/sezzlee/invoke"
	"github.com/sezzlee/sezzlee/mcpserver"
)

// Defaults of demo.
const (
	defaultDemoListen = "127.0.0.1:8931"
	// demoCallTimeout is shorter than the demo's export, so exportOrders
	// shows invoke_timeout.
	demoCallTimeout = 5 * time.Second
	// demoKey is the demo API's own key, which sezzlee sends as the
	// demoKey credential: the agent never sees it.
	demoKey = "demo-key-not-a-secret"
	// demoUser is the caller of every unauthenticated local request.
	demoUser = "alice"
)

func runDemo(ctx context.Context, e *env, args []string) int {
	fs := newFlagSet("demo", "demo [--listen ADDR | --stdio]", e)
	listen := fs.String("listen", "", "address of the MCP endpoint (default "+defaultDemoListen+"; :0 picks a free port)")
	stdio := fs.Bool("stdio", false, "serve one MCP client on stdin/stdout instead of HTTP")
	if err := fs.Parse(args); err != nil {
		return flagExit(err)
	}
	if fs.NArg() > 0 {
		return usageError(e, "unexpected argument %q", fs.Arg(0))
	}
	if *stdio && *listen != "" {
		return usageError(e, "--stdio and --listen exclude each other")
	}
	if *listen == "" {
		*listen = defaultDemoListen
	}
	if !*stdio && !loopback(*listen) {
		return usageError(e, "the demo has no authentication, so it listens on loopback only (127.0.0.1 or localhost), not %s", *listen)
	}

	log := newLogger(e.stderr)
	srv, err := newDemoServer(log)
	if err != nil {
		fmt.Fprintf(e.stderr, "sezzlee: %v\n", err)
		return exitError
	}
	if *stdio {
		writeClientConfig(e.stderr, map[string]any{"command": "sezzlee", "args": []string{"demo", "--stdio"}})
		return serveStdio(ctx, e, srv)
	}
	return serveHTTP(ctx, e, srv.Handler(), *listen, defaultMCPPath, nil, func(url string) {
		fmt.Fprintln(e.stdout, url)
		fmt.Fprintln(e.stdout)
		fmt.Fprintln(e.stdout, "Add this to your MCP client's configuration:")
		writeClientConfig(e.stdout, map[string]any{"type": "http", "url": url})
		log.Info("demo ready", "url", url, "caller", demoUser)
	})
}

// newDemoServer serves the bundled demo API in-process, as the demo user.
func newDemoServer(log *slog.Logger) (*mcpserver.Server, error) {
	cat, err := catalog.Parse(demo.Description, &catalog.Options{Deferred: demo.Deferred})
	if err != nil {
		return nil, fmt.Errorf("the demo description: %w", err)
	}
	inv, err := invoke.New(&invoke.Options{
		Backend:     invoke.Handler(demo.NewHandler(&demo.Options{Key: demoKey})),
		Timeout:     demoCallTimeout,
		Credentials: invoke.StaticCredentials{"demoKey": demoKey}.Credentials,
		Deferred:    mcpserver.DeferredFromCaller("owner"),
	})
	if err != nil {
		return nil, err
	}
	return mcpserver.New(&mcpserver.Options{
		Sources:     []mcpserver.Source{{Name: "demo", Catalog: cat, Invoker: inv}},
		LocalCaller: &mcpserver.Caller{Subject: demoUser},
		Logger:      log,
	})
}

// writeClientConfig prints a client configuration naming the server.
func writeClientConfig(w io.Writer, server map[string]any) {
	b, _ := json.MarshalIndent(map[string]any{"mcpServers": map[string]any{"sezzlee-demo": server}}, "", "  ")
	fmt.Fprintln(w, string(b))
}
