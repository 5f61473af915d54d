package invoke

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sezzlee/sezzlee/catalog"
	"github.com/sezzlee/sezzlee/envelope"
)

type storeDown struct{}

func (storeDown) Resolve(context.Context, string, int64) (*File, error) {
	return nil, fmt.Errorf("s3 timeout: %w", ErrStoreUnavailable)
}

func tenant(v any, err error) DeferredResolver {
	return func(context.Context, *catalog.Tool, string) (any, bool, error) { return v, err == nil || v != nil, err }
}

// TestRejectedBeforeDispatch covers every code found before dispatch. Each
// call goes to a real backend that records whether it was reached: it never is.
func TestRejectedBeforeDispatch(t *testing.T) {
	cat := mustParse(t, "testdata/pets.yaml", &catalog.Options{Filter: catalog.Filter{ExcludeOperations: []string{"deleteSession"}}})
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "big.bin"), make([]byte, 64), 0o600)
	okTenant := tenant("acme", nil)
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

	tests := []struct {
		name       string
		opts       func(*Options)
		tool, args string
		version    string
		code       envelope.Code
		fields     []string // names in fields, in order
		retryable  bool
		msg        string // a substring of the message
	}{
		{name: "unknown tool", tool: "nope", code: envelope.UnknownTool, msg: "search_tools"},
		{name: "excluded tool", tool: "deleteSession", code: envelope.NotInvocable, msg: "excluded"},
		{name: "unsupported media type", tool: "putXML", args: `{"id":1}`, code: envelope.NotInvocable, msg: "application/xml"},
		{name: "pinned version changed", tool: "createPet", version: "0000", code: envelope.ToolChanged, msg: "load_tool"},
		{name: "arguments not an object", tool: "createPet", args: `[1]`, code: envelope.InvalidType, msg: "JSON object"},
		{name: "arguments not JSON", tool: "createPet", args: `{"name":`, code: envelope.InvalidType},
		{name: "trailing data", tool: "createPet", args: `{} {}`, code: envelope.InvalidType},
		{name: "unknown argument", tool: "createPet", args: `{"name":"rex","bogus":1}`, code: envelope.UnknownArgument,
			fields: []string{"bogus"}, msg: "Unknown argument(s): bogus. Allowed: name."},
		{name: "empty argument name", tool: "createPet", args: `{"name":"rex","":1}`, code: envelope.UnknownArgument,
			fields: []string{`""`}, msg: `Unknown argument(s): "".`},
		{name: "long argument name is cut", tool: "createPet", args: `{"name":"rex","` + strings.Repeat("k", 300) + `":1}`,
			code: envelope.UnknownArgument, fields: []string{strings.Repeat("k", 64) + "…"}},
		{name: "deferred argument from the agent", opts: func(o *Options) { o.Deferred = okTenant }, tool: "getPet",
			args: `{"id":1,"tenant":"evil"}`, code: envelope.UnknownArgument, fields: []string{"tenant"}},
		{name: "missing path parameter", opts: func(o *Options) { o.Deferred = okTenant }, tool: "getPet", args: `{}`,
			code: envelope.MissingPathParameter, fields: []string{"id"}, msg: "'id'"},
		{name: "path parameter of the wrong type", opts: func(o *Options) { o.Deferred = okTenant }, tool: "getPet",
			args: `{"id":"seven"}`, code: envelope.InvalidPathType, fields: []string{"id"}, msg: "Argument 'id' must be of type integer."},
		{name: "fractional integer", opts: func(o *Options) { o.Deferred = okTenant }, tool: "getPet",
			args: `{"id":1.5}`, code: envelope.InvalidPathType, fields: []string{"id"}},
		{name: "null not allowed", opts: func(o *Options) { o.Deferred = okTenant }, tool: "getPet",
			args: `{"id":1,"X-Trace":null}`, code: envelope.NullNotAllowed, fields: []string{"X-Trace"}},
		{name: "invalid type", opts: func(o *Options) { o.Deferred = okTenant }, tool: "getPet",
			args: `{"id":1,"fields":"name"}`, code: envelope.InvalidType, fields: []string{"fields"}, msg: "array"},
		{name: "nested invalid type", tool: "updatePet", args: `{"id":1,"owner":{"email":5}}`,
			code: envelope.InvalidType, fields: []string{"owner"}, msg: "/email"},
		{name: "every violation listed, first by precedence", opts: func(o *Options) { o.Deferred = okTenant }, tool: "getPet",
			args: `{"id":"x","zzz":1,"fields":3,"aaa":2}`, code: envelope.UnknownArgument,
			fields: []string{"aaa", "zzz", "id", "fields"}, msg: "Unknown argument(s): aaa, zzz."},
		{name: "header injection", opts: func(o *Options) { o.Deferred = okTenant }, tool: "getPet",
			args: `{"id":1,"X-Trace":"a\r\nX-Admin: yes"}`, code: envelope.HeaderInjection, fields: []string{"X-Trace"}},
		{name: "NUL in a cookie", opts: func(o *Options) { o.Deferred = okTenant }, tool: "getPet",
			args: `{"id":1,"theme":"a\u0000b"}`, code: envelope.HeaderInjection, fields: []string{"theme"}},
		{name: "invalid cookie value", opts: func(o *Options) { o.Deferred = okTenant }, tool: "getPet",
			args: `{"id":1,"theme":"dark; admin=1"}`, code: envelope.InvalidCookieValue, fields: []string{"theme"}},
		{name: "invalid cookie name from an exploded object", opts: func(o *Options) { o.Deferred = okTenant }, tool: "getPet",
			args: `{"id":1,"prefs":{"a b":"x"}}`, code: envelope.InvalidCookieValue, fields: []string{"prefs"}},
		{name: "two arguments write one cookie", opts: func(o *Options) { o.Deferred = okTenant }, tool: "getPet",
			args: `{"id":1,"prefs":{"theme":"dark"},"theme":"light"}`, code: envelope.CookieCarrierCollision, fields: []string{"theme"}},
		{name: "deferred value missing", tool: "getPet", args: `{"id":1}`, code: envelope.DeferredValueMissing, fields: []string{"tenant"}},
		{name: "deferred value of the wrong type", opts: func(o *Options) { o.Deferred = tenant(42, nil) }, tool: "getPet",
			args: `{"id":1}`, code: envelope.DeferredValueInvalid, fields: []string{"tenant"}},
		{name: "deferred resolver failed", opts: func(o *Options) { o.Deferred = tenant(nil, errors.New("db down")) }, tool: "getPet",
			args: `{"id":1}`, code: envelope.DeferredValueInvalid, fields: []string{"tenant"}},
		{name: "file object without content", tool: "putRaw", args: `{"id":1,"body":{"name":"a.png"}}`,
			code: envelope.InvalidFileArgument, fields: []string{"body"}, msg: "content is missing"},
		{name: "file object with an unknown member", tool: "putRaw", args: `{"id":1,"body":{"content":"","path":"/etc/passwd"}}`,
			code: envelope.InvalidFileArgument, fields: []string{"body"}},
		{name: "file content not base64", tool: "putRaw", args: `{"id":1,"body":{"content":"***"}}`,
			code: envelope.InvalidFileArgument, fields: []string{"body"}},
		{name: "file of the wrong JSON type", tool: "putRaw", args: `{"id":1,"body":5}`,
			code: envelope.InvalidFileArgument, fields: []string{"body"}},
		{name: "file reference without a resolver", tool: "putRaw", args: `{"id":1,"body":"file:a.bin"}`,
			code: envelope.InvalidFileArgument, fields: []string{"body"}},
		{name: "bad data URI", tool: "putRaw", args: `{"id":1,"body":"data:;base64"}`,
			code: envelope.InvalidFileArgument, fields: []string{"body"}},
		{name: "inline file too large", opts: func(o *Options) { o.MaxFileBytes = 4 }, tool: "putRaw",
			args: `{"id":1,"body":{"content":"` + b64("0123456789") + `"}}`, code: envelope.FileTooLarge, fields: []string{"body"}},
		{name: "data URI too large", opts: func(o *Options) { o.MaxFileBytes = 4 }, tool: "putRaw",
			args: `{"id":1,"body":"data:text/plain,0123456789"}`, code: envelope.FileTooLarge, fields: []string{"body"}},
		{name: "local file too large", opts: func(o *Options) { o.MaxFileBytes = 10; o.Files = LocalFiles{Root: root} }, tool: "putRaw",
			args: `{"id":1,"body":"file:big.bin"}`, code: envelope.FileTooLarge, fields: []string{"body"}},
		{name: "file not found", opts: func(o *Options) { o.Files = LocalFiles{Root: root} }, tool: "putRaw",
			args: `{"id":1,"body":"file:nope.bin"}`, code: envelope.FileUnresolved, fields: []string{"body"}},
		{name: "path traversal", opts: func(o *Options) { o.Files = LocalFiles{Root: root} }, tool: "putRaw",
			args: `{"id":1,"body":"../../etc/passwd"}`, code: envelope.FileUnresolved, fields: []string{"body"}},
		{name: "store unavailable is retryable", opts: func(o *Options) { o.Files = storeDown{} }, tool: "putRaw",
			args: `{"id":1,"body":"s3://bucket/key"}`, code: envelope.FileUnresolved, fields: []string{"body"}, retryable: true},
		{name: "file problems and a type problem", opts: func(o *Options) { o.Files = storeDown{} }, tool: "putRaw",
			args: `{"id":"x","body":"s3://bucket/key"}`, code: envelope.InvalidPathType, fields: []string{"id", "body"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newRecordingServer(t)
			inv := newTestInvoker(t, srv.URL, tt.opts)
			env := inv.Invoke(bg, cat, Call{Tool: tt.tool, Arguments: []byte(tt.args), Version: tt.version})
			if n := srv.hits.Load(); n != 0 {
				t.Fatalf("backend reached %d times, want never; envelope %s", n, envJSON(env))
			}
			if env.Error != tt.code {
				t.Fatalf("error = %q, want %q; envelope %s", env.Error, tt.code, envJSON(env))
			}
			if env.Status != 0 {
				t.Errorf("status = %d, want none", env.Status)
			}
			if err := envelope.Validate([]byte(envJSON(env))); err != nil {
				t.Errorf("envelope fails the result schema: %v; envelope %s", err, envJSON(env))
			}
			if env.Retryable == nil || *env.Retryable != tt.retryable {
				t.Errorf("retryable = %v, want %v", env.Retryable, tt.retryable)
			}
			if got := fieldNames(env); tt.fields != nil && !slices.Equal(got, tt.fields) {
				t.Errorf("field names = %q, want %q; envelope %s", got, tt.fields, envJSON(env))
			}
			if !strings.Contains(env.Message, tt.msg) {
				t.Errorf("message = %q, want it to contain %q", env.Message, tt.msg)
			}
			// Compose agrees with Invoke and sends nothing either.
			req, cenv := inv.Compose(bg, cat, Call{Tool: tt.tool, Arguments: []byte(tt.args), Version: tt.version})
			if req != nil || cenv == nil || cenv.Error != tt.code {
				t.Errorf("Compose = %v, %s; want no request and %q", req, envJSON(cenv), tt.code)
			}
		})
	}
}

// TestCredentialCookieCollision: an argument may not overwrite the cookie
// that carries a credential.
func TestCredentialCookieCollision(t *testing.T) {
	cat := mustParse(t, "testdata/pets.yaml", nil)
	tool, _ := cat.Tool("getSession")
	tool.Binding.Args = append(tool.Binding.Args, catalog.ArgBinding{Name: "sid", In: catalog.InCookie, Wire: "sid", Style: "form", Explode: true, Type: "string"})
	srv := newRecordingServer(t)
	inv := newTestInvoker(t, srv.URL, func(o *Options) { o.Credentials = StaticCredentials{"sid": "s3cr3t"}.Credentials })
	env := inv.Invoke(bg, cat, Call{Tool: "getSession", Arguments: []byte(`{"sid":"mine"}`)})
	if env.Error != envelope.CookieCarrierCollision || srv.hits.Load() != 0 {
		t.Fatalf("got %s (hits %d), want cookie_carrier_collision and no hit", envJSON(env), srv.hits.Load())
	}
	if strings.Contains(envJSON(env), "s3cr3t") {
		t.Errorf("the credential leaked into the envelope: %s", envJSON(env))
	}
}
