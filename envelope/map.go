package envelope

import (
	"bytes"
	"encoding/json"
	"errors"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sezzlee/sezzlee/leak"
)

// Response is what a backend answered, read with a bound.
type Response struct {
	// Status is the HTTP status code.
	Status int
	// Header is the response header.
	Header http.Header
	// Body holds the bytes read, after decompression, at most the read bound.
	Body []byte
	// Truncated is true when the body was longer than the read bound; Size
	// then counts the bytes seen before reading stopped.
	Truncated bool
	// Size is the body's size in bytes as far as it was read.
	Size int64
}

// MapOptions gives the mapping what it needs to know about the tool.
// The zero value is usable.
type MapOptions struct {
	// Arguments are the tool's agent argument names: backend field names
	// are mapped back to them (Quantity to quantity, body.quantity or
	// /quantity to quantity).
	Arguments []string
	// BodyRenames maps a body property's wire name to its argument name
	// where the two differ (a property renamed because a parameter has its
	// name, as catalog.ClashPrefix says). A backend field that names the
	// body (body.id, /body/id) maps through it; a bare "id" still means the
	// parameter. Nil means no property was renamed.
	BodyRenames map[string]string
	// Narrowing are the arguments that narrow a response (paging, field
	// selection, filters), named by response_too_large.
	Narrowing []string
	// MaxAgentBytes is the most the agent may receive in Body.
	// Zero means DefaultMaxAgentBytes.
	MaxAgentBytes int64
	// Now is the clock an HTTP-date Retry-After is measured against.
	// Nil means time.Now.
	Now func() time.Time
}

// DefaultMaxAgentBytes is the default limit on a success body handed to the agent.
const DefaultMaxAgentBytes = 64 << 10

// Reject builds an SDK-side error envelope (no Status). The message is
// sezzlee's own and is not filtered; an empty message means the code's
// fixed message. fields may be nil. Retryable is the code's fixed value,
// false for the codes whose retryability the caller decides (use Retry).
func Reject(code Code, message string, fields []Field) *Envelope {
	r := false
	if c, ok := Lookup(code); ok && c.Retryable == RetryAlways {
		r = true
	}
	if message == "" {
		message = messageOf(code)
	}
	return &Envelope{Error: code, Message: message, Retryable: &r, Fields: fields}
}

// Retry builds an SDK-side error envelope whose retryability is decided by
// the caller (invoke_timeout, backend_unreachable, file_unresolved). An
// empty message means the code's fixed message.
func Retry(code Code, message string, retryable bool) *Envelope {
	if message == "" {
		message = messageOf(code)
	}
	return &Envelope{Error: code, Message: message, Retryable: &retryable}
}

// FromResponse maps a backend response to an envelope: a success below 400,
// otherwise the code for its status with fields, retry-after and reference.
// Every text taken from the backend passes the leak filter. It never
// returns nil; a nil Response maps to internal_error.
func FromResponse(r *Response, opts *MapOptions) *Envelope {
	if opts == nil {
		opts = &MapOptions{}
	}
	if r == nil || r.Status < 100 || r.Status > 999 {
		return Reject(InternalError, "", nil)
	}
	if r.Status < 400 {
		return success(r, opts)
	}
	return failure(r, opts)
}

// success maps a status below 400.
func success(r *Response, opts *MapOptions) *Envelope {
	e := &Envelope{Status: r.Status}
	if r.Status == http.StatusCreated || (r.Status >= 300 && r.Status < 400) {
		if loc := r.Header.Get("Location"); loc != "" {
			// A Location that names an internal host is itself a leak.
			if _, withheld := leak.Filter(loc); !withheld {
				e.Location = loc
			}
		}
	}
	size := max(int64(len(r.Body)), r.Size)
	if size == 0 && !r.Truncated {
		if ct := mediaType(r.Header); ct != "" && len(r.Body) > 0 {
			e.ContentType = ct
		}
		return e
	}
	ct := mediaType(r.Header)
	kind := classify(ct, r.Body)
	if kind == kindBinary {
		// A binary body is described, never dumped: its size does not reach
		// the agent, so it is never too large.
		e.ContentType = ct
		e.Body, _ = json.Marshal(binaryBody{Binary: true, ContentType: ct, Bytes: size})
		return e
	}
	limit := opts.MaxAgentBytes
	if limit <= 0 {
		limit = DefaultMaxAgentBytes
	}
	if r.Truncated || size > limit {
		return TooLarge(size, limit, ct, opts.Narrowing)
	}
	e.ContentType = ct
	body := bytes.TrimPrefix(r.Body, []byte("\xef\xbb\xbf"))
	if kind == kindJSON {
		e.Body = json.RawMessage(bytes.TrimSpace(body))
	} else {
		e.Body, _ = json.Marshal(strings.ToValidUTF8(string(body), "\uFFFD"))
	}
	return e
}

