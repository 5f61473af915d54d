package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/sezzlee/sezzlee/catalog"
	"github.com/sezzlee/sezzlee/invoke"
	"github.com/sezzlee/sezzlee/search"
)

// Source is one description served by a Server: its catalog, the invoker
// that dispatches its calls and the prefix that keeps its tool names apart
// from other sources'.
type Source struct {
	// Name labels the source in logs. Zero means the catalog's title.
	Name string
	// Prefix is prepended to each of the catalog's tool names as the agent
	// sees them ("stripe_" makes createCustomer stripe_createCustomer).
	// Zero adds nothing; at most one source may have an empty prefix.
	Prefix string
	// Catalog is the source's tools. Required.
	Catalog *catalog.Catalog
	// Invoker dispatches the source's calls. Required.
	Invoker *invoke.Invoker
}

// Options configures a Server. Each field documents its zero value.
type Options struct {
	// Sources are the descriptions served; at least one is required.
	Sources []Source

	// Name and Version identify the server to MCP clients.
	// Zero means "sezzlee" and "dev".
	Name, Version string

	// Stateless makes Handler serve each HTTP request with a temporary
	// session, keeping no state between requests. Zero is stateful: the
	// client keeps an Mcp-Session-Id across requests.
	Stateless bool
	// SessionIdle closes a stateful session that has seen no request for
	// this long. Zero means DefaultSessionIdle; negative never closes one.
	SessionIdle time.Duration
	// AllowedOrigins lists the browser origins ("https://app.example")
	// allowed to call Handler. A request without an Origin header (any
	// non-browser client) is always allowed. Zero refuses every request
	// that carries an Origin with 403.
	AllowedOrigins []string
	// MaxRequestBytes bounds each HTTP request body; larger bodies answer
	// 413. Zero means DefaultMaxRequestBytes.
	MaxRequestBytes int64

	// Verifier, when set, makes Handler require a bearer token on every
	// request and verify it; the Caller it returns reaches the invoker.
	// Zero serves HTTP without authentication.
	Verifier Verifier
	// ResourceMetadataURL is advertised in the WWW-Authenticate header of a
	// 401 so clients can discover the authorization server (RFC 9728).
	// Zero advertises nothing.
	ResourceMetadataURL string
	// Identify, when set, names the caller of an HTTP request from the
	// request itself (an embedding program's own session cookie, say). It
	// runs after the Verifier, if any, and its error answers 401.
	// Zero leaves the caller to the Verifier or to LocalCaller.
	Identify func(r *http.Request) (*Caller, error)
	// LocalCaller is the caller of stdio sessions and of HTTP requests that
	// no Verifier or Identify named. Zero means no caller: hooks that need
	// one see none.
	LocalCaller *Caller

	// Search configures each source's search index (a host's own Ranker,
	// say). Zero means the built-in ranking with its defaults.
	Search *search.Options

	// Logger receives one record per meta-tool call. Zero discards them.
	Logger *slog.Logger

	// DisableFastPath makes Handler pass every request to the SDK's
	// streamable HTTP handler. Zero answers the plain tools/call of a
	// meta-tool on a shorter path that gives the same answer at a
	// fraction of the cost (see Handler); the option exists to compare
	// the two.
	DisableFastPath bool
}

// Defaults for the zero values of Options.
const (
	DefaultMaxRequestBytes = 1 << 20
	DefaultSessionIdle     = 30 * time.Minute
)

// Errors returned by New and Reload.
var (
	// ErrNoSources means Options.Sources (or Reload's argument) is empty.
	ErrNoSources = errors.New("mcpserver: no sources")
	// ErrBadSource means a source lacks its catalog or invoker, has an
	// invalid prefix, or makes a tool name clash with another's.
	ErrBadSource = errors.New("mcpserver: bad source")
)

// Server serves the meta-tools over MCP. It is safe for concurrent use.
type Server struct {
	opts Options
	log  *slog.Logger
	mcp  *mcp.Server

	snap   atomic.Pointer[snapshot]
	reload sync.Mutex // serialises Reload; readers never take it

	// inbound maps a request reference to the context of the inbound HTTP
	// request that carries the call (see Handler).
	inbound sync.Map

	metaTools map[string]*metaTool // by name; fixed after New

	liveMu     sync.Mutex
	live       map[string]*liveSession // by session id, for the fast path
	fastServed atomic.Int64            // calls the fast path answered, for tests
}

