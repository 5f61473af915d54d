package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Envelope is one invoke_tool result as an agent receives it. It mirrors the
// JSON an agent reads rather than importing sezzlee's server-side types, so
// that a client built on this package judges what the wire says, not what the
// server meant to say.
type Envelope struct {
	// Status is the backend's HTTP status; nil when the JSON has no status,
	// which means sezzlee answered without reaching the backend (or refused
	// to forward what it got).
	Status *int `json:"status,omitempty"`
	// Body is the backend's body on success: JSON, or a JSON string for text.
	Body json.RawMessage `json:"body,omitempty"`
	// ContentType is the success response's media type.
	ContentType string `json:"contentType,omitempty"`
	// Location is the success response's Location header.
	Location string `json:"location,omitempty"`

	// Code is the error code (the JSON "error" member); empty on success.
	Code string `json:"error,omitempty"`
	// Message is prose for a human. Programs branch on Code, Retryable and
	// Fields, never on Message.
	Message string `json:"message,omitempty"`
	// Retryable is nil when the JSON has no retryable member. Every error
	// envelope is expected to carry it.
	Retryable *bool `json:"retryable,omitempty"`
	// RetryAfterSeconds is the wait the backend asked for, when it sent one.
	RetryAfterSeconds *int `json:"retryAfterSeconds,omitempty"`
	// Reference is a correlation id for the failure, when there is one.
	Reference string `json:"reference,omitempty"`
	// Fields lists each rule an argument broke; a name repeats once per rule.
	Fields []Field `json:"fields,omitempty"`
	// Payload describes a response that was too large to hand over.
	Payload *Payload `json:"payload,omitempty"`

	// IsError is the MCP result's isError flag. It is not part of the JSON
	// text; Client sets it from the tool result.
	IsError bool `json:"-"`
	// Raw is the JSON text the envelope was parsed from.
	Raw json.RawMessage `json:"-"`
}

// Field is one rule one argument broke.
type Field struct {
	// Name is the argument's name in the tool's input schema.
	Name string `json:"name"`
	// Message says, in prose, what rule was broken.
	Message string `json:"message"`
}

// Payload describes an oversized response (response_too_large).
type Payload struct {
	// Bytes is the size of the response, as far as it was read.
	Bytes int64 `json:"bytes"`
	// Limit is the most the agent may receive.
	Limit int64 `json:"limit"`
	// ContentType is the response's media type, when known.
	ContentType string `json:"contentType,omitempty"`
}

// The error codes the scenarios branch on. The full list is sezzlee's
// spec/error-mapping.md; a client should treat an unknown code by its
// Retryable flag and layer alone.
const (
	CodeValidationFailed = "validation_failed"
	CodeRateLimited      = "rate_limited"
	CodeBackendError     = "backend_error"
	CodeUnknownArgument  = "unknown_argument"
	CodeInvalidType      = "invalid_type"
	CodeInvalidPathType  = "invalid_path_type"
	CodeToolChanged      = "tool_changed"
	CodeResponseTooLarge = "response_too_large"
	CodeInvokeTimeout    = "invoke_timeout"
)

// ErrNotEnvelope is returned by Parse when the text is not a JSON object.
var ErrNotEnvelope = errors.New("agent: result is not a JSON object")

// Parse reads the JSON text of one invoke_tool result. Members it does not
// know are ignored, so that a newer server does not break an older client;
// members it knows must have the right JSON type.
func Parse(text []byte) (*Envelope, error) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(text, &probe); err != nil || probe == nil {
		return nil, ErrNotEnvelope
	}
	var e Envelope
	if err := json.Unmarshal(text, &e); err != nil {
		return nil, fmt.Errorf("agent: malformed envelope: %w", err)
	}
	e.Raw = append(json.RawMessage(nil), text...)
	return &e, nil
}

// Failed reports whether the envelope is an error envelope.
func (e *Envelope) Failed() bool { return e.Code != "" }

// IsSDKSide reports whether sezzlee, not the backend, produced the envelope:
// the JSON has no status. For argument codes it means the arguments did not
// match the loaded schema, so re-read it with load_tool instead of retrying.
func (e *Envelope) IsSDKSide() bool { return e.Status == nil }

// StatusCode returns the backend's status, or 0 when there is none.
func (e *Envelope) StatusCode() int {
	if e.Status == nil {
		return 0
	}
	return *e.Status
}

// CanRetry reports whether replaying the identical call may succeed: only
// when the envelope says retryable is true. A missing flag counts as false.
func (e *Envelope) CanRetry() bool { return e.Retryable != nil && *e.Retryable }

// DefaultMaxWait bounds how long RetryAfter lets a client wait.
const DefaultMaxWait = 5 * time.Second

// RetryAfter returns how long to wait before replaying the call: the
// envelope's retryAfterSeconds, or fallback when it has none, never more
// than limit (DefaultMaxWait when limit is zero) and never negative. It
// returns 0 and false when the envelope is not retryable.
func (e *Envelope) RetryAfter(fallback, limit time.Duration) (time.Duration, bool) {
	if !e.CanRetry() {
		return 0, false
	}
	if limit <= 0 {
		limit = DefaultMaxWait
	}
	d := fallback
	if s := e.RetryAfterSeconds; s != nil {
		// Compare in seconds first: a huge value would overflow a Duration.
		if *s > int(limit/time.Second)+1 {
			d = limit
		} else {
			d = time.Duration(*s) * time.Second
		}
	}
	return min(max(d, 0), limit), true
}

// FieldsFor returns the messages listed for one argument, in order: one per
// rule it broke.
func (e *Envelope) FieldsFor(name string) []string {
	var out []string
	for _, f := range e.Fields {
		if f.Name == name {
			out = append(out, f.Message)
		}
	}
	return out
}

// FieldNames returns the distinct argument names in Fields, in first-seen order.
func (e *Envelope) FieldNames() []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range e.Fields {
		if !seen[f.Name] {
			seen[f.Name] = true
			out = append(out, f.Name)
		}
	}
	return out
}
