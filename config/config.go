// Package config reads the YAML configuration of `sezzlee serve`: the
// descriptions to serve (each with its upstream, tool-name prefix, filter,
// deferred values, credentials, limits and timeout), how the MCP endpoint
// listens, and how callers authenticate.
//
// Decoding is strict: an unknown key or a value of the wrong type is an
// error naming its line. Secrets never appear in the file: a credential or
// API key names the environment variable that holds it, and the value is
// read only when the server is wired (see Secret.Resolve).
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"regexp"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Config is a whole configuration file.
type Config struct {
	// Listen is the address of the MCP endpoint. Empty leaves it to the
	// --listen flag or its default, 127.0.0.1.
	Listen string `yaml:"listen"`
	// Path is the URL path of the MCP endpoint. Empty means "/mcp".
	Path string `yaml:"path"`
	// Stateless serves each HTTP request with a temporary MCP session.
	Stateless bool `yaml:"stateless"`
	// AllowedOrigins are the browser origins allowed to call the endpoint;
	// empty refuses every request that carries an Origin.
	AllowedOrigins []string `yaml:"allowedOrigins"`
	// MaxRequestBytes bounds an MCP request body; zero means 1 MiB.
	MaxRequestBytes int64 `yaml:"maxRequestBytes"`
	// Auth says how callers authenticate; nil means they do not, which is
	// only allowed on a loopback address.
	Auth *Auth `yaml:"auth"`
	// Sources are the descriptions served.
	Sources []Source `yaml:"sources"`
}

// Source is one description with its upstream.
type Source struct {
	// Name labels the source in logs; empty means the description's title.
	Name string `yaml:"name"`
	// Spec is the description's file path or http(s) URL. Required.
	Spec string `yaml:"spec"`
	// Upstream is the API's base URL. Required.
	Upstream string `yaml:"upstream"`
	// Prefix is prepended to the source's tool names; at most one source
	// may leave it empty.
	Prefix string `yaml:"prefix"`
	// Filter selects the operations that become tools; empty keeps all.
	Filter Filter `yaml:"filter"`
	// Deferred maps each argument the host supplies to where its value
	// comes from: "subject" (the authenticated caller's subject) or
	// "claim:NAME" (one claim of the caller's token). The arguments leave
	// the agent's input schema.
	Deferred map[string]string `yaml:"deferred"`
	// Credentials maps a security scheme's name to where its secret is.
	Credentials map[string]Credential `yaml:"credentials"`
	// Timeout bounds each call; zero means the invoker's default (30s).
	Timeout time.Duration `yaml:"timeout"`
	// MaxResponseBytes bounds a response read from the upstream; zero
	// means the invoker's default.
	MaxResponseBytes int64 `yaml:"maxResponseBytes"`
	// MaxAgentBytes bounds the body handed to the agent; zero means the
	// default (64 KiB).
	MaxAgentBytes int64 `yaml:"maxAgentBytes"`
	// AllowPrivateNetworks lets the upstream and the description's URL be
	// loopback or private addresses.
	AllowPrivateNetworks bool `yaml:"allowPrivateNetworks"`
}

// Filter mirrors catalog.Filter field for field, so it converts to it.
// Each list that is set must match for an operation to be kept.
type Filter struct {
	// IncludeTags keeps operations with one of these tags.
	IncludeTags []string `yaml:"includeTags"`
	// ExcludeTags drops operations with any of these tags.
	ExcludeTags []string `yaml:"excludeTags"`
	// IncludeOperations keeps operations whose operationId matches one of
	// these path.Match patterns.
	IncludeOperations []string `yaml:"includeOperations"`
	// ExcludeOperations drops operations matching any of these patterns.
	ExcludeOperations []string `yaml:"excludeOperations"`
	// Methods keeps only these HTTP methods.
	Methods []string `yaml:"methods"`
	// PathPrefixes keeps paths starting with one of these.
	PathPrefixes []string `yaml:"pathPrefixes"`
	// ReadOnly keeps only GET, HEAD and OPTIONS.
	ReadOnly bool `yaml:"readOnly"`
}

