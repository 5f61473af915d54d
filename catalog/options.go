package catalog

import "time"

// Options configures Load. A nil *Options and the zero value are both usable;
// each field documents what its zero value means.
type Options struct {
	// Filter selects which operations become tools. Zero keeps them all.
	Filter Filter

	// Deferred names arguments that the host supplies at dispatch time
	// (the owner taken from the authenticated caller, a tenant id). Wherever
	// a tool has an argument with one of these names it is left out of the
	// agent's input schema and marked Deferred in the binding. A parameter
	// or property carrying the extension "x-sezzlee-deferred: true" is
	// deferred too. Zero means only the extension marks deferred values.
	Deferred []string

	// MaxBytes bounds the size of the description and of each file or URL it
	// references. Zero means DefaultMaxBytes.
	MaxBytes int64
	// MaxDepth bounds the nesting depth of the YAML or JSON read.
	// Zero means DefaultMaxDepth.
	MaxDepth int

	// FetchTimeout bounds each http(s) fetch (the description and every
	// remote reference). Zero means DefaultFetchTimeout.
	FetchTimeout time.Duration
	// AllowPrivateNetworks lets http(s) fetches reach loopback, private,
	// link-local and other non-public addresses. Zero refuses them.
	AllowPrivateNetworks bool
}

// Defaults for the zero values of Options.
const (
	DefaultMaxBytes     = 32 << 20
	DefaultMaxDepth     = 200
	DefaultFetchTimeout = 30 * time.Second
)

// Filter selects operations. Each non-empty list must match for an
// operation to be kept; the zero Filter keeps every operation.
type Filter struct {
	// IncludeTags keeps operations with at least one of these tags.
	IncludeTags []string
	// ExcludeTags drops operations with any of these tags.
	ExcludeTags []string
	// IncludeOperations keeps operations whose operationId (or tool name,
	// when there is no operationId) matches one of these path.Match patterns.
	IncludeOperations []string
	// ExcludeOperations drops operations matching any of these patterns.
	ExcludeOperations []string
	// Methods keeps only these HTTP methods (case-insensitive).
	Methods []string
	// PathPrefixes keeps operations whose path starts with one of these.
	PathPrefixes []string
	// ReadOnly keeps only safe methods (GET, HEAD, OPTIONS).
	ReadOnly bool
}
