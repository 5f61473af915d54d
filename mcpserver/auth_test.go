package mcpserver

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// issuer is a test authorization server: it signs JWTs with real RSA and
// ECDSA keys and publishes them as a JWKS over httptest.
type issuer struct {
	rsa     *rsa.PrivateKey
	ec      *ecdsa.PrivateKey
	url     string
	fetches atomic.Int32
}

func newIssuer(t *testing.T) *issuer {
	t.Helper()
	rk, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	ek, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	is := &issuer{rsa: rk, ec: ek}
	b64 := func(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }
	jwks, _ := json.Marshal(map[string]any{"keys": []map[string]string{
		{"kty": "RSA", "kid": "r1", "use": "sig", "alg": "RS256", "n": b64(rk.N.Bytes()), "e": b64(big.NewInt(int64(rk.E)).Bytes())},
		{"kty": "EC", "kid": "e1", "use": "sig", "crv": "P-256", "x": b64(ek.X.FillBytes(make([]byte, 32))), "y": b64(ek.Y.FillBytes(make([]byte, 32)))},
	}})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		is.fetches.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write(jwks)
	}))
	t.Cleanup(ts.Close)
	is.url = ts.URL
	return is
}

// sign builds a compact JWS by hand, so the test does not trust the
// library it is testing against.
func (is *issuer) sign(t *testing.T, alg string, claims map[string]any) string {
	t.Helper()
	kid := map[string]string{"RS256": "r1", "ES256": "e1"}[alg]
	h, _ := json.Marshal(map[string]string{"alg": alg, "typ": "JWT", "kid": kid})
	c, _ := json.Marshal(claims)
	input := base64.RawURLEncoding.EncodeToString(h) + "." + base64.RawURLEncoding.EncodeToString(c)
	sum := sha256.Sum256([]byte(input))
	var sig []byte
	var err error
	switch alg {
	case "RS256":
		sig, err = rsa.SignPKCS1v15(rand.Reader, is.rsa, crypto.SHA256, sum[:])
	case "ES256":
		var r, s *big.Int
		r, s, err = ecdsa.Sign(rand.Reader, is.ec, sum[:])
		if err == nil {
			sig = append(r.FillBytes(make([]byte, 32)), s.FillBytes(make([]byte, 32))...)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return input + "." + base64.RawURLEncoding.EncodeToString(sig)
}

const (
	testIssuer   = "https://id.example/"
	testAudience = "https://mcp.example/"
)

func claims(mod func(map[string]any)) map[string]any {
	c := map[string]any{
		"iss": testIssuer, "aud": testAudience, "sub": "carol",
		"exp": time.Now().Add(time.Hour).Unix(), "scope": "orders:read orders:write",
	}
	if mod != nil {
		mod(c)
	}
	return c
}

func TestJWTVerifier(t *testing.T) {
	is := newIssuer(t)
	v, err := NewJWTVerifier(&JWTOptions{JWKSURL: is.url, Issuer: testIssuer, Audience: testAudience})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		token string
		sub   string // empty: want refusal
	}{
		{"RS256 good", is.sign(t, "RS256", claims(nil)), "carol"},
		{"ES256 good", is.sign(t, "ES256", claims(nil)), "carol"},
		{"audience list", is.sign(t, "RS256", claims(func(c map[string]any) { c["aud"] = []string{"x", testAudience} })), "carol"},
		{"wrong audience", is.sign(t, "RS256", claims(func(c map[string]any) { c["aud"] = "https://other.example/" })), ""},
		{"wrong issuer", is.sign(t, "RS256", claims(func(c map[string]any) { c["iss"] = "https://evil.example/" })), ""},
		{"expired", is.sign(t, "RS256", claims(func(c map[string]any) { c["exp"] = time.Now().Add(-time.Minute).Unix() })), ""},
		{"no expiry", is.sign(t, "RS256", claims(func(c map[string]any) { delete(c, "exp") })), ""},
		{"not yet valid", is.sign(t, "RS256", claims(func(c map[string]any) { c["nbf"] = time.Now().Add(time.Hour).Unix() })), ""},
		{"tampered", tamper(is.sign(t, "RS256", claims(nil))), ""},
		{"alg none", unsigned(claims(nil)), ""},
		{"garbage", "not.a.jwt", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := v.Verify(context.Background(), tt.token)
			if tt.sub == "" {
				if err == nil || !errors.Is(err, ErrInvalidToken) {
					t.Errorf("Verify = %v, %v; want ErrInvalidToken", c, err)
				}
				return
			}
			if err != nil || c.Subject != tt.sub || len(c.Scopes) != 2 || c.Expires.IsZero() {
				t.Errorf("Verify = %+v, %v; want subject %s with 2 scopes and an expiry", c, err, tt.sub)
			}
		})
	}
	if n := is.fetches.Load(); n != 1 {
		t.Errorf("JWKS fetched %d times, want 1 (cached)", n)
	}
}

