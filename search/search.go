// Package search ranks a catalog's tools for an agent's task description.
package search

import (
	"context"

	"github.com/sezzlee/sezzlee/catalog"
)

// Query is one search_tools request.
type Query struct {
	// Text is the agent's description of its task.
	Text string
	// Limit is the number of hits wanted. Zero means DefaultLimit; values
	// above MaxLimit are lowered to it.
	Limit int
	// Tag, when set, keeps only tools with this tag (case-insensitive).
	Tag string
	// Method, when set, keeps only tools with this HTTP method.
	Method string
}

// Limits on the number of hits.
const (
	DefaultLimit = 5
	MaxLimit     = 20
)

// Hit is one ranked tool.
type Hit struct {
	Name    string  `json:"name"`
	Method  string  `json:"method"`
	Path    string  `json:"path"`
	Summary string  `json:"summary,omitempty"`
	Score   float64 `json:"score"`
}

// Ranker ranks tools for a query. A host binds its own (an embedding
// service, say) through Options; the built-in BM25F index is the default.
type Ranker interface {
	Rank(ctx context.Context, q Query, tools []*catalog.Tool) ([]Hit, error)
}
