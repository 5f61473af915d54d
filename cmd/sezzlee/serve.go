package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/sezzlee/sezzlee/catalog"
	"github.com/sezzlee/sezzlee/config"
	"github.com/sezzlee/sezzlee/invoke"
	"github.com/sezzlee/sezzlee/mcpserver"
)

// Defaults of serve.
const (
	defaultServeListen = "127.0.0.1:8080"
	defaultMCPPath     = "/mcp"
	shutdownGrace      = 10 * time.Second
	watchInterval      = time.Second
)

func runServe(ctx context.Context, e *env, args []string) int {
	fs := newFlagSet("serve", "serve --spec FILE_OR_URL --upstream URL [--listen ADDR | --stdio] [--config FILE] [--watch]", e)
	var (
		flagSrc  config.Source
		cfgPath  string
		listen   string
		stdio    bool
		watch    bool
		state    bool
		deferred listFlag
		local    string
	)
	fs.StringVar(&flagSrc.Spec, "spec", "", "OpenAPI description: a file or an http(s) URL")
	fs.StringVar(&flagSrc.Upstream, "upstream", "", "base URL of the API the calls go to")
	fs.StringVar(&flagSrc.Prefix, "prefix", "", "prefix for this description's tool names")
	fs.BoolVar(&flagSrc.AllowPrivateNetworks, "allow-private-networks", false, "let the description URL and the upstream be loopback or private addresses")
	fs.DurationVar(&flagSrc.Timeout, "timeout", 0, "bound on each call (default 30s)")
	fs.Var(&deferred, "deferred", "arguments filled with the caller's subject instead of by the agent (repeatable)")
	fs.StringVar(&cfgPath, "config", "", "YAML configuration: more descriptions, credentials, limits, authentication")
	fs.StringVar(&listen, "listen", "", "address of the MCP endpoint (default "+defaultServeListen+")")
	fs.BoolVar(&stdio, "stdio", false, "serve one MCP client on stdin/stdout instead of HTTP")
	fs.BoolVar(&watch, "watch", false, "reload when a description file changes (SIGHUP always reloads)")
	fs.BoolVar(&state, "stateless", false, "serve each HTTP request with a temporary MCP session")
	fs.StringVar(&local, "local-caller", "", "subject of stdio sessions and of unauthenticated loopback requests; deferred values take it")
	if err := fs.Parse(args); err != nil {
		return flagExit(err)
	}
	if fs.NArg() > 0 {
		return usageError(e, "unexpected argument %q", fs.Arg(0))
	}

	cfg := &config.Config{}
	if cfgPath != "" {
		c, err := config.Load(cfgPath)
		if err != nil {
			return usageError(e, "%v", err)
		}
		cfg = c
	}
	if flagSrc.Spec != "" || flagSrc.Upstream != "" {
		if flagSrc.Spec == "" || flagSrc.Upstream == "" {
			return usageError(e, "--spec and --upstream go together")
		}
		if len(deferred) > 0 {
			flagSrc.Deferred = map[string]string{}
			for _, d := range deferred {
				flagSrc.Deferred[d] = "subject"
			}
		}
		cfg.Sources = append([]config.Source{flagSrc}, cfg.Sources...)
	}
	if len(cfg.Sources) == 0 {
		return usageError(e, "nothing to serve: give --spec and --upstream, or a --config with sources")
	}
	if err := cfg.Validate(); err != nil {
		return usageError(e, "%v", err)
	}
	if stdio && listen != "" {
		return usageError(e, "--stdio and --listen exclude each other")
	}
	if listen == "" {
		listen = cfg.Listen
	}
	if listen == "" {
		listen = defaultServeListen
	}
	if !stdio && cfg.Auth == nil && !loopback(listen) {
		return usageError(e, "listening on %s, beyond loopback, requires authentication: set auth in the --config file, or listen on 127.0.0.1", listen)
	}

	log := newLogger(e.stderr)
	verifier, err := buildVerifier(cfg.Auth, e.getenv)
	if err != nil {
		return usageError(e, "%v", err)
	}
	build := func(ctx context.Context) ([]mcpserver.Source, error) {
		return buildSources(ctx, cfg.Sources, e.getenv, log)
	}
	sources, err := build(ctx)
	if err != nil {
		fmt.Fprintf(e.stderr, "sezzlee: %v\n", err)
		var le *catalog.LoadError
		if errors.As(err, &le) || errors.Is(err, errConfig) {
			return exitUsage
		}
		return exitError
	}
	srv, err := mcpserver.New(&mcpserver.Options{
		Sources:             sources,
		Stateless:           state || cfg.Stateless,
		AllowedOrigins:      cfg.AllowedOrigins,
		MaxRequestBytes:     cfg.MaxRequestBytes,
		Verifier:            verifier,
		LocalCaller:         localCaller(local),
		ResourceMetadataURL: authMetadataURL(cfg.Auth),
		Logger:              log,
	})
	if err != nil {
		return usageError(e, "%v", err)
	}
	go reloadLoop(ctx, srv, cfg.Sources, watch, build, log)

	if stdio {
		return serveStdio(ctx, e, srv)
	}
	path := cfg.Path
	if path == "" {
		path = defaultMCPPath
	}
	return serveHTTP(ctx, e, srv.Handler(), listen, path, resourceRoutes(cfg.Auth, path), nil)
}

