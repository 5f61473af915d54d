package config

import (
	"strings"
	"testing"
	"time"
)

const good = `
listen: 127.0.0.1:8080
allowedOrigins: [https://app.example]
auth:
  jwt:
    jwksURL: https://id.example/.well-known/jwks.json
    issuer: https://id.example/
    audience: https://mcp.example/
    leeway: 30s
sources:
  - name: orders
    spec: ./orders.yaml
    upstream: https://orders.example/api
    prefix: orders_
    deferred: {owner: subject, tenant: 'claim:tenant_id'}
    timeout: 10s
    maxAgentBytes: 32768
    filter:
      includeTags: [orders]
      readOnly: true
    credentials:
      apiKey: {env: ORDERS_KEY}
      basic: {usernameEnv: B_USER, passwordEnv: B_PASS}
  - spec: https://billing.example/openapi.json
    upstream: https://billing.example
    prefix: billing_
`

func TestParseGood(t *testing.T) {
	c, err := Parse([]byte(good))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if got, want := len(c.Sources), 2; got != want {
		t.Fatalf("sources = %d, want %d", got, want)
	}
	s := c.Sources[0]
	if s.Timeout != 10*time.Second || s.MaxAgentBytes != 32768 || !s.Filter.ReadOnly || s.Credentials["apiKey"].Env != "ORDERS_KEY" {
		t.Errorf("source 0 = %+v, want timeout 10s, maxAgentBytes 32768, readOnly and apiKey from ORDERS_KEY", s)
	}
	if c.Auth.JWT.Leeway != 30*time.Second {
		t.Errorf("leeway = %v, want 30s", c.Auth.JWT.Leeway)
	}
}

func TestParseBad(t *testing.T) {
	tests := []struct {
		name, yaml, want string
	}{
		{"empty", ``, "the file is empty"},
		{"unknown top key", "listen: x\nsourcse: []\n", "line 2: field sourcse not found"},
		{"unknown nested key", "sources:\n  - spec: a.yaml\n    upstream: https://a.example\n    upstreem: x\n", "line 4: field upstreem not found"},
		{"inline secret", "sources:\n  - spec: a.yaml\n    upstream: https://a.example\n    credentials:\n      k: {value: sk_live_123}\n", "line 5: field value not found"},
		{"wrong type", "stateless: sometimes\n", "line 1: cannot unmarshal"},
		{"bad duration", "sources:\n  - spec: a\n    upstream: https://a.example\n    timeout: soon\n", "line 4"},
		{"missing spec", "sources:\n  - upstream: https://a.example\n", "sources[0].spec is required"},
		{"missing upstream", "sources:\n  - spec: a.yaml\n", "sources[0].upstream is required"},
		{"upstream not http", "sources:\n  - spec: a.yaml\n    upstream: ftp://a.example\n", "is not an http(s) URL"},
		{"duplicate prefix", "sources:\n  - {spec: a, upstream: 'https://a.example'}\n  - {spec: b, upstream: 'https://b.example'}\n", `prefix "" is already the prefix of sources[0]`},
		{"bad prefix", "sources:\n  - {spec: a, upstream: 'https://a.example', prefix: 'a b'}\n", "must be at most 32 letters"},
		{"secret value as env", "sources:\n  - spec: a\n    upstream: https://a.example\n    credentials:\n      k: {env: 'sk_live 123'}\n", "is not an environment variable name"},
		{"half basic", "sources:\n  - spec: a\n    upstream: https://a.example\n    credentials:\n      k: {usernameEnv: U}\n", "set env, or both usernameEnv and passwordEnv"},
		{"two auth modes", "auth:\n  apiKeys: [{name: a, env: A}]\n  jwt: {jwksURL: 'https://x.example/j', issuer: i, audience: a}\n", "exactly one of"},
		{"no auth mode", "auth: {}\n", "exactly one of"},
		{"jwt incomplete", "auth:\n  jwt: {jwksURL: 'https://x.example/j'}\n", "needs jwksURL, issuer and audience"},
		{"jwt bad alg", "auth:\n  jwt: {jwksURL: 'https://x.example/j', issuer: i, audience: a, algorithms: [none]}\n", `"none" is not supported`},
		{"api key without env", "auth:\n  apiKeys: [{name: ci}]\n", "needs name and env"},
		{"bad origin", "allowedOrigins: [app.example]\n", "is not an origin"},
		{"bad path", "path: mcp\n", "must start with /"},
		{"deferred list", "sources:\n  - spec: a\n    upstream: https://a.example\n    deferred: [owner]\n", "line 4: cannot unmarshal"},
		{"deferred bad source", "sources:\n  - spec: a\n    upstream: https://a.example\n    deferred: {owner: header}\n", `"header" must be subject or claim:NAME`},
		{"two documents", "listen: a\n---\nlisten: b\n", "more than one YAML document"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.yaml))
			if err == nil {
				t.Fatalf("Parse succeeded, want an error containing %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %q, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestSecretResolve(t *testing.T) {
	env := map[string]string{"SET": "s3cret"}
	getenv := func(k string) string { return env[k] }
	if v, err := Secret("SET").Resolve(getenv); err != nil || v != "s3cret" {
		t.Errorf("Resolve(SET) = %q, %v; want s3cret", v, err)
	}
	_, err := Secret("UNSET").Resolve(getenv)
	if err == nil || !strings.Contains(err.Error(), "UNSET is not set") {
		t.Errorf("Resolve(UNSET) error = %v, want it to name UNSET", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(good))
	f.Add([]byte("sources: [{spec: a}]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data)
		if err == nil && c == nil {
			t.Fatal("Parse returned neither a config nor an error")
		}
	})
}
