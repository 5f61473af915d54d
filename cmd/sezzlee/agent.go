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
	maxWait  time.Duration
	timeout  time.Duration
}

func parseAgentFlags(stderr io.Writer, args []string) (*agentFlags, error) {
	var f agentFlags
	fs := flag.NewFlagSet("sezzlee agent", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.scenario, "scenario", "", "scenario to run, or all (see --list)")
	fs.StringVar(&f.url, "url", "", "streamable HTTP endpoint of a sezzlee server")
	fs.StringVar(&f.command, "command", "", `command that serves MCP over stdio, e.g. "sezzlee demo --stdio" (split on spaces, no quoting)`)
	fs.StringVar(&f.tool, "tool", "", "tool for validation-retry, sdk-rejection and tool-changed (default createOrder)")
	fs.BoolVar(&f.list, "list", false, "list the scenarios and exit")
	fs.DurationVar(&f.maxWait, "max-wait", agent.DefaultMaxWait, "longest wait a retryable envelope may ask for")
	fs.DurationVar(&f.timeout, "timeout", 2*time.Minute, "bound on the whole run")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: sezzlee agent --scenario NAME|all (--url URL | --command \"CMD ARGS\") [--tool NAME]\n       sezzlee agent --list")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
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
	return &f, nil
}

func runAgent(ctx context.Context, e *env, args []string) int {
	f, err := parseAgentFlags(e.stderr, args)
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
		argv := strings.Fields(f.command)
		cmd := exec.Command(argv[0], argv[1:]...)
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
	if err := ctx.Err(); errors.Is(err, context.DeadlineExceeded) {
		fmt.Fprintf(e.stderr, "sezzlee agent: the run exceeded --timeout %v\n", f.timeout)
		return exitError
	}
	if failed > 0 {
		return exitError
	}
	return exitOK
}