// Credential says where the secret of one security scheme comes from. Set
// Env for an API key or bearer token, Username and Password for HTTP Basic.
type Credential struct {
	// Env names the variable holding the key or token.
	Env Secret `yaml:"env"`
	// Username and Password name the variables holding HTTP Basic's parts.
	Username Secret `yaml:"usernameEnv"`
	Password Secret `yaml:"passwordEnv"`
}

// Auth configures caller authentication. Exactly one of JWT,
// Introspection or APIKeys is set.
type Auth struct {
	// JWT verifies tokens as JWTs signed by a key of a JWKS.
	JWT *JWT `yaml:"jwt"`
	// Introspection asks the authorization server about each token.
	Introspection *Introspection `yaml:"introspection"`
	// APIKeys are static keys clients send as bearer tokens.
	APIKeys []APIKey `yaml:"apiKeys"`
	// ResourceMetadataURL is advertised to clients on a 401 (RFC 9728).
	ResourceMetadataURL string `yaml:"resourceMetadataURL"`
}

// JWT verifies bearer JWTs against the authorization server's JWKS.
type JWT struct {
	// JWKSURL is where the signing keys are published. Required.
	JWKSURL string `yaml:"jwksURL"`
	// Issuer is the iss every token must carry. Required.
	Issuer string `yaml:"issuer"`
	// Audience must be in every token's aud: this server's identifier.
	// Required.
	Audience string `yaml:"audience"`
	// Algorithms are the accepted algorithms; empty means RS256 and ES256.
	Algorithms []string `yaml:"algorithms"`
	// Leeway tolerates clock skew; zero means none.
	Leeway time.Duration `yaml:"leeway"`
}

// Introspection verifies bearer tokens by RFC 7662 introspection.
type Introspection struct {
	// URL is the RFC 7662 endpoint. Required.
	URL string `yaml:"url"`
	// Audience must be in each token's aud. Required.
	Audience string `yaml:"audience"`
	// ClientID authenticates sezzlee to the endpoint; empty sends none.
	ClientID string `yaml:"clientID"`
	// ClientSecret names the variable holding the client secret.
	ClientSecret Secret `yaml:"clientSecretEnv"`
}

// APIKey is one static key, sent by clients as a bearer token.
type APIKey struct {
	// Name is the caller's subject when this key is used.
	Name string `yaml:"name"`
	// Env names the variable holding the key.
	Env Secret `yaml:"env"`
}

// Secret is the name of an environment variable holding a secret.
type Secret string

// Resolve reads the secret's value with getenv. An unset or empty
// variable is an error naming the variable, never its value.
func (s Secret) Resolve(getenv func(string) string) (string, error) {
	if s == "" {
		return "", nil
	}
	v := getenv(string(s))
	if v == "" {
		return "", fmt.Errorf("environment variable %s is not set", s)
	}
	return v, nil
}

// Parse decodes and validates a configuration. Unknown keys and values of
// the wrong type are errors with their line number.
func Parse(data []byte) (*Config, error) {
	var c Config
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("config: the file is empty")
		}
		return nil, fmt.Errorf("config: %s", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, errors.New("config: the file holds more than one YAML document")
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &c, nil
}

// Load reads and parses the file at path.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	c, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

var (
	envName    = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	prefixName = regexp.MustCompile(`^[a-zA-Z0-9_-]{0,32}$`)
)

