package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sezzlee/sezzlee/catalog"
	"github.com/sezzlee/sezzlee/search"
)

func runEvalSearch(ctx context.Context, e *env, args []string) int {
	fs := newFlagSet("eval-search", "eval-search --queries FILE --specs DIR [--json] [--misses]", e)
	queries := fs.String("queries", "", "query file: one JSON object per line (spec, query, expect, kind)")
	specsDir := fs.String("specs", "", "folder holding the descriptions the queries name")
	asJSON := fs.Bool("json", false, "print the figures as JSON")
	misses := fs.Bool("misses", false, "after the figures, list each query whose expected operation was not first")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) != 0 || *queries == "" || *specsDir == "" {
		fs.Usage()
		return exitUsage
	}
	f, err := os.Open(*queries)
	if err != nil {
		fmt.Fprintf(e.stderr, "sezzlee: %v\n", err)
		return exitUsage
	}
	qs, err := search.ReadEvalQueries(f)
	f.Close()
	if err != nil {
		fmt.Fprintf(e.stderr, "sezzlee: %s: %v\n", *queries, err)
		return exitUsage
	}
	if len(qs) == 0 {
		fmt.Fprintf(e.stderr, "sezzlee: %s holds no queries\n", *queries)
		return exitUsage
	}
	load := func(ctx context.Context, spec string) (*catalog.Catalog, error) {
		return catalog.Load(ctx, filepath.Join(*specsDir, spec), nil)
	}
	rep, err := search.Evaluate(ctx, qs, load, nil)
	if err != nil {
		fmt.Fprintf(e.stderr, "sezzlee: %v\n", err)
		return exitError
	}
	if *asJSON {
		return writeJSON(e, rep)
	}
	fmt.Fprintf(e.stdout, "%d queries; built-in ranking next to a plain BM25 baseline\n\n", rep.Overall.Queries)
	if err := rep.WriteText(e.stdout); err != nil {
		fmt.Fprintf(e.stderr, "sezzlee: %v\n", err)
		return exitError
	}
	if *misses {
		fmt.Fprintf(e.stdout, "\n%d misses (rank of the first expected operation, 0 when not in the first %d; the first hit)\n", len(rep.Misses), search.MaxLimit)
		for _, m := range rep.Misses {
			fmt.Fprintf(e.stdout, "%2d  %s  %s  %q\n    want %s  got %s\n", m.Rank, m.Spec, m.Kind, m.Query, strings.Join(m.Expect, " | "), m.Top)
		}
	}
	return exitOK
}