// New builds a Server from opts.
func New(opts *Options) (*Server, error) {
	if opts == nil {
		return nil, ErrNoSources
	}
	s := &Server{opts: *opts, live: make(map[string]*liveSession)}
	if s.opts.Name == "" {
		s.opts.Name = "sezzlee"
	}
	if s.opts.Version == "" {
		s.opts.Version = "dev"
	}
	if s.opts.MaxRequestBytes == 0 {
		s.opts.MaxRequestBytes = DefaultMaxRequestBytes
	}
	switch {
	case s.opts.SessionIdle == 0:
		s.opts.SessionIdle = DefaultSessionIdle
	case s.opts.SessionIdle < 0:
		s.opts.SessionIdle = 0 // the SDK's "never"
	}
	if s.opts.MaxRequestBytes < 0 {
		return nil, fmt.Errorf("mcpserver: MaxRequestBytes %d is negative", s.opts.MaxRequestBytes)
	}
	s.log = s.opts.Logger
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	snap, err := newSnapshot(s.opts.Sources, s.opts.Search)
	if err != nil {
		return nil, err
	}
	s.snap.Store(snap)
	s.opts.Sources = nil // the snapshot owns them

	s.mcp = mcp.NewServer(&mcp.Implementation{Name: s.opts.Name, Version: s.opts.Version}, &mcp.ServerOptions{
		Instructions:       instructions,
		InitializedHandler: s.sessionInitialized,
		Logger:             slog.New(minLevel{s.log.Handler(), slog.LevelWarn}),
	})
	s.addTools()
	return s, nil
}

// Reload replaces every source at once. The new snapshot, search index
// included, is built before it is swapped in; calls already running finish
// against the snapshot they started with, and a call pinned to a tool
// version the reload replaced answers tool_changed. On error the current
// sources stay.
func (s *Server) Reload(sources []Source) error {
	s.reload.Lock()
	defer s.reload.Unlock()
	snap, err := newSnapshot(sources, s.opts.Search)
	if err != nil {
		return err
	}
	s.snap.Store(snap)
	s.log.Info("reloaded", "sources", len(snap.sources), "tools", len(snap.byName))
	return nil
}

// ServeStdio serves one MCP session over the process's stdin and stdout
// until the client disconnects or ctx ends. The protocol owns stdout:
// nothing else may write to it while this runs.
func (s *Server) ServeStdio(ctx context.Context) error {
	return s.mcp.Run(ctx, &mcp.StdioTransport{})
}

// ServeIO serves one MCP session over r and w (newline-delimited JSON-RPC,
// as on stdio) until the client disconnects or ctx ends.
func (s *Server) ServeIO(ctx context.Context, r io.ReadCloser, w io.WriteCloser) error {
	return s.mcp.Run(ctx, &mcp.IOTransport{Reader: r, Writer: w})
}

var prefixPattern = regexp.MustCompile(`^[a-zA-Z0-9_-]{0,32}$`)

// snapshot is an immutable view of the sources; a reload replaces it whole.
type snapshot struct {
	sources []*source
	byName  map[string]toolRef // by the agent-facing (prefixed) name
}

type source struct {
	Source
	searcher *search.Searcher
}

type toolRef struct {
	src  *source
	tool *catalog.Tool
}

func newSnapshot(sources []Source, searchOpts *search.Options) (*snapshot, error) {
	if len(sources) == 0 {
		return nil, ErrNoSources
	}
	snap := &snapshot{byName: make(map[string]toolRef)}
	prefixes := make(map[string]bool)
	for i, src := range sources {
		if src.Catalog == nil || src.Invoker == nil {
			return nil, fmt.Errorf("%w: source %d has no catalog or no invoker", ErrBadSource, i)
		}
		if !prefixPattern.MatchString(src.Prefix) {
			return nil, fmt.Errorf("%w: prefix %q must match %s", ErrBadSource, src.Prefix, prefixPattern)
		}
		if prefixes[src.Prefix] {
			return nil, fmt.Errorf("%w: two sources have the prefix %q", ErrBadSource, src.Prefix)
		}
		prefixes[src.Prefix] = true
		if src.Name == "" {
			src.Name = src.Catalog.Title
		}
		se, err := search.New(src.Catalog, searchOpts)
		if err != nil {
			return nil, fmt.Errorf("%w: source %q: %v", ErrBadSource, src.Name, err)
		}
		sp := &source{Source: src, searcher: se}
		snap.sources = append(snap.sources, sp)
		for _, t := range src.Catalog.Tools() {
			name := src.Prefix + t.Name
			if len(name) > 64 {
				return nil, fmt.Errorf("%w: tool name %q is longer than 64 characters with its prefix", ErrBadSource, name)
			}
			if prev, ok := snap.byName[name]; ok {
				return nil, fmt.Errorf("%w: tool %q is in both %q and %q", ErrBadSource, name, prev.src.Name, src.Name)
			}
			snap.byName[name] = toolRef{src: sp, tool: t}
		}
	}
	return snap, nil
}

// minLevel passes on records at or above level: the SDK logs every session
// at Info, which would drown the per-call records.
type minLevel struct {
	slog.Handler
	level slog.Level
}

func (m minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= m.level && m.Handler.Enabled(ctx, l)
}

func (m minLevel) WithAttrs(as []slog.Attr) slog.Handler {
	return minLevel{m.Handler.WithAttrs(as), m.level}
}

func (m minLevel) WithGroup(name string) slog.Handler {
	return minLevel{m.Handler.WithGroup(name), m.level}
}