// resourceRoutes serves the protected resource metadata (RFC 9728) when
// the configuration says who issues tokens: at the well-known path, and at
// it suffixed with the endpoint's path as the RFC asks for a resource
// with a path.
func resourceRoutes(a *config.Auth, path string) map[string]http.Handler {
	if a == nil || a.JWT == nil {
		return nil
	}
	h := mcpserver.ResourceMetadataHandler(mcpserver.ResourceMetadata{
		Resource:             a.JWT.Audience,
		AuthorizationServers: []string{a.JWT.Issuer},
	})
	const wellKnown = "/.well-known/oauth-protected-resource"
	return map[string]http.Handler{wellKnown: h, wellKnown + path: h}
}

// errConfig marks a configuration the wiring found unusable (a missing
// environment variable, say): exit 2 like any other bad configuration.
var errConfig = errors.New("bad configuration")

func usageError(e *env, format string, args ...any) int {
	fmt.Fprintf(e.stderr, "sezzlee: "+format+"\n", args...)
	return exitUsage
}

func newLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// loopback reports whether addr's host is a loopback name or address. An
// empty host listens on every interface, so it is not loopback.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// buildSources loads every description and wires its invoker.
func buildSources(ctx context.Context, srcs []config.Source, getenv func(string) string, log *slog.Logger) ([]mcpserver.Source, error) {
	var out []mcpserver.Source
	for i, s := range srcs {
		names := make([]string, 0, len(s.Deferred))
		for n := range s.Deferred {
			names = append(names, n)
		}
		sort.Strings(names)
		cat, err := catalog.Load(ctx, s.Spec, &catalog.Options{
			Filter:               catalog.Filter(s.Filter),
			Deferred:             names,
			AllowPrivateNetworks: s.AllowPrivateNetworks,
		})
		if err != nil {
			return nil, fmt.Errorf("sources[%d] (%s): %w", i, s.Spec, err)
		}
		for _, w := range cat.Warnings {
			log.Warn("description repaired", "spec", s.Spec, "warning", w.String())
		}
		creds := invoke.StaticCredentials{}
		for scheme, c := range s.Credentials {
			v, err := credential(c, getenv)
			if err != nil {
				return nil, fmt.Errorf("%w: sources[%d].credentials.%s: %v", errConfig, i, scheme, err)
			}
			creds[scheme] = v
		}
		backend, err := invoke.Remote(s.Upstream, &invoke.RemoteOptions{AllowPrivateNetworks: s.AllowPrivateNetworks})
		if err != nil {
			return nil, fmt.Errorf("%w: sources[%d]: %v", errConfig, i, err)
		}
		inv, err := invoke.New(&invoke.Options{
			Backend:          backend,
			Timeout:          s.Timeout,
			MaxResponseBytes: s.MaxResponseBytes,
			MaxAgentBytes:    s.MaxAgentBytes,
			Credentials:      creds.Credentials,
			Deferred:         deferredFrom(s.Deferred),
			Logger:           log,
		})
		if err != nil {
			return nil, fmt.Errorf("%w: sources[%d]: %v", errConfig, i, err)
		}
		out = append(out, mcpserver.Source{Name: s.Name, Prefix: s.Prefix, Catalog: cat, Invoker: inv})
	}
	return out, nil
}

func credential(c config.Credential, getenv func(string) string) (string, error) {
	if c.Env != "" {
		return c.Env.Resolve(getenv)
	}
	u, err := c.Username.Resolve(getenv)
	if err != nil {
		return "", err
	}
	p, err := c.Password.Resolve(getenv)
	if err != nil {
		return "", err
	}
	return u + ":" + p, nil
}

// deferredFrom fills each deferred argument from the call's caller, as
// the configuration maps it: "subject" or "claim:NAME".
func deferredFrom(m map[string]string) invoke.DeferredResolver {
	if len(m) == 0 {
		return nil
	}
	return func(ctx context.Context, _ *catalog.Tool, name string) (any, bool, error) {
		c, ok := mcpserver.CallerFromContext(ctx)
		if !ok {
			return nil, false, nil
		}
		from := m[name]
		if from == "subject" {
			return c.Subject, c.Subject != "", nil
		}
		if claim, ok := strings.CutPrefix(from, "claim:"); ok {
			v, ok := c.Claims[claim]
			return v, ok && v != nil, nil
		}
		return nil, false, nil
	}
}