func tamper(tok string) string {
	parts := strings.Split(tok, ".")
	c, _ := json.Marshal(claims(func(c map[string]any) { c["sub"] = "mallory" }))
	parts[1] = base64.RawURLEncoding.EncodeToString(c)
	return strings.Join(parts, ".")
}

func unsigned(claims map[string]any) string {
	h, _ := json.Marshal(map[string]string{"alg": "none", "typ": "JWT"})
	c, _ := json.Marshal(claims)
	return base64.RawURLEncoding.EncodeToString(h) + "." + base64.RawURLEncoding.EncodeToString(c) + "."
}

// authClient adds a bearer token to every request.
type authClient struct{ token string }

func (a authClient) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+a.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestBearerOverHTTP checks the whole HTTP path: refusals answer 401 with
// no MCP exchange, and an accepted caller reaches the invoker through ctx
// while the token itself is not sent to the backend.
func TestBearerOverHTTP(t *testing.T) {
	is := newIssuer(t)
	v, err := NewJWTVerifier(&JWTOptions{JWKSURL: is.url, Issuer: testIssuer, Audience: testAudience})
	if err != nil {
		t.Fatal(err)
	}
	s := newServer(t, &Options{
		Sources:             []Source{callerSource(t)},
		Verifier:            v,
		ResourceMetadataURL: "https://mcp.example/.well-known/oauth-protected-resource",
		LocalCaller:         &Caller{Subject: "local-must-not-be-used"},
	})
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)

	for _, tt := range []struct{ name, token string }{
		{"missing", ""},
		{"wrong audience", is.sign(t, "RS256", claims(func(c map[string]any) { c["aud"] = "https://other.example/" }))},
		{"expired", is.sign(t, "RS256", claims(func(c map[string]any) { c["exp"] = time.Now().Add(-time.Hour).Unix() }))},
	} {
		req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tt.token != "" {
			req.Header.Set("Authorization", "Bearer "+tt.token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 401 || !strings.Contains(resp.Header.Get("WWW-Authenticate"), "resource_metadata=") {
			t.Errorf("%s: status %d WWW-Authenticate %q, want 401 naming the resource metadata", tt.name, resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
		}
	}

	cs := connectURL(t, ts.URL, &http.Client{Transport: authClient{is.sign(t, "RS256", claims(nil))}})
	if got := whoAmI(t, cs); got != "carol" {
		t.Errorf("backend saw caller %q, want carol with no Authorization header", got)
	}
}

func TestAPIKeys(t *testing.T) {
	v := APIKeys(map[string]string{"key-one-0123456789": "ci", "key-two-0123456789": "ops"})
	for _, tt := range []struct{ key, want string }{
		{"key-one-0123456789", "ci"},
		{"key-two-0123456789", "ops"},
		{"key-one-012345678", ""},
		{"", ""},
	} {
		c, err := v.Verify(context.Background(), tt.key)
		switch {
		case tt.want == "" && !errors.Is(err, ErrInvalidToken):
			t.Errorf("Verify(%q) = %v, %v; want ErrInvalidToken", tt.key, c, err)
		case tt.want != "" && (err != nil || c.Subject != tt.want):
			t.Errorf("Verify(%q) = %v, %v; want subject %s", tt.key, c, err, tt.want)
		}
	}

	s := newServer(t, &Options{Sources: []Source{callerSource(t)}, Verifier: v})
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	cs := connectURL(t, ts.URL, &http.Client{Transport: authClient{"key-two-0123456789"}})
	if got := whoAmI(t, cs); got != "ops" {
		t.Errorf("backend saw caller %q, want ops", got)
	}
	c := connectRefused(t, ts.URL, "wrong-key")
	if c == nil {
		t.Error("connecting with a wrong key succeeded")
	}
}

func connectRefused(t *testing.T, url, key string) error {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode == 401 {
		return errors.New("401")
	}
	return nil
}

func TestIntrospectionVerifier(t *testing.T) {
	var gotAuth atomic.Value
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, pass, _ := r.BasicAuth()
		gotAuth.Store(user + ":" + pass)
		_ = r.ParseForm()
		resp := map[string]any{"active": false}
		switch r.PostForm.Get("token") {
		case "good":
			resp = map[string]any{"active": true, "sub": "dave", "aud": testAudience, "scope": "a b", "exp": time.Now().Add(time.Hour).Unix()}
		case "other-audience":
			resp = map[string]any{"active": true, "sub": "dave", "aud": "https://other.example/"}
		case "expired":
			resp = map[string]any{"active": true, "sub": "dave", "aud": []string{testAudience}, "exp": time.Now().Add(-time.Hour).Unix()}
		}
		json.NewEncoder(w).Encode(resp)
	}))
	t.Cleanup(ts.Close)
	v, err := NewIntrospectionVerifier(&IntrospectionOptions{URL: ts.URL, Audience: testAudience, ClientID: "mcp", ClientSecret: "s3"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := v.Verify(context.Background(), "good")
	if err != nil || c.Subject != "dave" || len(c.Scopes) != 2 {
		t.Errorf("Verify(good) = %+v, %v; want dave with 2 scopes", c, err)
	}
	if got := gotAuth.Load(); got != "mcp:s3" {
		t.Errorf("client authentication = %v, want mcp:s3", got)
	}
	for _, tok := range []string{"inactive", "other-audience", "expired"} {
		if _, err := v.Verify(context.Background(), tok); !errors.Is(err, ErrInvalidToken) {
			t.Errorf("Verify(%s) error = %v, want ErrInvalidToken", tok, err)
		}
	}
}

func TestIdentifyCarriesHostContext(t *testing.T) {
	s := newServer(t, &Options{
		Sources: []Source{callerSource(t)},
		Identify: func(r *http.Request) (*Caller, error) {
			if u := r.Header.Get("X-App-User"); u != "" {
				return &Caller{Subject: u}, nil
			}
			return nil, errors.New("no session")
		},
	})
	// The host program's own middleware puts a value in the request context.
	h := s.Handler()
	host := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), hostKey{}, "tenant-7")))
	})
	ts := httptest.NewServer(host)
	t.Cleanup(ts.Close)
	cs := connectURL(t, ts.URL, &http.Client{Transport: headerClient{"X-App-User", "erin"}})
	if got := whoAmI(t, cs); got != "erin+tenant-7" {
		t.Errorf("backend saw %q, want erin+tenant-7 (caller and host context value)", got)
	}
	if err := connectRefused(t, ts.URL, "any"); err == nil {
		t.Error("a request Identify refused was served, want 401")
	}
}

