package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/sezzlee/sezzlee/agent"
)

// agentFlags are the flags of `sezzlee agent`.
type agentFlags struct {
	scenario string
	url      string
	command  string
	tool     string
	list     bool
	argv     []string // command, split
	maxWait  time.Duration
	timeout  time.Duration
}

func parseAgentFlags(stderr io.Writer, args []string) (*agentFlags, error) {
	var f agentFlags
	fs := flag.NewFlagSet("sezzlee agent", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.scenario, "scenario", "", "scenario to run, or all (see --list)")
	fs.StringVar(&f.url, "url", "", "streamable HTTP endpoint of a sezzlee server")
	fs.StringVar(&f.command, "command", "", `command that serves MCP over stdio, e.g. "sezzlee demo --stdio" (split on spaces; quote with '' or "")`)
	fs.StringVar(&f.tool, "tool", "", "tool for validation-retry, sdk-rejection and tool-changed (default createOrder)")
	fs.BoolVar(&f.list, "list", false, "list the scenarios and exit")
	fs.DurationVar(&f.maxWait, "max-wait", agent.DefaultMaxWait, "longest wait a retryable envelope may ask for")
	fs.DurationVar(&f.timeout, "timeout", 2*time.Minute, "bound on the whole run")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: sezzlee agent --scenario NAME|all (--url URL | --command \"CMD ARGS\") [--tool NAME]\n       sezzlee agent --list")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, errUsage
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	if f.list {
		return &f, nil
	}
	switch {
	case f.scenario == "":
		return nil, fmt.Errorf("%w: --scenario is required (see --list)", errUsage)
	case f.scenario != "all":
		if _, ok := agent.FindScenario(f.scenario); !ok {
			return nil, fmt.Errorf("%w: unknown scenario %q (see --list)", errUsage, f.scenario)
		}
	}
	if (f.url == "") == (strings.TrimSpace(f.command) == "") {
		return nil, fmt.Errorf("%w: give exactly one of --url and --command", errUsage)
	}
	if f.command != "" {
		argv, err := splitCommand(f.command)
		if err != nil {
			return nil, fmt.Errorf("%w: --command: %v", errUsage, err)
		}
		f.argv = argv
	}
	return &f, nil
}

// splitCommand splits a command line on blanks. Single quotes keep
// everything inside them; double quotes keep blanks and honour a backslash
// before a double quote or a backslash; outside quotes a backslash keeps the
// next character. There are no variables, globs or other shell syntax.
func splitCommand(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inWord := false
	var quote rune
	escaped := false
	for _, c := range s {
		switch {
		case escaped:
			if quote == '"' && c != '"' && c != '\\' {
				cur.WriteRune('\\')
			}
			cur.WriteRune(c)
			escaped = false
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				cur.WriteRune(c)
			}
		case c == '\\':
			escaped, inWord = true, true
		case quote == '"':
			if c == '"' {
				quote = 0
			} else {
				cur.WriteRune(c)
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(c)
			inWord = true
		}
	}
	if quote != 0 || escaped {
		return nil, errors.New("unterminated quote or escape")
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out, nil
}

func runAgent(ctx context.Context, e *env, args []string) int {
	f, err := parseAgentFlags(e.stderr, args)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		if msg := err.Error(); msg != errUsage.Error() {
			fmt.Fprintln(e.stderr, "sezzlee agent:", strings.TrimPrefix(msg, "usage: "))
		}
		return exitUsage
	}
	if f.list {
		for _, s := range agent.Scenarios() {
			fmt.Fprintf(e.stdout, "%-20s %s\n", s.Name, s.Summary)
		}
		return exitOK
	}
	scenarios := agent.Scenarios()
	if f.scenario != "all" {
		s, _ := agent.FindScenario(f.scenario)
		scenarios = []agent.Scenario{s}
	}

	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	var transport mcp.Transport
	if f.url != "" {
		transport = &mcp.StreamableClientTransport{Endpoint: f.url}
	} else {
		cmd := exec.Command(f.argv[0], f.argv[1:]...)
		cmd.Stderr = e.stderr
		transport = &mcp.CommandTransport{Command: cmd}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "sezzlee-agent", Version: "1"}, nil)
	session, err := client.Connect(ctx, transport, nil)
	if err != nil {
		fmt.Fprintln(e.stderr, "sezzlee agent: connecting:", err)
		return exitError
	}
	defer session.Close()

	opts := &agent.Options{Tool: f.tool, Out: e.stdout, MaxWait: f.maxWait}
	var reports []*agent.Report
	for _, s := range scenarios {
		reports = append(reports, s.Run(ctx, session, opts))
	}
	failed := 0
	fmt.Fprintln(e.stdout, "summary:")
	for _, r := range reports {
		verdict := "PASS"
		if !r.OK() {
			verdict = "FAIL"
			failed++
		}
		fmt.Fprintf(e.stdout, "  %s %-20s %d passed, %d failed\n", verdict, r.Scenario, r.Passed, r.Failed)
	}
	fmt.Fprintf(e.stdout, "scenarios: %d passed, %d failed\n", len(reports)-failed, failed)
	if err := ctx.Err(); errors.Is(err, context.DeadlineExceeded) {
		fmt.Fprintf(e.stderr, "sezzlee agent: the run exceeded --timeout %v\n", f.timeout)
		return exitError
	}
	if failed > 0 {
		return exitError
	}
	return exitOK
}
