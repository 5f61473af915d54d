package mcpserver

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/sezzlee/sezzlee/catalog"
	"github.com/sezzlee/sezzlee/invoke"
)

// Caller is the authenticated party behind a call. It reaches the
// invoker's hooks (deferred values, credential mapping) through the call's
// context; see CallerFromContext.
type Caller struct {
	// Subject identifies the caller: the token's sub, the API key's name,
	// or the local user.
	Subject string
	// Scopes are the scopes the token grants, when it says.
	Scopes []string
	// Claims are the token's claims (JWT or introspection), nil for API keys.
	Claims map[string]any
	// Expires is when the token stops being valid; zero when unknown.
	Expires time.Time
}

type callerKey struct{}

// WithCaller returns a copy of ctx carrying c.
func WithCaller(ctx context.Context, c *Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// CallerFromContext returns the caller ctx carries, if any.
func CallerFromContext(ctx context.Context) (*Caller, bool) {
	c, ok := ctx.Value(callerKey{}).(*Caller)
	return c, ok && c != nil
}

// Verifier checks a bearer token and names its caller. A token that is not
// valid must yield an error wrapping ErrInvalidToken; any other error is
// treated the same way for the client and logged.
type Verifier interface {
	Verify(ctx context.Context, token string) (*Caller, error)
}

// VerifierFunc adapts a function to Verifier.
type VerifierFunc func(ctx context.Context, token string) (*Caller, error)

// Verify calls f.
func (f VerifierFunc) Verify(ctx context.Context, token string) (*Caller, error) {
	return f(ctx, token)
}

// ErrInvalidToken is wrapped by every verification failure.
var ErrInvalidToken = errors.New("invalid token")

// APIKeys returns a Verifier for static API keys sent as bearer tokens:
// keys maps each key to the subject it stands for. Keys are compared in
// constant time, and every key is compared on every call.
func APIKeys(keys map[string]string) Verifier {
	type entry struct {
		sum     [32]byte
		subject string
	}
	entries := make([]entry, 0, len(keys))
	for k, sub := range keys {
		entries = append(entries, entry{sha256.Sum256([]byte(k)), sub})
	}
	return VerifierFunc(func(_ context.Context, token string) (*Caller, error) {
		sum := sha256.Sum256([]byte(token))
		found := -1
		for i, e := range entries {
			if subtle.ConstantTimeCompare(sum[:], e.sum[:]) == 1 {
				found = i
			}
		}
		if found < 0 {
			return nil, fmt.Errorf("%w: unknown API key", ErrInvalidToken)
		}
		return &Caller{Subject: entries[found].subject}, nil
	})
}

// JWTOptions configures NewJWTVerifier. Each field documents its zero value.
type JWTOptions struct {
	// JWKSURL is where the authorization server publishes its signing keys.
	// Required.
	JWKSURL string
	// Issuer is the iss every token must carry. Required.
	Issuer string
	// Audience is a value the token's aud must contain: this server's
	// resource identifier. Required.
	Audience string
	// Algorithms are the accepted signing algorithms.
	// Zero means RS256 and ES256.
	Algorithms []string
	// Leeway tolerates clock skew on exp, nbf and iat. Zero means none.
	Leeway time.Duration
	// FetchTimeout bounds each JWKS fetch. Zero means 10 seconds.
	FetchTimeout time.Duration
	// CacheFor is how long fetched keys are used before they are fetched
	// again; a token naming an unknown kid refetches sooner, at most once a
	// minute. Zero means 15 minutes.
	CacheFor time.Duration
	// Client fetches the JWKS. Zero means a client with FetchTimeout.
	Client *http.Client
}

// NewJWTVerifier returns a Verifier for JWTs signed by a key of a JWKS,
// checking signature, algorithm, issuer, audience and expiry (exp is
// required). The subject is the sub claim; scopes come from scope (space
// separated) or scp.
func NewJWTVerifier(opts *JWTOptions) (Verifier, error) {
	if opts == nil || opts.JWKSURL == "" || opts.Issuer == "" || opts.Audience == "" {
		return nil, errors.New("mcpserver: a JWT verifier needs a JWKS URL, an issuer and an audience")
	}
	if u, err := url.Parse(opts.JWKSURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("mcpserver: JWKS URL %q is not an http(s) URL", opts.JWKSURL)
	}
	v := &jwtVerifier{opts: *opts}
	if len(v.opts.Algorithms) == 0 {
		v.opts.Algorithms = []string{"RS256", "ES256"}
	}
	if v.opts.FetchTimeout == 0 {
		v.opts.FetchTimeout = 10 * time.Second
	}
	if v.opts.CacheFor == 0 {
		v.opts.CacheFor = 15 * time.Minute
	}
	if v.opts.Client == nil {
		v.opts.Client = &http.Client{Timeout: v.opts.FetchTimeout}
	}
	return v, nil
}

type jwtVerifier struct {
	opts JWTOptions

	mu      sync.Mutex
	keys    map[string]any // by kid
	fetched time.Time
}

func (v *jwtVerifier) Verify(ctx context.Context, token string) (*Caller, error) {
	claims := jwt.MapClaims{}
	_, err := jwt.ParseWithClaims(token, claims, func(t *jwt.Token) (any, error) {
		kid, _ := t.Header["kid"].(string)
		return v.key(ctx, kid)
	},
		jwt.WithValidMethods(v.opts.Algorithms),
		jwt.WithIssuer(v.opts.Issuer),
		jwt.WithAudience(v.opts.Audience),
		jwt.WithExpirationRequired(),
		jwt.WithLeeway(v.opts.Leeway),
	)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidToken, err)
	}
	c := &Caller{Claims: claims}
	c.Subject, _ = claims["sub"].(string)
	if exp, err := claims.GetExpirationTime(); err == nil && exp != nil {
		c.Expires = exp.Time
	}
	c.Scopes = scopes(claims)
	return c, nil
}

