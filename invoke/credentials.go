package invoke

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/sezzlee/sezzlee/catalog"
	"github.com/sezzlee/sezzlee/envelope"
)

// Credentials returns the secret that satisfies one security scheme for one
// call, and false when the host has none. It is called per request, so a
// host can map the authenticated caller (from ctx) to that caller's own
// backend credentials. The secret is the apiKey value, the bearer token
// (http bearer, oauth2, openIdConnect) or "user:password" (http basic).
// Secrets are never logged or shown to the agent.
type Credentials func(ctx context.Context, tool *catalog.Tool, scheme *catalog.SecurityScheme) (secret string, ok bool)

// StaticCredentials maps security scheme names to secrets, the same for
// every call. Use its Credentials method as Options.Credentials.
type StaticCredentials map[string]string

// Credentials looks the scheme up by name.
func (s StaticCredentials) Credentials(_ context.Context, _ *catalog.Tool, scheme *catalog.SecurityScheme) (string, bool) {
	v, ok := s[scheme.Name]
	return v, ok
}

var _ Credentials = StaticCredentials(nil).Credentials

// applyCredentials satisfies the first of the tool's security alternatives
// the host can satisfy entirely. When none can be, the request goes
// without credentials and the backend answers for itself.
func (b *builder) applyCredentials() {
	if len(b.tool.Security) == 0 || b.inv.opts.Credentials == nil {
		return
	}
	type grant struct {
		scheme *catalog.SecurityScheme
		secret string
	}
	for _, req := range b.tool.Security {
		grants := make([]grant, 0, len(req))
		for _, use := range req {
			s := use.Scheme
			if s == nil && b.cat != nil {
				s = b.cat.SecuritySchemes[use.Name]
			}
			if s == nil || !supported(s) {
				break
			}
			secret, ok := b.inv.opts.Credentials(b.ctx, b.tool, s)
			if !ok {
				break
			}
			grants = append(grants, grant{s, secret})
		}
		if len(grants) != len(req) {
			continue
		}
		for _, g := range grants {
			b.apply(g.scheme, g.secret)
		}
		return
	}
	b.inv.opts.Logger.Debug("invoke: no credentials satisfy the tool's security", "tool", b.tool.Name)
}

func supported(s *catalog.SecurityScheme) bool {
	switch s.Type {
	case "apiKey":
		return s.ParamName != "" && (s.In == "header" || s.In == "query" || s.In == "cookie")
	case "http":
		return s.Scheme == "bearer" || s.Scheme == "basic"
	case "oauth2", "openIdConnect":
		return true
	}
	return false
}

func (b *builder) apply(s *catalog.SecurityScheme, secret string) {
	if unsafeHeader(secret) {
		// The host's configuration is at fault, not the agent's arguments:
		// an internal error naming the scheme, never the value.
		b.hostFault = fmt.Errorf("the credential for scheme %q contains a CR, LF or NUL", s.Name)
		return
	}
	switch s.Type {
	case "apiKey":
		switch s.In {
		case "header":
			b.header.Set(s.ParamName, secret)
		case "query":
			b.query = appendPair(b.query, s.ParamName, secret, false)
		case "cookie":
			b.cookies = append(b.cookies, cookie{name: s.ParamName, value: secret})
		}
	case "http":
		if s.Scheme == "basic" {
			b.header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(secret)))
			return
		}
		b.header.Set("Authorization", "Bearer "+secret)
	default:
		b.header.Set("Authorization", "Bearer "+secret)
	}
}

// DeferredResolver supplies a deferred argument's value for one call: the
// value and true, false when it has none, or an error when it failed.
// name is the argument's name in the binding. The value may be any Go value
// that encodes to JSON of the argument's type.
type DeferredResolver func(ctx context.Context, tool *catalog.Tool, name string) (value any, ok bool, err error)

// resolveDeferred asks the host for every deferred argument.
func (b *builder) resolveDeferred() {
	for _, ab := range b.plan.deferred {
		var v any
		ok := false
		var err error
		if b.inv.opts.Deferred != nil {
			v, ok, err = b.inv.opts.Deferred(b.ctx, b.tool, ab.Name)
		}
		switch {
		case err != nil:
			b.inv.opts.Logger.Warn("invoke: deferred value failed", "tool", b.tool.Name, "argument", ab.Name, "cause", err.Error())
			b.fail(envelope.DeferredValueInvalid, ab.Name, "The host could not supply '%s' for this call; this is not the agent's to fix.", ab.Name)
			continue
		case !ok:
			if ab.Required {
				b.fail(envelope.DeferredValueMissing, ab.Name, "The host supplies '%s' and has none for this call; this is not the agent's to fix.", ab.Name)
			}
			continue
		}
		norm, good := normalise(v)
		if !good || !typeMatches(norm, ab.Type, ab.Nullable) {
			b.fail(envelope.DeferredValueInvalid, ab.Name, "The host supplied '%s' with the wrong type (want %s); this is not the agent's to fix.", ab.Name, orAny(ab.Type))
			continue
		}
		if b.deferred == nil {
			b.deferred = make(map[string]any, len(b.plan.deferred))
		}
		b.deferred[ab.Name] = norm
	}
}

func orAny(t string) string {
	if t == "" {
		return "any"
	}
	return t
}

// normalise brings a host value to the shapes decoded JSON has.
func normalise(v any) (any, bool) {
	switch x := v.(type) {
	case string, bool, nil, json.Number:
		return x, true
	}
	j, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	d := json.NewDecoder(bytes.NewReader(j))
	d.UseNumber()
	var out any
	if err := d.Decode(&out); err != nil {
		return nil, false
	}
	return out, true
}

// typeMatches is the type check for host values, which are not in the
// agent's schema.
func typeMatches(v any, typ string, nullable bool) bool {
	if v == nil {
		return nullable
	}
	switch typ {
	case "":
		return true
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "number":
		_, ok := v.(json.Number)
		return ok
	case "integer":
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		_, err := n.Int64()
		return err == nil
	case "array":
		_, ok := v.([]any)
		return ok
	case "object":
		_, ok := v.(map[string]any)
		return ok
	}
	return true
}
