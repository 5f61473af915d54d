package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/sezzlee/sezzlee/search"
)

// searchLine is one answer of `sezzlee search --json`, and one line of
// its standard-input mode.
type searchLine struct {
	Query string `json:"query"`
	*search.Result
}

// maxQueryLine bounds one line read in the standard-input mode.
const maxQueryLine = 64 << 10

func runSearch(ctx context.Context, e *env, args []string) int {
	fs := newFlagSet("search", "search [--spec FILE_OR_URL] [--json] [--limit N] [--tag T] [--method M] QUERY|-", e)
	var sf specFlags
	fs.StringVar(&sf.spec, "spec", "", "OpenAPI description: a file or an http(s) URL (default: the bundled demo API)")
	fs.BoolVar(&sf.allowPrivate, "allow-private-networks", false, "let --spec URLs and their references reach loopback and private addresses")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	var q search.Query
	fs.IntVar(&q.Limit, "limit", search.DefaultLimit, fmt.Sprintf("number of hits, at most %d", search.MaxLimit))
	fs.StringVar(&q.Tag, "tag", "", "keep only tools with this tag")
	fs.StringVar(&q.Method, "method", "", "keep only tools with this HTTP method")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) != 1 {
		fs.Usage()
		return exitUsage
	}
	if q.Limit < 1 || q.Limit > search.MaxLimit {
		fmt.Fprintf(e.stderr, "sezzlee: --limit must be between 1 and %d\n", search.MaxLimit)
		return exitUsage
	}
	cat, code := sf.load(ctx, e)
	if code != exitOK {
		return code
	}
	s, err := search.New(cat, nil)
	if err != nil {
		fmt.Fprintf(e.stderr, "sezzlee: %v\n", err)
		return exitError
	}
	if pos[0] == "-" {
		return searchLines(ctx, e, s, q)
	}
	q.Text = pos[0]
	res, env := s.Search(ctx, q)
	if env != nil {
		writeJSON(e, env)
		return exitError
	}
	if *asJSON {
		return writeJSON(e, searchLine{Query: q.Text, Result: res})
	}
	writeHits(e.stdout, res)
	return exitOK
}

// searchLines answers each line of standard input with one JSON line.
func searchLines(ctx context.Context, e *env, s *search.Searcher, q search.Query) int {
	sc := bufio.NewScanner(e.stdin)
	sc.Buffer(make([]byte, 0, 4096), maxQueryLine)
	enc := json.NewEncoder(e.stdout)
	code := exitOK
	for sc.Scan() {
		q.Text = strings.TrimSpace(sc.Text())
		res, env := s.Search(ctx, q)
		var v any = searchLine{Query: q.Text, Result: res}
		if env != nil {
			v, code = env, exitError
		}
		if err := enc.Encode(v); err != nil {
			fmt.Fprintf(e.stderr, "sezzlee: %v\n", err)
			return exitError
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintf(e.stderr, "sezzlee: reading queries: %v\n", err)
		return exitError
	}
	return code
}

func writeHits(w io.Writer, res *search.Result) {
	if len(res.Hits) == 0 {
		fmt.Fprintln(w, "no tool matches")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SCORE\tMETHOD\tPATH\tNAME\tSUMMARY")
	for _, h := range res.Hits {
		fmt.Fprintf(tw, "%.3f\t%s\t%s\t%s\t%s\n", h.Score, h.Method, h.Path, h.Name, h.Summary)
	}
	tw.Flush()
	if res.Tool != nil {
		fmt.Fprintf(w, "\nThe first hit dominates: search_tools includes its definition (%s, version %s).\n", res.Tool.Name, res.Tool.Version)
	}
}
