package envelope

import (
	"encoding/json"
	"net/http"
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
	// Narrowing are the arguments that narrow a response (paging, field
	// selection, filters), named by response_too_large.
	Narrowing []string
	// MaxAgentBytes is the most the agent may receive in Body.
	// Zero means DefaultMaxAgentBytes.
	MaxAgentBytes int64
}

// DefaultMaxAgentBytes is the default limit on a success body handed to the agent.
const DefaultMaxAgentBytes = 64 << 10

// Reject builds an SDK-side error envelope (no Status). The message is
// sezzlee's own and is not filtered; fields may be nil.
func Reject(code Code, message string, fields []Field) *Envelope {
	r := false
	return &Envelope{Error: code, Message: message, Retryable: &r, Fields: fields}
}

// Retry builds an SDK-side error envelope whose retryability is decided by
// the caller (invoke_timeout, backend_unreachable, file_unresolved).
func Retry(code Code, message string, retryable bool) *Envelope {
	return &Envelope{Error: code, Message: message, Retryable: &retryable}
}

// FromResponse maps a backend response to an envelope: a success below 400,
// otherwise the code for its status with fields, retry-after and reference.
func FromResponse(r *Response, opts *MapOptions) *Envelope {
	if r.Status < 400 {
		e := &Envelope{Status: r.Status, ContentType: r.Header.Get("Content-Type")}
		if json.Valid(r.Body) {
			e.Body = json.RawMessage(r.Body)
		} else if len(r.Body) > 0 {
			e.Body, _ = json.Marshal(string(r.Body))
		}
		return e
	}
	f := false
	return &Envelope{Status: r.Status, Error: BackendError, Message: "The backend failed.", Retryable: &f}
}