type headerClient struct{ k, v string }

func (h headerClient) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.k, h.v)
	return http.DefaultTransport.RoundTrip(r)
}

func TestParseJWKSRejectsWeakKeys(t *testing.T) {
	weak, _ := rsa.GenerateKey(rand.Reader, 1024)
	b64 := func(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }
	data, _ := json.Marshal(map[string]any{"keys": []map[string]string{
		{"kty": "RSA", "kid": "w", "n": b64(weak.N.Bytes()), "e": "AQAB"},
		{"kty": "EC", "kid": "off", "crv": "P-256", "x": b64([]byte{1}), "y": b64([]byte{2})},
		{"kty": "oct", "kid": "sym", "k": "c2VjcmV0"},
	}})
	if keys, err := ParseJWKS(data); err == nil {
		t.Errorf("ParseJWKS = %v, want an error: no usable key", keys)
	}
}

func FuzzParseJWKS(f *testing.F) {
	f.Add([]byte(`{"keys":[{"kty":"RSA","kid":"a","n":"AQAB","e":"AQAB"}]}`))
	f.Add([]byte(`{"keys":[{"kty":"EC","crv":"P-256","x":"AA","y":"AA"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		keys, err := ParseJWKS(data)
		if err == nil && len(keys) == 0 {
			t.Fatal("no error and no keys")
		}
	})
}

func TestResourceMetadataHandler(t *testing.T) {
	ts := httptest.NewServer(ResourceMetadataHandler(ResourceMetadata{Resource: testAudience, AuthorizationServers: []string{testIssuer}}))
	t.Cleanup(ts.Close)
	resp, err := http.Get(ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m struct {
		Resource string   `json:"resource"`
		Servers  []string `json:"authorization_servers"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatal(err)
	}
	if m.Resource != testAudience || len(m.Servers) != 1 || m.Servers[0] != testIssuer {
		t.Errorf("metadata = %+v, want resource %s issued by %s", m, testAudience, testIssuer)
	}
}
