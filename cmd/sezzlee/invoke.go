package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/sezzlee/sezzlee/catalog"
	"github.com/sezzlee/sezzlee/demo"
	"github.com/sezzlee/sezzlee/invoke"
)

const invokeUsage = `invoke [--spec FILE_OR_URL] [--upstream URL] [--timeout DURATION] [--max-response BYTES]
       [--version V] [--allow-private-networks] [--deferred NAME=VALUE]... [--credential SCHEME=ENVVAR]...
       NAME ['JSON_ARGUMENTS']

Calls one tool and prints its envelope as JSON. Exit status: 0 for a
success envelope, 1 for an error envelope, 2 for bad usage.

The request goes to --upstream with the operation's path appended, or to
the description's first server. The --upstream URL is the operator's own
choice, so it may be on loopback or a private network; a server taken from
the description may be only with --allow-private-networks. Without --spec
and --upstream the bundled demo API answers in-process.`

func runInvoke(ctx context.Context, e *env, args []string) int {
	fs := newFlagSet("invoke", invokeUsage, e)
	var sf specFlags
	sf.register(fs)
	upstream := fs.String("upstream", "", "base URL of the API; the operation's path is appended (default: the description's first server)")
	timeout := fs.Duration("timeout", invoke.DefaultTimeout, "bound on the whole call")
	maxResponse := fs.Int64("max-response", invoke.DefaultMaxResponseBytes, "most response bytes read, after decompression")
	version := fs.String("version", "", "the tool version the arguments were written for; a different one answers tool_changed")
	var deferred, credentials repeatedFlag
	fs.Var(&deferred, "deferred", "a host-supplied value NAME=VALUE (repeatable)")
	fs.Var(&credentials, "credential", "SCHEME=ENVVAR: send the secret in $ENVVAR for the security scheme SCHEME (repeatable)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) < 1 || len(pos) > 2 {
		fmt.Fprintln(e.stderr, "sezzlee invoke: want a tool name and, optionally, its JSON arguments")
		fs.Usage()
		return exitUsage
	}
	if *timeout <= 0 || *maxResponse <= 0 {
		fmt.Fprintln(e.stderr, "sezzlee invoke: --timeout and --max-response must be positive")
		return exitUsage
	}
	values, err := pairsFlag(deferred, "--deferred")
	if err != nil {
		fmt.Fprintf(e.stderr, "sezzlee invoke: %v\n", err)
		return exitUsage
	}
	schemes, err := pairsFlag(credentials, "--credential")
	if err != nil {
		fmt.Fprintf(e.stderr, "sezzlee invoke: %v\n", err)
		return exitUsage
	}
	secrets := invoke.StaticCredentials{}
	for scheme, envvar := range schemes {
		v := e.getenv(envvar)
		if v == "" {
			fmt.Fprintf(e.stderr, "sezzlee invoke: $%s, named by --credential %s, is empty\n", envvar, scheme)
			return exitUsage
		}
		secrets[scheme] = v
	}
	// Every name given a value is deferred: the host supplies it, so it
	// leaves the agent's arguments. The bundled demo acts for its demo user.
	for name := range values {
		sf.deferred = append(sf.deferred, name)
	}
	sort.Strings(sf.deferred)
	if sf.spec == "" && *upstream == "" {
		if _, ok := values["owner"]; !ok {
			values["owner"] = demoUser
		}
	}
	cat, code := sf.load(ctx, e)
	if cat == nil {
		return code
	}
	backend, err := chooseBackend(cat, sf, *upstream, *timeout)
	if err != nil {
		fmt.Fprintf(e.stderr, "sezzlee invoke: %v\n", err)
		return exitUsage
	}
	inv, err := invoke.New(&invoke.Options{
		Backend:          backend,
		Timeout:          *timeout,
		MaxResponseBytes: *maxResponse,
		Credentials:      secrets.Credentials,
		Deferred: func(_ context.Context, _ *catalog.Tool, name string) (any, bool, error) {
			v, ok := values[name]
			return v, ok, nil
		},
	})
	if err != nil {
		fmt.Fprintf(e.stderr, "sezzlee invoke: %v\n", err)
		return exitUsage
	}
	call := invoke.Call{Tool: pos[0], Version: *version}
	if len(pos) == 2 {
		call.Arguments = json.RawMessage(pos[1])
	}
	env := inv.Invoke(ctx, cat, call)
	out, _ := json.MarshalIndent(env, "", "  ")
	fmt.Fprintln(e.stdout, string(out))
	if env.IsError() {
		return exitError
	}
	return exitOK
}

// chooseBackend picks where calls go: --upstream, else the description's
// first server, else (for the bundled demo) the demo API in-process.
func chooseBackend(cat *catalog.Catalog, sf specFlags, upstream string, timeout time.Duration) (invoke.Backend, error) {
	if upstream == "" && sf.spec == "" {
		return invoke.Handler(demo.NewHandler(nil)), nil
	}
	opts := &invoke.RemoteOptions{AllowPrivateNetworks: sf.allowPrivate, Timeout: timeout}
	if upstream != "" {
		opts.AllowPrivateNetworks = true // the operator typed this address
		return invoke.Remote(upstream, opts)
	}
	if len(cat.Servers) == 0 || !strings.Contains(cat.Servers[0], "://") {
		return nil, fmt.Errorf("the description names no absolute server URL; pass --upstream")
	}
	return invoke.Remote(cat.Servers[0], opts)
}

// pairsFlag splits NAME=VALUE flag values.
func pairsFlag(list []string, flagName string) (map[string]string, error) {
	m := make(map[string]string, len(list))
	for _, kv := range list {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("%s %q: want NAME=VALUE", flagName, kv)
		}
		m[k] = v
	}
	return m, nil
}

// repeatedFlag is a repeatable flag; unlike listFlag it does not split on
// commas, since a value may contain one.
type repeatedFlag []string

func (r *repeatedFlag) String() string { return strings.Join(*r, " ") }

func (r *repeatedFlag) Set(v string) error {
	*r = append(*r, v)
	return nil
}