// Validate checks what decoding cannot: required fields, URLs, prefixes
// and that each secret is a variable name. It does not read variables.
func (c *Config) Validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf("config: "+format, args...)) }
	if c.Path != "" && !strings.HasPrefix(c.Path, "/") {
		bad("path %q must start with /", c.Path)
	}
	if c.MaxRequestBytes < 0 {
		bad("maxRequestBytes must not be negative")
	}
	for _, o := range c.AllowedOrigins {
		if u, err := url.Parse(o); err != nil || u.Scheme == "" || u.Host == "" || u.Path != "" {
			bad("allowedOrigins: %q is not an origin (scheme://host[:port])", o)
		}
	}
	prefixes := map[string]int{}
	for i, s := range c.Sources {
		at := fmt.Sprintf("sources[%d]", i)
		if s.Spec == "" {
			bad("%s.spec is required", at)
		}
		if s.Upstream == "" {
			bad("%s.upstream is required", at)
		} else if !isHTTPURL(s.Upstream) {
			bad("%s.upstream %q is not an http(s) URL", at, s.Upstream)
		}
		if !prefixName.MatchString(s.Prefix) {
			bad("%s.prefix %q must be at most 32 letters, digits, _ or -", at, s.Prefix)
		}
		if j, dup := prefixes[s.Prefix]; dup {
			bad("%s.prefix %q is already the prefix of sources[%d]", at, s.Prefix, j)
		}
		prefixes[s.Prefix] = i
		if s.Timeout < 0 || s.MaxResponseBytes < 0 || s.MaxAgentBytes < 0 {
			bad("%s: timeout and limits must not be negative", at)
		}
		for name, from := range s.Deferred {
			if from != "subject" && (!strings.HasPrefix(from, "claim:") || len(from) == len("claim:")) {
				bad("%s.deferred.%s: %q must be subject or claim:NAME", at, name, from)
			}
		}
		for scheme, cred := range s.Credentials {
			ca := fmt.Sprintf("%s.credentials.%s", at, scheme)
			switch {
			case cred.Env != "" && (cred.Username != "" || cred.Password != ""):
				bad("%s: set env, or usernameEnv and passwordEnv, not both", ca)
			case cred.Env == "" && (cred.Username == "" || cred.Password == ""):
				bad("%s: set env, or both usernameEnv and passwordEnv", ca)
			}
			for _, sec := range []Secret{cred.Env, cred.Username, cred.Password} {
				if sec != "" && !envName.MatchString(string(sec)) {
					bad("%s: %q is not an environment variable name (secrets are never written in the file)", ca, sec)
				}
			}
		}
	}
	if a := c.Auth; a != nil {
		n := 0
		if a.JWT != nil {
			n++
			if a.JWT.JWKSURL == "" || a.JWT.Issuer == "" || a.JWT.Audience == "" {
				bad("auth.jwt needs jwksURL, issuer and audience")
			} else if !isHTTPURL(a.JWT.JWKSURL) {
				bad("auth.jwt.jwksURL %q is not an http(s) URL", a.JWT.JWKSURL)
			}
			for _, alg := range a.JWT.Algorithms {
				if alg != "RS256" && alg != "ES256" && alg != "RS384" && alg != "RS512" && alg != "ES384" && alg != "PS256" {
					bad("auth.jwt.algorithms: %q is not supported", alg)
				}
			}
		}
		if a.Introspection != nil {
			n++
			if a.Introspection.URL == "" || a.Introspection.Audience == "" {
				bad("auth.introspection needs url and audience")
			} else if !isHTTPURL(a.Introspection.URL) {
				bad("auth.introspection.url %q is not an http(s) URL", a.Introspection.URL)
			}
			if s := a.Introspection.ClientSecret; s != "" && !envName.MatchString(string(s)) {
				bad("auth.introspection.clientSecretEnv %q is not an environment variable name", s)
			}
		}
		if len(a.APIKeys) > 0 {
			n++
			for i, k := range a.APIKeys {
				if k.Name == "" || k.Env == "" {
					bad("auth.apiKeys[%d] needs name and env", i)
				} else if !envName.MatchString(string(k.Env)) {
					bad("auth.apiKeys[%d].env %q is not an environment variable name", i, k.Env)
				}
			}
		}
		if n != 1 {
			bad("auth must set exactly one of jwt, introspection and apiKeys")
		}
	}
	return errors.Join(errs...)
}

func isHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}
