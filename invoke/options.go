package invoke

import "time"

// Options configures an Invoker. Each field documents its zero value.
type Options struct {
	// Backend receives composed requests. Required.
	Backend Backend
	// Timeout bounds a whole call, dispatch and reading the response.
	// Zero means 30 seconds.
	Timeout time.Duration
	// MaxResponseBytes bounds how much of a response body is read, counted
	// after decompression. Zero means 8 MiB.
	MaxResponseBytes int64
	// MaxAgentBytes bounds the body handed to the agent; larger answers
	// response_too_large. Zero means envelope.DefaultMaxAgentBytes.
	MaxAgentBytes int64
}

// New returns an Invoker. It fails when opts is nil or has no Backend.
func New(opts *Options) (*Invoker, error) {
	return &Invoker{opts: *opts}, nil
}
