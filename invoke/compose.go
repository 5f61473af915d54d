package invoke

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/sezzlee/sezzlee/catalog"
	"github.com/sezzlee/sezzlee/envelope"
)

// builder composes one request. It is used once, by one goroutine.
type builder struct {
	inv  *Invoker
	ctx  context.Context
	tool *catalog.Tool
	cat  *catalog.Catalog
	plan *plan
	args map[string]any // the agent's arguments

	deferred   map[string]any     // resolved deferred values
	files      map[string][]*File // resolved file arguments
	violations []violation
	bad        map[string]bool // arguments not to serialise
	// hostFault is a failure of the host's configuration, not of the
	// arguments: the call answers internal_error.
	hostFault error

	header  http.Header
	query   []byte
	cookies []cookie
}

type cookie struct {
	name, value, arg string
	// bad is set when a part the agent supplied is not cookie-octets; the
	// commas the style joins parts with are not judged.
	bad bool
}

// build checks the arguments and composes the request. When it returns,
// either b.violations is empty and the request is ready, or the request is nil.
func (b *builder) build() *http.Request {
	b.checkNames()
	b.checkTypes()
	b.resolveDeferred()
	b.resolveFiles()

	b.header = make(http.Header, 4)
	var path []byte
	for _, seg := range b.plan.segments {
		if seg.param == "" {
			path = appendLiteral(path, seg.literal)
			continue
		}
		ab := b.plan.byWire[seg.param]
		if ab == nil {
			ab = b.deferredByWire(seg.param)
		}
		if ab == nil {
			b.fail(envelope.MissingPathParameter, seg.param, "Path parameter '%s' has no argument.", seg.param)
			continue
		}
		v, ok := b.value(ab)
		if !ok || b.bad[ab.Name] {
			continue
		}
		path = appendPath(path, ab, v)
	}
	for _, q := range b.tool.Binding.FixedQuery {
		b.query = appendPair(b.query, q.Name, q.Value, false)
	}
	for i := range b.tool.Binding.Args {
		ab := &b.tool.Binding.Args[i]
		v, ok := b.value(ab)
		if !ok || b.bad[ab.Name] {
			continue
		}
		switch ab.In {
		case catalog.InQuery:
			if v != nil {
				b.query = appendQuery(b.query, ab, v)
			}
		case catalog.InHeader:
			if v != nil {
				b.setHeader(ab, v)
			}
		case catalog.InCookie:
			if v != nil {
				b.addCookie(ab, v)
			}
		}
	}
	body, contentType := b.body()
	b.applyCredentials()
	b.checkCookies()
	if len(b.violations) > 0 || b.hostFault != nil {
		return nil
	}
	if len(b.cookies) > 0 {
		var sb strings.Builder
		for i, c := range b.cookies {
			if i > 0 {
				sb.WriteString("; ")
			}
			sb.WriteString(c.name)
			sb.WriteByte('=')
			sb.WriteString(c.value)
		}
		b.header.Set("Cookie", sb.String())
	}
	u := &url.URL{RawQuery: string(b.query)}
	u.RawPath = string(path)
	if p, err := url.PathUnescape(u.RawPath); err == nil {
		u.Path = p
	} else {
		u.Path = u.RawPath
	}
	if u.Path == "" {
		u.Path, u.RawPath = "/", ""
	}
	if u.RawPath == u.Path {
		u.RawPath = ""
	}
	req, err := http.NewRequestWithContext(b.ctx, b.tool.Binding.Method, "/", nil)
	if err != nil {
		b.hostFault = err
		return nil
	}
	req.URL = u
	req.Header = b.header
	if body != nil {
		req.Header.Set("Content-Type", contentType)
		req.ContentLength = int64(len(body))
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	}
	return req
}

// value returns an argument's value: the agent's, or the host's for a
// deferred argument. ok is false when the argument is absent.
func (b *builder) value(ab *catalog.ArgBinding) (any, bool) {
	if ab.Deferred {
		v, ok := b.deferred[ab.Name]
		return v, ok
	}
	v, ok := b.args[ab.Name]
	return v, ok
}

func (b *builder) deferredByWire(wire string) *catalog.ArgBinding {
	for _, ab := range b.plan.deferred {
		if ab.In == catalog.InPath && ab.Wire == wire {
			return ab
		}
	}
	return nil
}

// scalar renders a JSON scalar as text; composite values are JSON-encoded,
// which is what a style that cannot nest them leaves as the one choice.
func scalar(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		if x {
			return "true"
		}
		return "false"
	case nil:
		return ""
	}
	j, _ := json.Marshal(v)
	return string(j)
}