func scopes(claims map[string]any) []string {
	if s, ok := claims["scope"].(string); ok {
		return strings.Fields(s)
	}
	var out []string
	if list, ok := claims["scp"].([]any); ok {
		for _, x := range list {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

// key returns the verification key for kid, fetching the JWKS when the
// cache is stale or does not know kid (no more than once a minute then).
func (v *jwtVerifier) key(ctx context.Context, kid string) (any, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	age := time.Since(v.fetched)
	k, known := v.keys[kid]
	if known && age < v.opts.CacheFor {
		return k, nil
	}
	if v.keys == nil || age >= v.opts.CacheFor || (!known && age >= time.Minute) {
		keys, err := v.fetch(ctx)
		if err != nil {
			if known { // keep using a stale key rather than lock everyone out
				return k, nil
			}
			return nil, err
		}
		v.keys, v.fetched = keys, time.Now()
	}
	if k, ok := v.keys[kid]; ok {
		return k, nil
	}
	if kid == "" && len(v.keys) == 1 {
		for _, k := range v.keys {
			return k, nil
		}
	}
	return nil, fmt.Errorf("no signing key with kid %q", kid)
}

func (v *jwtVerifier) fetch(ctx context.Context) (map[string]any, error) {
	ctx, cancel := context.WithTimeout(ctx, v.opts.FetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, v.opts.JWKSURL, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := v.opts.Client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetching the JWKS: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetching the JWKS: status %d", resp.StatusCode)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("reading the JWKS: %w", err)
	}
	return ParseJWKS(data)
}

// ParseJWKS reads a JSON Web Key Set and returns its RSA and P-256/P-384
// EC public keys by kid. Keys of other types, or meant for encryption, are
// left out; a set with no usable key is an error.
func ParseJWKS(data []byte) (map[string]any, error) {
	var set struct {
		Keys []struct {
			Kty string `json:"kty"`
			Kid string `json:"kid"`
			Use string `json:"use"`
			N   string `json:"n"`
			E   string `json:"e"`
			Crv string `json:"crv"`
			X   string `json:"x"`
			Y   string `json:"y"`
		} `json:"keys"`
	}
	if err := json.Unmarshal(data, &set); err != nil {
		return nil, fmt.Errorf("the JWKS is not valid JSON: %w", err)
	}
	keys := make(map[string]any)
	for _, k := range set.Keys {
		if k.Use != "" && k.Use != "sig" {
			continue
		}
		switch k.Kty {
		case "RSA":
			n, err1 := b64int(k.N)
			e, err2 := b64int(k.E)
			if err1 != nil || err2 != nil || !e.IsInt64() || e.Int64() < 3 || e.Int64() > 1<<31-1 || n.BitLen() < 2048 {
				continue
			}
			keys[k.Kid] = &rsa.PublicKey{N: n, E: int(e.Int64())}
		case "EC":
			var curve elliptic.Curve
			switch k.Crv {
			case "P-256":
				curve = elliptic.P256()
			case "P-384":
				curve = elliptic.P384()
			default:
				continue
			}
			x, err1 := b64int(k.X)
			y, err2 := b64int(k.Y)
			if err1 != nil || err2 != nil || !curve.IsOnCurve(x, y) {
				continue
			}
			keys[k.Kid] = &ecdsa.PublicKey{Curve: curve, X: x, Y: y}
		}
	}
	if len(keys) == 0 {
		return nil, errors.New("the JWKS holds no usable signing key")
	}
	return keys, nil
}

func b64int(s string) (*big.Int, error) {
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
	if err != nil || len(b) == 0 {
		return nil, errors.New("bad base64url integer")
	}
	return new(big.Int).SetBytes(b), nil
}

// IntrospectionOptions configures NewIntrospectionVerifier. Each field
// documents its zero value.
type IntrospectionOptions struct {
	// URL is the authorization server's RFC 7662 introspection endpoint.
	// Required.
	URL string
	// ClientID and ClientSecret authenticate this server to the endpoint
	// (HTTP Basic). Zero sends no client authentication.
	ClientID, ClientSecret string
	// Audience is a value the token's aud must contain. Required.
	Audience string
	// Timeout bounds each introspection request. Zero means 10 seconds.
	Timeout time.Duration
	// Client sends the requests. Zero means a client with Timeout.
	Client *http.Client
}

// NewIntrospectionVerifier returns a Verifier that asks the authorization
// server about each token (RFC 7662): the token must be active, contain
// Audience in aud and not be expired.
func NewIntrospectionVerifier(opts *IntrospectionOptions) (Verifier, error) {
	if opts == nil || opts.URL == "" || opts.Audience == "" {
		return nil, errors.New("mcpserver: an introspection verifier needs an endpoint URL and an audience")
	}
	o := *opts
	if o.Timeout == 0 {
		o.Timeout = 10 * time.Second
	}
	if o.Client == nil {
		o.Client = &http.Client{Timeout: o.Timeout}
	}
	return VerifierFunc(func(ctx context.Context, token string) (*Caller, error) {
		ctx, cancel := context.WithTimeout(ctx, o.Timeout)
		defer cancel()
		form := url.Values{"token": {token}, "token_type_hint": {"access_token"}}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.URL, strings.NewReader(form.Encode()))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Accept", "application/json")
		if o.ClientID != "" {
			req.SetBasicAuth(url.QueryEscape(o.ClientID), url.QueryEscape(o.ClientSecret))
		}
		resp, err := o.Client.Do(req)
		if err != nil {
			return nil, fmt.Errorf("introspection: %w", err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("introspection: status %d", resp.StatusCode)
		}
		claims := map[string]any{}
		if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&claims); err != nil {
			return nil, fmt.Errorf("introspection: %w", err)
		}
		if active, _ := claims["active"].(bool); !active {
			return nil, fmt.Errorf("%w: the token is not active", ErrInvalidToken)
		}
		if !hasAudience(claims["aud"], o.Audience) {
			return nil, fmt.Errorf("%w: the token is not for this audience", ErrInvalidToken)
		}
		c := &Caller{Claims: claims, Scopes: scopes(claims)}
		c.Subject, _ = claims["sub"].(string)
		if exp, ok := claims["exp"].(float64); ok {
			c.Expires = time.Unix(int64(exp), 0)
			if time.Now().After(c.Expires) {
				return nil, fmt.Errorf("%w: the token has expired", ErrInvalidToken)
			}
		}
		return c, nil
	}), nil
}

func hasAudience(aud any, want string) bool {
	switch a := aud.(type) {
	case string:
		return a == want
	case []any:
		for _, x := range a {
			if s, ok := x.(string); ok && s == want {
				return true
			}
		}
	}
	return false
}

// DeferredFromCaller returns an invoke.DeferredResolver that supplies
// deferred arguments from the call's Caller: each of subjectArgs gets the
// caller's Subject, and any other name gets the caller's claim of that
// name when there is one. Without a caller, or a value, the argument is
// missing and invoke answers deferred_value_missing.
func DeferredFromCaller(subjectArgs ...string) invoke.DeferredResolver {
	return func(ctx context.Context, _ *catalog.Tool, name string) (any, bool, error) {
		c, ok := CallerFromContext(ctx)
		if !ok {
			return nil, false, nil
		}
		for _, a := range subjectArgs {
			if a == name {
				return c.Subject, c.Subject != "", nil
			}
		}
		v, ok := c.Claims[name]
		return v, ok && v != nil, nil
	}
}
