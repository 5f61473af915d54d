package mcpserver

import (
	"context"
	"errors"
	"log/slog"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// inboundHeader carries, from the HTTP layer to the tool handler, the
// reference under which the inbound request's context is kept while the
// request runs. The SDK hands a tool handler the request's header but not
// its context; any value a client sends in this header is replaced.
const inboundHeader = "Sezzlee-Inbound-Ref"

// callerExtra is the key of the Caller in auth.TokenInfo.Extra.
const callerExtra = "sezzlee.caller"

// Handler returns the streamable HTTP handler of the MCP endpoint. Mount it
// at the path clients will use (conventionally /mcp). Each call to Handler
// returns a handler with its own sessions.
//
// In order, a request is checked for an allowed Origin (403 otherwise), for
// a valid bearer token when a Verifier is set (401 otherwise), and by
// Identify when set; the SDK then checks that a request arriving on a
// loopback address names a loopback Host (403 otherwise, against DNS
// rebinding) and bounds the body (413).
//
// Unless Options.DisableFastPath is set, a plain tools/call of a meta-tool
// that passes all of these checks, on a live session, is answered without
// the SDK's read path, with the same bytes the SDK would write; every other
// request goes to the SDK.
func (s *Server) Handler() http.Handler {
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, &mcp.StreamableHTTPOptions{
		Stateless:           s.opts.Stateless,
		MaxRequestBodyBytes: s.opts.MaxRequestBytes,
		SessionTimeout:      s.opts.SessionIdle,
		Logger:              slog.New(minLevel{s.log.Handler(), slog.LevelWarn}),
	})
	h = s.carry(h)
	if !s.opts.DisableFastPath {
		h = s.newFastPath(h)
	}
	h = s.identify(h)
	if s.opts.Verifier != nil {
		h = auth.RequireBearerToken(s.verifyToken, &auth.RequireBearerTokenOptions{
			ResourceMetadataURL: s.opts.ResourceMetadataURL,
			// API keys carry no expiry; the JWT verifier requires exp itself.
			AllowMissingExpiration: true,
		})(h)
	}
	return s.checkOrigin(h)
}

// verifyToken adapts the Verifier to the SDK's middleware. Every failure
// answers the client the same 401; the cause goes to the log only.
func (s *Server) verifyToken(ctx context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	c, err := s.opts.Verifier.Verify(ctx, token)
	if err != nil || c == nil {
		if !errors.Is(err, ErrInvalidToken) {
			s.log.Warn("token verification failed", "error", err)
		} else {
			s.log.Info("token refused", "error", err)
		}
		return nil, auth.ErrInvalidToken
	}
	return &auth.TokenInfo{
		Scopes:     c.Scopes,
		Expiration: c.Expires,
		UserID:     c.Subject,
		Extra:      map[string]any{callerExtra: c},
	}, nil
}

func (s *Server) checkOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); o != "" && !contains(s.opts.AllowedOrigins, o) {
			http.Error(w, "Forbidden: origin not allowed", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// identify puts the request's Caller in its context: from the verified
// token, then Identify, then LocalCaller.
func (s *Server) identify(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var c *Caller
		if ti := auth.TokenInfoFromContext(r.Context()); ti != nil {
			c, _ = ti.Extra[callerExtra].(*Caller)
		}
		if s.opts.Identify != nil {
			ic, err := s.opts.Identify(r)
			if err != nil {
				s.log.Info("caller not identified", "error", err)
				http.Error(w, "Unauthorized", http.StatusUnauthorized)
				return
			}
			if ic != nil {
				c = ic
			}
		}
		if c == nil {
			c = s.opts.LocalCaller
		}
		if c != nil {
			r = r.WithContext(WithCaller(r.Context(), c))
		}
		next.ServeHTTP(w, r)
	})
}

// carry keeps the inbound request's context under a fresh reference for
// as long as the request runs, so the tool handler can find it.
func (s *Server) carry(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ref := newReference()
		r2 := r.Clone(r.Context())
		r2.Header.Set(inboundHeader, ref)
		s.inbound.Store(ref, r.Context())
		defer s.inbound.Delete(ref)
		next.ServeHTTP(w, r2)
	})
}

// callContext gives a tool call the values of the inbound HTTP request's
// context (the Caller, and whatever an embedding program put there) while
// keeping the SDK's cancellation. A session without HTTP (stdio) gets the
// LocalCaller.
func (s *Server) callContext(ctx context.Context, extra *mcp.RequestExtra) context.Context {
	if extra != nil && extra.Header != nil {
		if v, ok := s.inbound.Load(extra.Header.Get(inboundHeader)); ok {
			return inboundContext{Context: ctx, values: v.(context.Context)}
		}
		// The inbound request is gone (its client left mid-call): name the
		// caller from what the SDK kept.
		if ti := extra.TokenInfo; ti != nil {
			if c, ok := ti.Extra[callerExtra].(*Caller); ok {
				return WithCaller(ctx, c)
			}
		}
		if s.opts.Verifier == nil && s.opts.Identify == nil && s.opts.LocalCaller != nil {
			return WithCaller(ctx, s.opts.LocalCaller)
		}
		return ctx
	}
	if s.opts.LocalCaller != nil {
		return WithCaller(ctx, s.opts.LocalCaller)
	}
	return ctx
}

// inboundContext is the call's context with the inbound request's values
// looked up first.
type inboundContext struct {
	context.Context
	values context.Context
}

func (c inboundContext) Value(key any) any {
	if v := c.values.Value(key); v != nil {
		return v
	}
	return c.Context.Value(key)
}

// ResourceMetadata describes this server as an OAuth protected resource
// (RFC 9728), so that a client refused with 401 can find where to get a
// token.
type ResourceMetadata struct {
	// Resource is the server's resource identifier: the audience its
	// tokens must carry. Required.
	Resource string
	// AuthorizationServers are the issuers that grant tokens for it.
	AuthorizationServers []string
	// Scopes are the scopes it understands. Zero lists none.
	Scopes []string
}

// ResourceMetadataHandler serves m as the JSON document clients fetch from
// /.well-known/oauth-protected-resource.
func ResourceMetadataHandler(m ResourceMetadata) http.Handler {
	return auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource:               m.Resource,
		AuthorizationServers:   m.AuthorizationServers,
		ScopesSupported:        m.Scopes,
		BearerMethodsSupported: []string{"header"},
	})
}