func buildVerifier(a *config.Auth, getenv func(string) string) (mcpserver.Verifier, error) {
	switch {
	case a == nil:
		return nil, nil
	case a.JWT != nil:
		return mcpserver.NewJWTVerifier(&mcpserver.JWTOptions{
			JWKSURL: a.JWT.JWKSURL, Issuer: a.JWT.Issuer, Audience: a.JWT.Audience,
			Algorithms: a.JWT.Algorithms, Leeway: a.JWT.Leeway,
		})
	case a.Introspection != nil:
		secret, err := a.Introspection.ClientSecret.Resolve(getenv)
		if err != nil {
			return nil, fmt.Errorf("auth.introspection: %v", err)
		}
		return mcpserver.NewIntrospectionVerifier(&mcpserver.IntrospectionOptions{
			URL: a.Introspection.URL, Audience: a.Introspection.Audience,
			ClientID: a.Introspection.ClientID, ClientSecret: secret,
		})
	default:
		keys := map[string]string{}
		for i, k := range a.APIKeys {
			v, err := k.Env.Resolve(getenv)
			if err != nil {
				return nil, fmt.Errorf("auth.apiKeys[%d]: %v", i, err)
			}
			keys[v] = k.Name
		}
		return mcpserver.APIKeys(keys), nil
	}
}

func authMetadataURL(a *config.Auth) string {
	if a == nil {
		return ""
	}
	return a.ResourceMetadataURL
}

// reloadLoop rebuilds every source on SIGHUP and, with watch, when a local
// description file changes size or modification time. A failed rebuild
// is logged and the current sources stay.
func reloadLoop(ctx context.Context, srv *mcpserver.Server, srcs []config.Source, watch bool, build func(context.Context) ([]mcpserver.Source, error), log *slog.Logger) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	var tick <-chan time.Time
	seen := map[string]string{}
	if watch {
		for _, s := range srcs {
			if !strings.Contains(s.Spec, "://") {
				seen[s.Spec] = stamp(s.Spec)
			}
		}
		t := time.NewTicker(watchInterval)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-hup:
		case <-tick:
			changed := false
			for f, old := range seen {
				if now := stamp(f); now != old {
					seen[f] = now
					changed = true
				}
			}
			if !changed {
				continue
			}
		}
		sources, err := build(ctx)
		if err == nil {
			err = srv.Reload(sources)
		}
		if err != nil {
			log.Error("reload failed; serving the previous descriptions", "error", err)
		}
	}
}

// stamp is a file's size and modification time, or "" when it cannot be read.
func stamp(path string) string {
	st, err := os.Stat(path)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%d/%d", st.Size(), st.ModTime().UnixNano())
}

func serveStdio(ctx context.Context, e *env, srv *mcpserver.Server) int {
	if err := srv.ServeStdio(ctx); err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
		fmt.Fprintf(e.stderr, "sezzlee: %v\n", err)
		return exitError
	}
	return exitOK
}

// serveHTTP serves h at path on addr until ctx ends, then shuts down
// gracefully, with routes mounted beside it. ready, when set, is called with the endpoint's URL once the
// listener is bound; otherwise the URL is printed as the first line.
func serveHTTP(ctx context.Context, e *env, h http.Handler, addr, path string, routes map[string]http.Handler, ready func(url string)) int {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return usageError(e, "cannot listen on %s: %v", addr, err)
	}
	// Standalone SSE streams (GET) only carry notifications and never end
	// on their own: they are cut when shutdown starts, so that Shutdown
	// waits for calls in flight only.
	streams, cutStreams := context.WithCancel(context.Background())
	defer cutStreams()
	mux := http.NewServeMux()
	mux.Handle(path, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			ctx, cancel := context.WithCancel(r.Context())
			defer cancel()
			stop := context.AfterFunc(streams, cancel)
			defer stop()
			r = r.WithContext(ctx)
		}
		h.ServeHTTP(w, r)
	}))
	for p, rh := range routes {
		mux.Handle(p, rh)
	}
	hs := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	url := "http://" + ln.Addr().String() + path
	if ready != nil {
		ready(url)
	} else {
		fmt.Fprintln(e.stdout, url)
	}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		fmt.Fprintf(e.stderr, "sezzlee: %v\n", err)
		return exitError
	case <-ctx.Done():
	}
	cutStreams()
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		// Streams still open after the grace period are cut.
		_ = hs.Close()
	}
	return exitOK
}

// localCaller is the caller --local-caller names, or none.
func localCaller(subject string) *mcpserver.Caller {
	if subject == "" {
		return nil
	}
	return &mcpserver.Caller{Subject: subject}
}