// binaryBody describes a body that is not text.
type binaryBody struct {
	Binary      bool   `json:"binary"`
	ContentType string `json:"contentType,omitempty"`
	Bytes       int64  `json:"bytes"`
}

type bodyKind int

const (
	kindJSON bodyKind = iota
	kindText
	kindBinary
)

// classify says how a body of media type ct is handed to the agent.
func classify(ct string, body []byte) bodyKind {
	switch {
	case ct == "" || isJSONType(ct):
		if json.Valid(body) {
			return kindJSON
		}
		if ct == "" && !utf8.Valid(body) {
			return kindBinary
		}
		return kindText
	case ct == "text/plain" && looksLikeJSONDocument(body):
		// Many servers label JSON text/plain (Go's content sniffing does);
		// an object or array that parses is handed over parsed.
		return kindJSON
	case isTextType(ct):
		return kindText
	}
	return kindBinary
}

// looksLikeJSONDocument reports whether body is a JSON object or array.
func looksLikeJSONDocument(body []byte) bool {
	t := bytes.TrimSpace(body)
	return len(t) > 1 && (t[0] == '{' || t[0] == '[') && json.Valid(t)
}

func isJSONType(ct string) bool {
	return ct == "application/json" || strings.HasSuffix(ct, "+json") || strings.HasSuffix(ct, "/json") ||
		ct == "application/x-ndjson" || ct == "application/jsonl"
}

func isTextType(ct string) bool {
	if strings.HasPrefix(ct, "text/") || strings.HasSuffix(ct, "+xml") {
		return true
	}
	switch ct {
	case "application/xml", "application/javascript", "application/x-www-form-urlencoded",
		"application/yaml", "application/x-yaml", "application/graphql", "application/csv",
		"application/sql", "application/x-sh", "application/toml":
		return true
	}
	return false
}

// mediaType is the response's media type, lower case, without parameters,
// or "" when the header is not a media type.
func mediaType(h http.Header) string {
	v := h.Get("Content-Type")
	switch v {
	case "":
		return ""
	case "application/json", "application/json; charset=utf-8":
		// The common answers, already in canonical form: no parse needed.
		return v[:len("application/json")]
	}
	mt, _, err := mime.ParseMediaType(v)
	if errors.Is(err, mime.ErrInvalidMediaParameter) {
		err = nil // the type parsed; only a parameter did not
	}
	if err != nil || len(mt) > 128 {
		// Not a media type: nothing of it is passed on.
		return ""
	}
	return mt
}

// failure maps a status of 400 or above.
func failure(r *Response, opts *MapOptions) *Envelope {
	code := ForStatus(r.Status)
	retryable := RetryableStatus(r.Status)
	e := &Envelope{Status: r.Status, Error: code, Retryable: &retryable}

	var root any
	ct := mediaType(r.Header)
	if !r.Truncated && len(r.Body) <= maxErrorJSON && (ct == "" || isJSONType(ct)) {
		root, _ = decodeOrdered(r.Body)
	}
	text, withheld := "", false
	switch {
	case root != nil:
		text = backendText(root, r.Status)
	case ct == "text/plain" || (ct == "" && utf8.Valid(r.Body)):
		// HTML error pages and other markup are not forwarded: they are
		// pages for people, not text for an agent.
		text = string(r.Body)
	}
	if text != "" {
		text, withheld = leak.Filter(text)
	}
	e.Message = compose(messageOf(code), text, withheld)
	if root != nil {
		e.Fields = extractFields(root, opts.Arguments, opts.BodyRenames)
	}
	if r.Status == http.StatusTooManyRequests || r.Status == http.StatusServiceUnavailable {
		now := time.Now
		if opts.Now != nil {
			now = opts.Now
		}
		if s, ok := retryAfter(r.Header.Get("Retry-After"), now()); ok {
			e.RetryAfterSeconds = &s
		}
	}
	e.Reference = reference(r.Header, root)
	return e
}