// pairs returns an object's members sorted by key, so output is stable.
func pairs(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// --- Path: simple, label and matrix (OpenAPI 3 "style values").

func appendPath(buf []byte, ab *catalog.ArgBinding, v any) []byte {
	esc := func(s string) string {
		if s == "." || s == ".." {
			return strings.Repeat("%2E", len(s)) // never a dot segment
		}
		return escape(s, false)
	}
	style := ab.Style
	if style == "" {
		style = "simple"
	}
	prefix, sep := "", ","
	switch style {
	case "label":
		prefix = "."
		if ab.Explode {
			sep = "."
		}
	case "matrix":
		prefix = ";" + escape(ab.Wire, false) + "="
		if ab.Explode {
			sep = prefix
		}
	}
	buf = append(buf, prefix...)
	switch x := v.(type) {
	case []any:
		if style == "matrix" && len(x) == 0 {
			return buf[:len(buf)-1] // ";name"
		}
		for i, it := range x {
			if i > 0 {
				buf = append(buf, sep...)
			}
			buf = append(buf, esc(scalar(it))...)
		}
	case map[string]any:
		if style == "matrix" && ab.Explode {
			buf = buf[:len(buf)-len(prefix)]
		}
		for i, k := range pairs(x) {
			switch {
			case style == "matrix" && ab.Explode:
				buf = append(buf, ';')
			case i > 0 && ab.Explode && style == "label":
				buf = append(buf, '.')
			case i > 0:
				buf = append(buf, ',')
			}
			buf = append(buf, esc(k)...)
			if ab.Explode {
				buf = append(buf, '=')
			} else {
				buf = append(buf, ',')
			}
			buf = append(buf, esc(scalar(x[k]))...)
		}
	default:
		buf = append(buf, esc(scalar(v))...)
	}
	return buf
}

// appendLiteral writes the template's own text, encoding only what a path
// cannot carry as it is (a space, say); what is valid stays untouched.
func appendLiteral(buf []byte, s string) []byte {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (keep(c, true) && c != '?') || c == '%' || c == '=' || c == '&' || c == '+' {
			buf = append(buf, c)
			continue
		}
		buf = append(buf, '%', hex[c>>4], hex[c&15])
	}
	return buf
}

// --- Query and form bodies: form, spaceDelimited, pipeDelimited, deepObject.

func appendPair(q []byte, name, value string, allowReserved bool) []byte {
	if len(q) > 0 {
		q = append(q, '&')
	}
	q = append(q, escape(name, false)...)
	q = append(q, '=')
	return append(q, escape(value, allowReserved)...)
}

func appendQuery(q []byte, ab *catalog.ArgBinding, v any) []byte {
	style := ab.Style
	if style == "" {
		style = "form"
	}
	ar := ab.AllowReserved
	if style == "deepObject" {
		return appendDeep(q, ab.Wire, v)
	}
	sep := ","
	switch style {
	case "spaceDelimited":
		sep = "%20"
	case "pipeDelimited":
		sep = "|"
	}
	// Exploded values repeat the name (or, for an object, use each key as
	// a name); the others join their parts with the style's delimiter.
	var parts []string
	switch x := v.(type) {
	case []any:
		if ab.Explode {
			for _, it := range x {
				q = appendPair(q, ab.Wire, scalar(it), ar)
			}
			return q
		}
		parts = make([]string, 0, len(x))
		for _, it := range x {
			parts = append(parts, scalar(it))
		}
	case map[string]any:
		keys := pairs(x)
		if ab.Explode {
			for _, k := range keys {
				q = appendPair(q, k, scalar(x[k]), ar)
			}
			return q
		}
		parts = make([]string, 0, 2*len(keys))
		for _, k := range keys {
			parts = append(parts, k, scalar(x[k]))
		}
	default:
		return appendPair(q, ab.Wire, scalar(v), ar)
	}
	if len(q) > 0 {
		q = append(q, '&')
	}
	q = append(q, escape(ab.Wire, false)...)
	q = append(q, '=')
	for i, p := range parts {
		if i > 0 {
			q = append(q, sep...)
		}
		q = append(q, escape(p, ar)...)
	}
	return q
}

// appendDeep writes nested objects and arrays as bracketed names, the way
// Stripe and Rails read them: a[b]=1&a[c][0]=x. Array items are indexed,
// which also keeps arrays of objects unambiguous. Brackets are
// percent-encoded, as RFC 3986 requires in a query; servers decode them
// before reading the names.
func appendDeep(q []byte, name string, v any) []byte {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			return appendPair(q, name, "", false)
		}
		for _, k := range pairs(x) {
			q = appendDeep(q, name+"["+k+"]", x[k])
		}
		return q
	case []any:
		if len(x) == 0 {
			return appendPair(q, name, "", false)
		}
		for i, it := range x {
			q = appendDeep(q, name+"["+strconv.Itoa(i)+"]", it)
		}
		return q
	}
	return appendPair(q, name, scalar(v), false)
}

// escape percent-encodes s for a path segment or a query component: every
// byte but RFC 3986's unreserved characters. With allowReserved, reserved
// characters stay as they are, except those that would change how the
// query itself is read (& = + #), which are still encoded.
func escape(s string, allowReserved bool) string {
	n := 0
	for i := 0; i < len(s); i++ {
		if !keep(s[i], allowReserved) {
			n++
		}
	}
	if n == 0 {
		return s
	}
	const hex = "0123456789ABCDEF"
	out := make([]byte, 0, len(s)+2*n)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if keep(c, allowReserved) {
			out = append(out, c)
			continue
		}
		out = append(out, '%', hex[c>>4], hex[c&15])
	}
	return string(out)
}

