// Package search ranks a catalog's tools for an agent's task description:
// the search_tools meta-tool.
//
// An agent knows its task, not the API's vocabulary, so the built-in
// ranking is BM25F over one document per tool whose fields are weighted
// apart: the name (split at camelCase, snake_case, dots, dashes and
// digits), the method and the intent it implies, the path segments, the
// summary (or, without one, the description's first sentence), the
// description with HTML and Markdown stripped, the tags, the arguments'
// names, descriptions and enum values, and the summary and description of
// the path the operation sits under (catalog.Tool.Context). Words are lower-cased,
// stopwords dropped and stems taken with Porter2; each query word also
// searches for its synonyms in a small table of API vocabulary, at a lower
// weight, and a tool's score grows with the share of the query's words it
// matches. Equal scores are ordered by tool name, so results are
// deterministic.
//
// A Searcher indexes one immutable catalog once, in New; a reload builds a
// new Searcher. A host may bind its own Ranker (an embedding service, say);
// when it fails, Search falls back to the built-in ranking or, when
// configured to, refuses with the retryable search_ranker_unavailable
// envelope. Evaluate measures a ranking on a query set next to a plain
// BM25 baseline; docs/search.md gives the figures and how to read them.
package search