// maxErrorJSON bounds the error body parsed for fields and text: a
// validation body is a few kilobytes, and a larger one is not worth the
// work on every error.
const maxErrorJSON = 1 << 20

// compose joins the code's fixed message and the backend's filtered text.
func compose(fixed, text string, withheld bool) string {
	text = strings.TrimSpace(text)
	switch {
	case text != "" && withheld:
		return fixed + " The backend said: " + text + " " + leak.Note
	case text != "":
		return fixed + " The backend said: " + text
	case withheld:
		return fixed + " Details from the backend were withheld."
	}
	return fixed
}

// backendText is the backend's own summary of the error in a JSON body,
// or "" when it has none or only restates the status.
func backendText(root any, status int) string {
	o, ok := root.(object)
	if !ok {
		if s, ok := root.(string); ok {
			return s
		}
		return ""
	}
	candidates := []any{o.get("detail"), o.get("message"), o.get("error_description")}
	if eo, ok := o.get("error").(object); ok {
		candidates = append(candidates, eo.get("message"), eo.get("detail"))
	}
	candidates = append(candidates, o.get("title"), o.get("error"))
	for _, c := range candidates {
		s, ok := c.(string)
		s = strings.TrimSpace(s)
		if !ok || s == "" || strings.EqualFold(s, http.StatusText(status)) {
			continue
		}
		return s
	}
	return ""
}

// retryAfter parses a Retry-After value, delta-seconds or HTTP-date, into
// whole seconds from now, never negative.
func retryAfter(v string, now time.Time) (int, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if n, err := strconv.ParseUint(v, 10, 64); err == nil {
		return int(min(n, maxRetryAfter)), true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	d := t.Sub(now)
	if d <= 0 {
		return 0, true
	}
	s := (d + time.Second - 1) / time.Second
	return int(min(uint64(s), maxRetryAfter)), true
}

// maxRetryAfter caps a Retry-After at about 68 years, so that it fits an
// int32 on every platform and every JSON reader.
const maxRetryAfter = 1<<31 - 1

// reference returns the first correlation id the backend sent that is
// shaped like an id and survives the leak filter.
func reference(h http.Header, root any) string {
	var candidates []string
	candidates = append(candidates, h.Get("X-Request-Id"), h.Get("X-Correlation-Id"))
	if tp := h.Get("Traceparent"); tp != "" {
		candidates = append(candidates, traceID(tp))
	}
	if o, ok := root.(object); ok {
		for _, k := range []string{"traceId", "trace_id", "requestId", "request_id", "correlationId"} {
			if s, ok := o.get(k).(string); ok {
				candidates = append(candidates, traceID(s))
			}
		}
	}
	for _, c := range candidates {
		if validReference(c) {
			return c
		}
	}
	return ""
}

// traceID returns the trace id of a W3C traceparent
// ("00-<trace id>-<parent id>-<flags>"), or v unchanged.
func traceID(v string) string {
	parts := strings.Split(strings.TrimSpace(v), "-")
	if len(parts) == 4 && len(parts[0]) == 2 && len(parts[1]) == 32 && len(parts[2]) == 16 {
		return parts[1]
	}
	return strings.TrimSpace(v)
}

// validReference reports whether v is a short printable id with nothing
// the leak filter would withhold.
func validReference(v string) bool {
	if v == "" || len(v) > 128 {
		return false
	}
	for _, c := range v {
		if c <= ' ' || c > '~' {
			return false
		}
	}
	_, withheld := leak.Filter(v)
	return !withheld
}
