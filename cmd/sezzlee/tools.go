package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/sezzlee/sezzlee/catalog"
	"github.com/sezzlee/sezzlee/demo"
	"github.com/sezzlee/sezzlee/ssrf"
)

// listFlag is a repeatable flag whose values may also be comma-separated.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l = append(*l, s)
		}
	}
	return nil
}

// specFlags are the flags that choose and filter a description; every
// command that builds a catalog registers them.
type specFlags struct {
	spec         string
	allowPrivate bool
	deferred     []string
	filter       catalog.Filter
}

func (f *specFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.spec, "spec", "", "OpenAPI description: a file or an http(s) URL (default: the bundled demo API)")
	fs.BoolVar(&f.allowPrivate, "allow-private-networks", false, "let --spec URLs and their references reach loopback and private addresses")
	fs.Var((*listFlag)(&f.filter.IncludeTags), "include-tag", "keep only operations with one of these tags (repeatable, comma-separated)")
	fs.Var((*listFlag)(&f.filter.ExcludeTags), "exclude-tag", "drop operations with any of these tags")
	fs.Var((*listFlag)(&f.filter.IncludeOperations), "include-op", "keep only operations whose operationId matches one of these patterns")
	fs.Var((*listFlag)(&f.filter.ExcludeOperations), "exclude-op", "drop operations whose operationId matches one of these patterns")
	fs.Var((*listFlag)(&f.filter.Methods), "method", "keep only these HTTP methods")
	fs.Var((*listFlag)(&f.filter.PathPrefixes), "path-prefix", "keep only paths starting with one of these prefixes")
	fs.BoolVar(&f.filter.ReadOnly, "read-only", false, "keep only safe methods (GET, HEAD, OPTIONS)")
}

// registerDeferred adds --deferred NAME for the commands that only list
// or show tools (invoke and serve take their own --deferred with values).
func (f *specFlags) registerDeferred(fs *flag.FlagSet) {
	fs.Var((*listFlag)(&f.deferred), "deferred", "argument names the host supplies rather than the agent (repeatable, comma-separated)")
}

// load builds the catalog the flags choose and writes its warnings to
// stderr, one a line. On failure it reports the error and returns the
// exit code.
func (f *specFlags) load(ctx context.Context, e *env) (*catalog.Catalog, int) {
	opts := &catalog.Options{Filter: f.filter, AllowPrivateNetworks: f.allowPrivate, Deferred: f.deferred}
	var c *catalog.Catalog
	var err error
	if f.spec == "" {
		opts.Deferred = append(append([]string(nil), demo.Deferred...), f.deferred...)
		c, err = catalog.Parse(demo.Description, opts)
	} else {
		c, err = catalog.Load(ctx, f.spec, opts)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "sezzlee: %v\n", err)
		if errors.Is(err, ssrf.ErrBlocked) {
			fmt.Fprintln(e.stderr, "sezzlee: --allow-private-networks lets --spec reach such an address")
		}
		var le *catalog.LoadError
		if errors.As(err, &le) {
			return nil, exitUsage
		}
		return nil, exitError
	}
	for _, w := range c.Warnings {
		fmt.Fprintf(e.stderr, "warning: %s\n", w)
	}
	return c, exitOK
}

// parseInterspersed parses flags that may come before or after the
// positional arguments, and returns the positional ones.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func newFlagSet(name, usage string, e *env) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: sezzlee %s\n\nflags:\n", usage)
		fs.PrintDefaults()
	}
	return fs
}

func flagExit(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	return exitUsage
}

// toolLine is one tool in `sezzlee tools --json`.
type toolLine struct {
	Name    string   `json:"name"`
	Method  string   `json:"method"`
	Path    string   `json:"path"`
	Version string   `json:"version"`
	Summary string   `json:"summary"`
	Tags    []string `json:"tags"`
}

func runTools(ctx context.Context, e *env, args []string) int {
	fs := newFlagSet("tools", "tools [--spec FILE_OR_URL] [--json] [filter flags]", e)
	var sf specFlags
	sf.register(fs)
	sf.registerDeferred(fs)
	asJSON := fs.Bool("json", false, "print a JSON array of {name, method, path, version, summary, tags}")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) > 0 {
		fmt.Fprintf(e.stderr, "sezzlee tools: unexpected argument %q\n", pos[0])
		fs.Usage()
		return exitUsage
	}
	c, code := sf.load(ctx, e)
	if c == nil {
		return code
	}
	if *asJSON {
		lines := make([]toolLine, 0, c.Len())
		for _, t := range c.Tools() {
			tags := t.Tags
			if tags == nil {
				tags = []string{}
			}
			lines = append(lines, toolLine{t.Name, t.Method, t.PathKey, t.Version, t.Summary, tags})
		}
		return writeJSON(e, lines)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	for _, t := range c.Tools() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", t.Name, t.Method, t.PathKey, t.Version, oneLine(t.Summary))
	}
	if err := tw.Flush(); err != nil {
		return exitError
	}
	return exitOK
}

func runLoad(ctx context.Context, e *env, args []string) int {
	fs := newFlagSet("load", "load [--spec FILE_OR_URL] [filter flags] NAME", e)
	var sf specFlags
	sf.register(fs)
	sf.registerDeferred(fs)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) != 1 {
		fmt.Fprintln(e.stderr, "sezzlee load: want exactly one tool NAME")
		fs.Usage()
		return exitUsage
	}
	c, code := sf.load(ctx, e)
	if c == nil {
		return code
	}
	t, ok := c.Tool(pos[0])
	if !ok {
		if reason, excluded := c.Excluded(pos[0]); excluded {
			fmt.Fprintf(e.stderr, "sezzlee load: tool %q is not available: %s\n", pos[0], reason)
		} else {
			fmt.Fprintf(e.stderr, "sezzlee load: no tool named %q (run sezzlee tools to list them)\n", pos[0])
		}
		return exitError
	}
	return writeJSON(e, t.Definition())
}

func writeJSON(e *env, v any) int {
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // descriptions are read by people and models, not embedded in HTML
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(e.stderr, "sezzlee: %v\n", err)
		return exitError
	}
	return exitOK
}

// oneLine flattens whitespace so a summary fits on its line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