func keep(c byte, allowReserved bool) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	switch c {
	case '-', '.', '_', '~':
		return true
	case ':', '/', '?', '[', ']', '@', '!', '$', '\'', '(', ')', '*', ',', ';':
		return allowReserved
	}
	return false
}

// --- Headers: simple.

func (b *builder) setHeader(ab *catalog.ArgBinding, v any) {
	var sb strings.Builder
	switch x := v.(type) {
	case []any:
		for i, it := range x {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(scalar(it))
		}
	case map[string]any:
		for i, k := range pairs(x) {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(k)
			if ab.Explode {
				sb.WriteByte('=')
			} else {
				sb.WriteByte(',')
			}
			sb.WriteString(scalar(x[k]))
		}
	default:
		sb.WriteString(scalar(v))
	}
	val := sb.String()
	if unsafeHeader(ab.Wire) || unsafeHeader(val) {
		b.fail(envelope.HeaderInjection, ab.Name, "Argument '%s' contains a line break or NUL character, which a header cannot carry.", ab.Name)
		return
	}
	if reservedHeader(ab.Wire) {
		return // framing and routing headers are sezzlee's to set
	}
	b.header.Set(ab.Wire, val)
}

// unsafeHeader reports a CR, LF or NUL, which would end or corrupt a header.
func unsafeHeader(s string) bool {
	return strings.ContainsAny(s, "\r\n\x00")
}

// reservedHeader lists headers an argument must never set: they frame the
// message or route it, and the transport owns them.
func reservedHeader(name string) bool {
	switch http.CanonicalHeaderKey(name) {
	case "Host", "Content-Length", "Transfer-Encoding", "Connection", "Te", "Trailer", "Upgrade", "Keep-Alive",
		"Proxy-Authorization", "Proxy-Connection", "Cookie", "Content-Type":
		return true
	}
	return false
}

// --- Cookies: form.

func (b *builder) addCookie(ab *catalog.ArgBinding, v any) {
	add := func(name string, parts ...string) {
		c := cookie{name: name, value: strings.Join(parts, ","), arg: ab.Name}
		for _, p := range parts {
			c.bad = c.bad || !validCookieValue(p)
		}
		b.cookies = append(b.cookies, c)
	}
	switch x := v.(type) {
	case []any:
		if ab.Explode {
			for _, it := range x {
				add(ab.Wire, scalar(it))
			}
			return
		}
		parts := make([]string, len(x))
		for i, it := range x {
			parts[i] = scalar(it)
		}
		add(ab.Wire, parts...)
	case map[string]any:
		keys := pairs(x)
		if ab.Explode {
			for _, k := range keys {
				add(k, scalar(x[k]))
			}
			return
		}
		parts := make([]string, 0, 2*len(keys))
		for _, k := range keys {
			parts = append(parts, k, scalar(x[k]))
		}
		add(ab.Wire, parts...)
	default:
		add(ab.Wire, scalar(v))
	}
}

// checkCookies reports unsafe names and values and two writers of one
// cookie.
func (b *builder) checkCookies() {
	owner := make(map[string]string, len(b.cookies))
	for _, c := range b.cookies {
		if c.arg == "" { // a credential: checked when it was applied
			if prev, ok := owner[c.name]; ok {
				b.fail(envelope.CookieCarrierCollision, prev, "Argument '%s' would set the cookie '%s', which carries this tool's credential; leave it out.", prev, c.name)
			}
			owner[c.name] = ""
			continue
		}
		if unsafeHeader(c.name) || unsafeHeader(c.value) {
			b.fail(envelope.HeaderInjection, c.arg, "Argument '%s' contains a line break or NUL character, which a cookie cannot carry.", c.arg)
			continue
		}
		if c.bad || !validCookieName(c.name) {
			b.fail(envelope.InvalidCookieValue, c.arg, "Argument '%s' must contain only printable ASCII without spaces, double quotes, semicolons or backslashes (RFC 6265 cookie characters).", c.arg)
			continue
		}
		if prev, ok := owner[c.name]; ok && prev != c.arg {
			switch {
			case prev == "" || c.arg == "":
				arg := prev + c.arg
				b.fail(envelope.CookieCarrierCollision, arg, "Argument '%s' would set the cookie '%s', which carries this tool's credential; leave it out.", arg, c.name)
			default:
				b.fail(envelope.CookieCarrierCollision, c.arg, "Arguments '%s' and '%s' would both set the cookie '%s'; pass only one of them.", prev, c.arg, c.name)
			}
			continue
		}
		owner[c.name] = c.arg
	}
}

func validCookieValue(s string) bool {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x21 || c > 0x7e || c == '"' || c == ',' || c == ';' || c == '\\' {
			return false
		}
	}
	return true
}

func validCookieName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= 0x20 || c >= 0x7f || strings.IndexByte("()<>@,;:\\\"/[]?={}", c) >= 0 {
			return false
		}
	}
	return true
}
