// Package envelope defines the one JSON result every invoke_tool call
// returns, the registry of error codes, and the mapping from a backend's
// HTTP response to an envelope.
//
// An envelope with Status describes what the backend did; an envelope
// without it describes what sezzlee refused or could not send. Every text
// from a backend passes the leak filter (package leak) before it is put in
// an envelope.
//
// The codes live in one append-only table (Codes, Lookup) that
// spec/error-mapping.md publishes; the shapes are spec/invoke-result.schema.json,
// embedded, and Validate checks any envelope against it. FromResponse maps
// a backend's answer; Reject and Retry build sezzlee's own errors, and
// TooLarge, Timeout, Unreachable and Internal build the guards'.
package envelope

import "encoding/json"

// Envelope is the result of one invoke_tool call (and the error result of
// search_tools). The zero value is not meaningful; build envelopes with the
// constructors in this package.
type Envelope struct {
	// Error is the code, empty on success. Error and Message come first
	// in the JSON so that an error reads as one in any viewer.
	Error Code `json:"error,omitempty"`
	// Message tells the agent what to do; backend text is appended only
	// after the leak filter.
	Message string `json:"message,omitempty"`

	// Status is the backend's HTTP status. Zero (absent in JSON) means the
	// envelope came from sezzlee, not from the backend.
	Status int `json:"status,omitempty"`
	// Body is the parsed JSON body, or the text body as a JSON string, or a
	// description of a binary body. Success envelopes only.
	Body json.RawMessage `json:"body,omitempty"`
	// ContentType is the response's media type, success envelopes only.
	ContentType string `json:"contentType,omitempty"`
	// Location is the Location header of a 3xx or 201, success envelopes only.
	Location string `json:"location,omitempty"`

	// Retryable is present on every error envelope.
	Retryable *bool `json:"retryable,omitempty"`
	// RetryAfterSeconds is the backend's Retry-After, in whole seconds.
	RetryAfterSeconds *int `json:"retryAfterSeconds,omitempty"`
	// Reference is a correlation id that survived the leak filter, or
	// sezzlee's own reference for internal_error.
	Reference string `json:"reference,omitempty"`
	// Fields lists each violation; a field may repeat, once per failed rule.
	Fields []Field `json:"fields,omitempty"`
	// Payload describes an oversized response (response_too_large only).
	Payload *Payload `json:"payload,omitempty"`
}

// Field is one field-level violation.
type Field struct {
	// Name is the agent's argument name.
	Name string `json:"name"`
	// Message says what is wrong with it.
	Message string `json:"message"`
}

// Payload describes a response that was too large to hand to the agent.
type Payload struct {
	// Bytes is the body's size, or the bytes read before the read bound
	// stopped reading (the body is then larger).
	Bytes int64 `json:"bytes"`
	// Limit is the most the agent may receive, which Bytes passed.
	Limit int64 `json:"limit"`
	// ContentType is the body's media type, when the backend sent one.
	ContentType string `json:"contentType,omitempty"`
}

// IsError reports whether the envelope is an error envelope.
func (e *Envelope) IsError() bool { return e.Error != "" }

// Code is a stable error code. The registry of codes is one table, append-only.
type Code string

// Backend codes: the envelope carries the backend's Status.
const (
	ValidationFailed   Code = "validation_failed"
	Unauthenticated    Code = "unauthenticated"
	Forbidden          Code = "forbidden"
	NotFound           Code = "not_found"
	Conflict           Code = "conflict"
	RateLimited        Code = "rate_limited"
	BackendTimeout     Code = "backend_timeout"
	BackendUnavailable Code = "backend_unavailable"
	BackendError       Code = "backend_error"
)

// SDK-side codes: the envelope has no Status.
const (
	UnknownArgument         Code = "unknown_argument"
	InvalidPathType         Code = "invalid_path_type"
	MissingPathParameter    Code = "missing_path_parameter"
	HeaderInjection         Code = "header_injection"
	NullNotAllowed          Code = "null_not_allowed"
	InvalidType             Code = "invalid_type"
	DeferredValueMissing    Code = "deferred_value_missing"
	DeferredValueInvalid    Code = "deferred_value_invalid"
	InvalidCookieValue      Code = "invalid_cookie_value"
	CookieCarrierCollision  Code = "cookie_carrier_collision"
	InvalidFileArgument     Code = "invalid_file_argument"
	FileTooLarge            Code = "file_too_large"
	FileUnresolved          Code = "file_unresolved"
	UnknownTool             Code = "unknown_tool"
	NotInvocable            Code = "not_invocable"
	ToolChanged             Code = "tool_changed"
	ResponseTooLarge        Code = "response_too_large"
	InvokeTimeout           Code = "invoke_timeout"
	SearchRankerUnavailable Code = "search_ranker_unavailable"
	InternalError           Code = "internal_error"
	// BackendUnreachable is an extension of the product documents: a remote
	// backend could not be reached (refused, DNS, TLS, reset before a status).
	BackendUnreachable Code = "backend_unreachable"
)
