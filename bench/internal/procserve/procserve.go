// Package procserve runs the HTTP servers of bench/ as processes the
// call-cost harness can start, measure and stop: loopback only, pprof on a
// listener of its own, and a prompt shutdown on SIGINT or SIGTERM.
package procserve

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	_ "net/http/pprof" // registers /debug/pprof on http.DefaultServeMux, served only by Pprof
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

// Run serves h on listen until the process gets SIGINT or SIGTERM, then
// shuts down within a second.
func Run(listen string, h http.Handler) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv := &http.Server{Addr: listen, Handler: h, ReadHeaderTimeout: 5 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

// Pprof serves net/http/pprof on addr in the background when addr is not
// empty. The default mux holds only the pprof handlers in bench's programs.
func Pprof(name, addr string) {
	if addr == "" {
		return
	}
	go func() {
		if err := http.ListenAndServe(addr, http.DefaultServeMux); err != nil {
			fmt.Fprintf(os.Stderr, "%s: pprof: %v\n", name, err)
		}
	}()
}

// CheckUpstream refuses an upstream that is not a plain-HTTP loopback URL:
// bench's traffic stays on this machine.
func CheckUpstream(upstream string) error {
	if !strings.HasPrefix(upstream, "http://127.") && !strings.HasPrefix(upstream, "http://localhost") {
		return fmt.Errorf("-upstream must be a loopback http URL, got %q", upstream)
	}
	return nil
}
