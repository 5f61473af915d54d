// Command sezzlee turns an HTTP API's OpenAPI description into three MCP
// meta-tools (search_tools, load_tool, invoke_tool) an agent can use safely.
//
// This package holds flag parsing and wiring only; the work is done by the
// catalog, search, invoke, envelope and mcpserver packages.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"
)

// Exit codes.
const (
	exitOK    = 0
	exitError = 1 // the job ran and failed (an error envelope, a failed scenario)
	exitUsage = 2 // bad flags, bad configuration, a file that is not a description
)

// env is what a command may touch; tests supply their own.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
}

// command is one subcommand.
type command struct {
	summary string
	run     func(ctx context.Context, e *env, args []string) int
}

var commands = map[string]command{
	"tools":       {"list the tools a description becomes", runTools},
	"load":        {"print what load_tool returns for one tool", runLoad},
	"invoke":      {"call one tool and print its envelope", runInvoke},
	"search":      {"rank the tools for a task description", runSearch},
	"eval-search": {"measure search quality on a query set", runEvalSearch},
	"serve":       {"serve the meta-tools over MCP in front of an API", runServe},
	"demo":        {"serve the meta-tools over the bundled demo API", runDemo},
	"agent":       {"run the example agent client's scenarios", runAgent},
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}, os.Args[1:])
	stop()
	os.Exit(code)
}

func run(ctx context.Context, e *env, args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(e.stderr)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(e.stderr, "sezzlee: unknown command %q\n", args[0])
		usage(e.stderr)
		return exitUsage
	}
	return c.run(ctx, e, args[1:])
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: sezzlee COMMAND [flags]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-12s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'sezzlee COMMAND -h' for a command's flags.")
}

// errUsage marks an error that exits with exitUsage.
var errUsage = errors.New("usage")
