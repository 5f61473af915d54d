package e2e

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sezzlee/sezzlee/demo"
)

// TestServeJWT runs the gateway with JWT authentication against a JWKS
// served here: the metadata document is public, a token for another
// audience gets 401, and a good token's subject becomes the order's owner.
func TestServeJWT(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	b64 := base64.RawURLEncoding.EncodeToString
	jwks, _ := json.Marshal(map[string]any{"keys": []map[string]string{{
		"kty": "RSA", "kid": "k1", "use": "sig", "n": b64(key.N.Bytes()), "e": b64(big.NewInt(int64(key.E)).Bytes()),
	}}})
	idp := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(jwks) }))
	t.Cleanup(idp.Close)
	sign := func(aud string) string {
		h, _ := json.Marshal(map[string]string{"alg": "RS256", "kid": "k1", "typ": "JWT"})
		c, _ := json.Marshal(map[string]any{"iss": "https://id.example/", "aud": aud, "sub": "frank", "exp": time.Now().Add(time.Hour).Unix()})
		in := b64(h) + "." + b64(c)
		sum := sha256.Sum256([]byte(in))
		sig, err := rsa.SignPKCS1v15(rand.Reader, key, crypto.SHA256, sum[:])
		if err != nil {
			t.Fatal(err)
		}
		return in + "." + b64(sig)
	}

	api := httptest.NewServer(demo.NewHandler(nil))
	t.Cleanup(api.Close)
	dir := t.TempDir()
	spec := filepath.Join(dir, "orders.yaml")
	writeFile(t, spec, string(demo.Description))
	cfg := filepath.Join(dir, "sezzlee.yaml")
	writeFile(t, cfg, fmt.Sprintf(`
auth:
  jwt: {jwksURL: %s, issuer: "https://id.example/", audience: "https://mcp.example/"}
  resourceMetadataURL: https://mcp.example/.well-known/oauth-protected-resource/mcp
sources:
  - {spec: %s, upstream: %s, allowPrivateNetworks: true, deferred: {owner: subject}}
`, idp.URL, spec, api.URL))
	url := start(t, nil, "serve", "--config", cfg, "--listen", "127.0.0.1:0").url(t)

	meta, err := http.Get(strings.TrimSuffix(url, "/mcp") + "/.well-known/oauth-protected-resource/mcp")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	_ = json.NewDecoder(meta.Body).Decode(&m)
	meta.Body.Close()
	if m["resource"] != "https://mcp.example/" {
		t.Errorf("protected resource metadata = %v, want resource https://mcp.example/", m)
	}

	req, _ := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+sign("https://other.example/"))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 || !strings.Contains(resp.Header.Get("WWW-Authenticate"), "oauth-protected-resource") {
		t.Errorf("wrong audience: status %d, WWW-Authenticate %q; want 401 naming the metadata", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}

	cs := connectHTTP(t, url, &http.Client{Transport: bearer(sign("https://mcp.example/"))})
	r := call(t, cs, "invoke_tool", map[string]any{"name": "createOrder", "arguments": map[string]any{"item": "lamp", "quantity": 1}})
	if r.isErr || !strings.Contains(r.raw, `"owner":"frank"`) {
		t.Errorf("createOrder with frank's token = %s, want an order owned by frank", r.raw)
	}
}
