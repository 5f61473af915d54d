package envelope

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"strings"

	"github.com/sezzlee/sezzlee/leak"
)

// TooLarge builds response_too_large: the backend answered, but with more
// than limit bytes, so the body is withheld. bytes is the body's size, or
// the bytes seen before reading stopped when the body was cut. narrowing
// names the arguments that narrow the call; each field's message says how.
func TooLarge(bytes, limit int64, contentType string, narrowing []string) *Envelope {
	e := Reject(ResponseTooLarge, "", nil)
	e.Payload = &Payload{Bytes: bytes, Limit: limit, ContentType: contentType}
	for _, n := range narrowing {
		e.Fields = append(e.Fields, Field{Name: n, Message: narrowingMessage(n)})
	}
	return e
}

// Narrowing returns, in order, the names among args that narrow a
// response: page sizes, cursors and offsets, field selections and filters.
// It is a name-based default for callers that have no better source.
func Narrowing(args []string) []string {
	var out []string
	for _, a := range args {
		if narrowingKind(a) != narrowUnknown {
			out = append(out, a)
		}
	}
	return out
}

type narrowKind int

const (
	narrowUnknown narrowKind = iota // not recognised by name
	narrowPageSize
	narrowCursor
	narrowSelect
	narrowFilter
)

// narrowingKind sorts an argument by its name.
func narrowingKind(name string) narrowKind {
	n := fold(strings.TrimPrefix(name, "$"))
	switch n {
	case "limit", "perpage", "pagesize", "size", "count", "max", "maxresults", "maxitems", "top", "first", "last", "take", "pagelimit", "num", "rows":
		return narrowPageSize
	case "cursor", "page", "offset", "after", "before", "startingafter", "endingbefore", "pagetoken", "nextpagetoken", "next", "skip", "marker", "continuation", "continuationtoken", "since", "from", "start", "pagenumber":
		return narrowCursor
	case "fields", "select", "include", "expand", "properties", "attributes", "projection", "columns", "only", "exclude", "view":
		return narrowSelect
	case "filter", "q", "query", "search", "where", "status", "state", "type", "until", "to", "startdate", "enddate", "createdafter", "createdbefore":
		return narrowFilter
	}
	if strings.HasPrefix(n, "filter") || strings.HasSuffix(n, "filter") {
		return narrowFilter
	}
	return narrowUnknown
}

// narrowingMessage says how an argument narrows the call.
func narrowingMessage(name string) string {
	switch narrowingKind(name) {
	case narrowPageSize:
		return "Ask for fewer items per page with a smaller value."
	case narrowCursor:
		return "Fetch one page at a time, passing the cursor or offset of the next page."
	case narrowSelect:
		return "Request only the fields you need."
	}
	return "Filter the results down to what you need."
}

// Timeout builds invoke_timeout, the one guard that is retryable.
func Timeout() *Envelope {
	return Retry(InvokeTimeout, "", true)
}

// Unreachable builds backend_unreachable. retryable is the caller's call:
// true when nothing was sent (refused connection, DNS failure), false when
// the request may have been received.
func Unreachable(retryable bool) *Envelope {
	return Retry(BackendUnreachable, "", retryable)
}

// Internal builds internal_error for a failure inside sezzlee. The cause
// goes to logger (nil means slog.Default()), leak-filtered, under a new
// reference; the envelope carries only the fixed message and that
// reference, so the agent can quote it and the operator can find the log.
func Internal(ctx context.Context, logger *slog.Logger, cause error) *Envelope {
	if logger == nil {
		logger = slog.Default()
	}
	ref := newReference()
	detail := "unknown cause"
	if cause != nil {
		detail = leak.Clean(cause.Error())
	}
	logger.ErrorContext(ctx, "sezzlee internal error", slog.String("reference", ref), slog.String("cause", detail))
	e := Reject(InternalError, "", nil)
	e.Reference = ref
	return e
}

// newReference returns a random id such as "sz-3f9c0a17b2d4e681".
func newReference() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	return "sz-" + hex.EncodeToString(b[:])
}
