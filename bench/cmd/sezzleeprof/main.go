// Command sezzleeprof serves sezzlee's meta-tools the way sezzlee serve does
// (catalog, remote invoker, mcpserver's HTTP handler) with net/http/pprof on
// a second listener, so the call-cost harness can measure and profile
// sezzlee's own path while the serve command is still taking shape, and can
// keep profiling it once serve exists (serve does not expose pprof).
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"

	"github.com/sezzlee/sezzlee/bench/internal/procserve"
	"github.com/sezzlee/sezzlee/catalog"
	"github.com/sezzlee/sezzlee/invoke"
	"github.com/sezzlee/sezzlee/mcpserver"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "address to serve MCP on, at /mcp")
	spec := flag.String("spec", "bench/testdata/backend.yaml", "the backend's description")
	upstream := flag.String("upstream", "", "backend base URL, e.g. http://127.0.0.1:8081")
	stateless := flag.Bool("stateless", false, "serve each request with a temporary session")
	pprofAddr := flag.String("pprof", "", "if set, serve net/http/pprof on this loopback address")
	flag.Parse()
	if err := run(*listen, *spec, *upstream, *pprofAddr, *stateless); err != nil {
		fmt.Fprintln(os.Stderr, "sezzleeprof:", err)
		os.Exit(1)
	}
}

func run(listen, spec, upstream, pprofAddr string, stateless bool) error {
	if err := procserve.CheckUpstream(upstream); err != nil {
		return err
	}
	h, err := newHandler(context.Background(), spec, upstream, stateless)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	procserve.Pprof("sezzleeprof", pprofAddr)
	return procserve.Run(listen, mux)
}

// newHandler wires a catalog, a remote invoker allowed to reach loopback and
// an mcpserver, as sezzlee serve does.
func newHandler(ctx context.Context, spec, upstream string, stateless bool) (http.Handler, error) {
	cat, err := catalog.Load(ctx, spec, nil)
	if err != nil {
		return nil, err
	}
	backend, err := invoke.Remote(upstream, &invoke.RemoteOptions{AllowPrivateNetworks: true})
	if err != nil {
		return nil, err
	}
	inv, err := invoke.New(&invoke.Options{Backend: backend})
	if err != nil {
		return nil, err
	}
	srv, err := mcpserver.New(&mcpserver.Options{
		Sources:   []mcpserver.Source{{Catalog: cat, Invoker: inv}},
		Stateless: stateless,
	})
	if err != nil {
		return nil, err
	}
	return srv.Handler(), nil
}
