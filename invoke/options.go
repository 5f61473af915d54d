package invoke

import (
	"errors"
	"io"
	"log/slog"
	"time"

	"github.com/sezzlee/sezzlee/envelope"
)

// Options configures an Invoker. Each field documents its zero value.
type Options struct {
	// Backend receives composed requests. Required.
	Backend Backend
	// Timeout bounds a whole call, dispatch and reading the response.
	// Zero means DefaultTimeout.
	Timeout time.Duration
	// MaxResponseBytes bounds how much of a response body is read, counted
	// after decompression. Zero means DefaultMaxResponseBytes.
	MaxResponseBytes int64
	// MaxAgentBytes bounds the body handed to the agent; larger answers
	// response_too_large. Zero means envelope.DefaultMaxAgentBytes.
	MaxAgentBytes int64
	// MaxFileBytes bounds each file argument after decoding or resolving;
	// a larger file answers file_too_large. Zero means DefaultMaxFileBytes.
	MaxFileBytes int64
	// Files resolves file arguments given as URIs other than data: URIs,
	// which are always understood. Nil means such URIs answer
	// invalid_file_argument: only inline content and data: URIs are accepted.
	Files FileResolver
	// Deferred supplies the values the host, not the agent, provides (an
	// owner taken from the authenticated caller, a tenant id). Nil means
	// every deferred argument is missing: a tool with a required deferred
	// argument answers deferred_value_missing.
	Deferred DeferredResolver
	// Credentials supplies the secrets a tool's security schemes need.
	// Nil means no credentials are sent; the backend then answers for itself
	// (usually unauthenticated).
	Credentials Credentials
	// IdempotencyKeys, when set, makes the Invoker send an idempotency key
	// with every call whose method is not idempotent. Nil means no key is sent.
	IdempotencyKeys *IdempotencyKeys
	// Logger receives one debug line per call (tool, method, status,
	// duration) and the internal cause of internal errors. Argument values,
	// headers and credentials are never logged. Nil discards the output.
	Logger *slog.Logger
}

// IdempotencyKeys configures the Idempotency-Key header sent on calls whose
// method is not idempotent (POST, PATCH and any method not defined as
// idempotent by RFC 9110). A key is fresh for each logical call; when a call's
// outcome is unknown (a timeout, a connection broken after the request was
// written) the key is kept, and the same call retried by the same caller
// (same tool, version and arguments) is sent with the same key.
type IdempotencyKeys struct {
	// Header is the header name. Zero means "Idempotency-Key".
	Header string
	// TTL is how long a key is kept for a retry after an unknown outcome.
	// Zero means 24 hours, the window most APIs honour keys for.
	TTL time.Duration
	// MaxPending bounds how many keys are kept at once; the oldest is
	// dropped first. Zero means 10000.
	MaxPending int
}

// Defaults for the zero values of Options.
const (
	DefaultTimeout          = 30 * time.Second
	DefaultMaxResponseBytes = 8 << 20
	DefaultMaxFileBytes     = 10 << 20
)

// Errors returned by New.
var (
	ErrNoOptions = errors.New("invoke: options are required")
	ErrNoBackend = errors.New("invoke: Options.Backend is required")
	ErrNegative  = errors.New("invoke: Options has a negative duration or size")
)

// New returns an Invoker. It fails when opts is nil, has no Backend or has
// a negative limit.
func New(opts *Options) (*Invoker, error) {
	if opts == nil {
		return nil, ErrNoOptions
	}
	if opts.Backend == nil {
		return nil, ErrNoBackend
	}
	o := *opts
	if o.Timeout < 0 || o.MaxResponseBytes < 0 || o.MaxAgentBytes < 0 || o.MaxFileBytes < 0 {
		return nil, ErrNegative
	}
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxResponseBytes == 0 {
		o.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if o.MaxAgentBytes == 0 {
		o.MaxAgentBytes = envelope.DefaultMaxAgentBytes
	}
	if o.MaxFileBytes == 0 {
		o.MaxFileBytes = DefaultMaxFileBytes
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	inv := &Invoker{opts: o, now: time.Now}
	inv.plans.m = make(map[planKey]*plan)
	if k := o.IdempotencyKeys; k != nil {
		if k.TTL < 0 || k.MaxPending < 0 {
			return nil, ErrNegative
		}
		inv.idem = newIdemStore(*k)
	}
	return inv, nil
}
