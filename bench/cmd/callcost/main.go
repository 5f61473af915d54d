// Command callcost measures what one small tool call costs through each kind
// of server, on loopback, in one run: the backend called directly with a Go
// HTTP client; a bare go-sdk streamable HTTP server whose one tool forwards
// to the backend (the MCP transport alone), in its default mode and with the
// SDK's JSON-response and stateless options, with the tool registered without
// the typed helper, and behind a prototype lean path for tools/call;
// sezzlee's mcpserver embedded with pprof (bench/cmd/sezzleeprof); and
// sezzlee serve's invoke_tool.
//
// Every server is its own process, so each one's CPU time is read from
// /proc/PID/stat (user plus system) before and after a phase and divided by
// the calls made. For each configuration and each of -runs repetitions it
// runs a latency phase (one client, calls back to back: p50, p99) and a
// throughput phase (-clients clients: calls per second), each bounded by -d
// and -max-calls. The servers are driven by a bare JSON-RPC client written
// here, cheap enough not to hide their cost, and, when Node and bench/ts are
// installed, by the official TypeScript MCP client too.
//
// Run it from the module root: go run ./bench/cmd/callcost (or bench/run.sh).
// It builds the binaries it starts into -out/bin and writes the servers'
// logs and, with -profile, pprof profiles to -out.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"
)

type flags struct {
	d            time.Duration
	runs         int
	clients      int
	maxCalls     int
	configs      string
	out          string
	ts           bool
	tsConfigs    string
	profile      time.Duration
	protocol     string
	sezzleeBin   string
	sezzleeFlags string
	sezzleePath  string
	sezzleeTool  string
}

func main() {
	var f flags
	flag.DurationVar(&f.d, "d", 10*time.Second, "duration of each phase")
	flag.IntVar(&f.runs, "runs", 3, "repetitions of the whole set, to show the spread")
	flag.IntVar(&f.clients, "clients", 16, "concurrent clients in the throughput phase")
	flag.IntVar(&f.maxCalls, "max-calls", 500000, "upper bound on the calls of one phase")
	flag.StringVar(&f.configs, "configs", "direct,bare,bare-json,bare-stateless,bare-raw,lean,lean-sse,embedded,sezzlee", "configurations to measure, comma-separated")
	flag.StringVar(&f.out, "out", "bench/out", "directory for binaries, logs and profiles")
	flag.BoolVar(&f.ts, "ts", true, "also drive MCP servers with the TypeScript client (bench/ts, needs node and npm ci)")
	flag.StringVar(&f.tsConfigs, "ts-configs", "bare,embedded,sezzlee", "configurations the TypeScript client drives, comma-separated")
	flag.DurationVar(&f.profile, "profile", 0, "if set, after measuring, profile each server that serves pprof for this long under the throughput load")
	flag.StringVar(&f.protocol, "protocol", "2025-11-25", "MCP protocol version the bare client asks for")
	flag.StringVar(&f.sezzleeBin, "sezzlee-bin", "", "prebuilt sezzlee binary; empty builds ./cmd/sezzlee")
	flag.StringVar(&f.sezzleeFlags, "sezzlee-flags", "--allow-private-networks", "extra flags for sezzlee serve, space-separated")
	flag.StringVar(&f.sezzleePath, "sezzlee-path", "/mcp", "path of sezzlee serve's MCP endpoint")
	flag.StringVar(&f.sezzleeTool, "sezzlee-tool", "getItem", "name sezzlee gives the backend's operation")
	flag.Parse()
	if f.runs < 1 || f.clients < 1 || f.maxCalls < 1 || f.d <= 0 || f.d > 5*time.Minute {
		fmt.Fprintln(os.Stderr, "callcost: -runs, -clients and -max-calls must be positive and -d in (0, 5m]")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, &f)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "callcost:", err)
		os.Exit(1)
	}
}

// target is one configuration under measurement.
type target struct {
	name  string
	front *server // the server in front of the backend; nil for direct
	pprof string  // its pprof address, when it serves one
	url   string  // MCP endpoint; empty for direct
	tool  string
	wrap  string // "invoke_tool" for sezzlee
	// skip, when set, says why the configuration was not measured.
	skip string
}

// measured is the processes whose CPU a target's phases read.
func (t *target) meter(backend *server) cpuMeter {
	if t.front == nil {
		return cpuMeter{backend}
	}
	return cpuMeter{t.front, backend}
}

// serverName is the process whose CPU per call the report shows.
func (t *target) serverName() string {
	if t.front == nil {
		return "backend"
	}
	return t.front.name
}

func run(ctx context.Context, f *flags) error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	out := f.out
	if !filepath.IsAbs(out) {
		out = filepath.Join(root, out)
	}
	bin := filepath.Join(out, "bin")
	logs := filepath.Join(out, "logs")
	for _, d := range []string{bin, logs} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	want := map[string]bool{}
	for c := range strings.SplitSeq(f.configs, ",") {
		want[strings.TrimSpace(c)] = true
	}

	fmt.Fprintf(os.Stderr, "callcost: building into %s\n", bin)
	for _, pkg := range []string{"backend", "bareserver"} {
		if msg := gobuild(root, filepath.Join(bin, pkg), "./bench/cmd/"+pkg); msg != "" {
			return fmt.Errorf("building %s: %s", pkg, msg)
		}
	}
	sezzleeBin, sezzleeSkip := f.sezzleeBin, ""
	if want["sezzlee"] && sezzleeBin == "" {
		sezzleeBin = filepath.Join(bin, "sezzlee")
		if msg := gobuild(root, sezzleeBin, "./cmd/sezzlee"); msg != "" {
			sezzleeSkip = "build failed: " + msg
		}
	}

	addr, err := freeAddr()
	if err != nil {
		return err
	}
	backend, err := startServer(ctx, "backend", logs, addr, filepath.Join(bin, "backend"), "-listen", addr)
	if err != nil {
		return err
	}
	defer backend.stop()
	upstream := "http://" + backend.addr

	var targets []*target
	if want["direct"] {
		targets = append(targets, &target{name: "direct"})
	}
	for _, b := range []struct{ name, flags string }{
		{"bare", ""},
		{"bare-json", "-json"},
		{"bare-stateless", "-stateless -json"},
		{"bare-raw", "-stateless -json -raw"},
		{"lean", "-stateless -json -lean"},
		{"lean-sse", "-lean"},
	} {
		if !want[b.name] {
			continue
		}
		t := &target{name: b.name, tool: "get_item"}
		stop, err := t.launch(ctx, logs, filepath.Join(bin, "bareserver"), "/mcp", true, func(addr, paddr string) []string {
			return append([]string{"-listen", addr, "-upstream", upstream, "-pprof", paddr}, strings.Fields(b.flags)...)
		})
		if err != nil {
			return err
		}
		defer stop()
		targets = append(targets, t)
	}
	spec := filepath.Join(root, "bench/testdata/backend.yaml")
	if want["embedded"] {
		t := &target{name: "embedded", tool: f.sezzleeTool, wrap: "invoke_tool"}
		if msg := gobuild(root, filepath.Join(bin, "sezzleeprof"), "./bench/cmd/sezzleeprof"); msg != "" {
			t.skip = "build failed: " + msg
		}
		stop, err := t.launch(ctx, logs, filepath.Join(bin, "sezzleeprof"), "/mcp", true, func(addr, paddr string) []string {
			return []string{"-listen", addr, "-spec", spec, "-upstream", upstream, "-pprof", paddr}
		})
		if err != nil {
			return err
		}
		defer stop()
		targets = append(targets, t)
	}
	if want["sezzlee"] {
		t := &target{name: "sezzlee", tool: f.sezzleeTool, wrap: "invoke_tool", skip: sezzleeSkip}
		stop, err := t.launch(ctx, logs, sezzleeBin, f.sezzleePath, false, func(addr, _ string) []string {
			return append([]string{"serve", "--spec", spec, "--upstream", upstream, "--listen", addr}, strings.Fields(f.sezzleeFlags)...)
		})
		if err != nil {
			return err
		}
		defer stop()
		targets = append(targets, t)
	}

	hc := &http.Client{
		Timeout:   10 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: 4 * f.clients, DisableCompression: true},
	}
	newCaller := func(t *target) func(context.Context) (caller, error) {
		if t.front == nil {
			return func(context.Context) (caller, error) { return &directCaller{hc: hc, base: upstream}, nil }
		}
		return func(ctx context.Context) (caller, error) {
			return newRPCSession(ctx, hc, t.url, f.protocol, t.tool, t.wrap)
		}
	}
	// A probe call makes a broken configuration a skip, not an abort.
	for _, t := range targets {
		if t.skip != "" {
			continue
		}
		c, err := newCaller(t)(ctx)
		if err == nil {
			err = c.call(ctx, 1)
		}
		if err != nil {
			t.skip = "probe call failed: " + err.Error()
		}
	}

	ts := f.ts && tsReady(root)
	tsWant := map[string]bool{}
	for c := range strings.SplitSeq(f.tsConfigs, ",") {
		tsWant[strings.TrimSpace(c)] = true
	}
	rep := &report{flags: f, targets: targets, results: map[string]map[string][]result{}}
	rep.header = header(f, ts)
	for r := range f.runs {
		for _, t := range targets {
			if t.skip != "" {
				continue
			}
			fmt.Fprintf(os.Stderr, "callcost: run %d/%d %s\n", r+1, f.runs, t.name)
			res, err := measureGo(ctx, f, t, backend, newCaller(t))
			if err != nil {
				return fmt.Errorf("%s: %w", t.name, err)
			}
			rep.add(t.name, "go", res)
			if ts && t.front != nil && tsWant[t.name] {
				res, err := measureTS(ctx, f, root, logs, t, backend)
				if err != nil {
					return fmt.Errorf("%s (TypeScript client): %w", t.name, err)
				}
				rep.add(t.name, "ts", res)
			}
			if err := t.alive(); err != nil {
				return err
			}
		}
	}
	rep.print(os.Stdout)

	if f.profile > 0 {
		for _, t := range targets {
			if t.skip != "" || t.pprof == "" {
				continue
			}
			files, p, err := profile(ctx, f, out, t, backend, newCaller(t))
			if err != nil {
				return fmt.Errorf("profiling %s: %w", t.name, err)
			}
			// The load outlasts the profiles by 2 s; scale the calls to their window.
			window := f.profile.Seconds() / p.elapsed.Seconds()
			fmt.Printf("profiles of %s: %s (about %.0f calls in the window; %.0f µs server CPU per call)\n",
				t.name, strings.Join(files, " "), float64(p.calls)*window, us(p.cpuPerCall(t.serverName())))
		}
	}
	return nil
}

// launch starts t's server from bin with the flags args gives for its
// address and, when withPprof, its pprof address, and points t at path on
// it. A server that does not start makes t skipped, with the reason; a
// skipped t is not started. The returned func stops the server.
func (t *target) launch(ctx context.Context, logs, bin, path string, withPprof bool, args func(addr, paddr string) []string) (func(), error) {
	if t.skip != "" {
		return func() {}, nil
	}
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	var paddr string
	if withPprof {
		if paddr, err = freeAddr(); err != nil {
			return nil, err
		}
	}
	s, err := startServer(ctx, t.name, logs, addr, bin, args(addr, paddr)...)
	if err != nil {
		t.skip = err.Error()
		return func() {}, nil
	}
	t.front, t.pprof, t.url = s, paddr, "http://"+addr+path
	return s.stop, nil
}

// alive reports an error when the target's server has exited.
func (t *target) alive() error {
	if t.front == nil {
		return nil
	}
	return t.front.alive()
}

// measureGo runs the latency and throughput phases with the bare client.
func measureGo(ctx context.Context, f *flags, t *target, backend *server, newCaller func(context.Context) (caller, error)) (result, error) {
	m := t.meter(backend)
	lat, err := loop{clients: 1, d: f.d, maxCalls: f.maxCalls, warmup: 300, keepLatency: true}.run(ctx, newCaller, m)
	if err != nil {
		return result{}, err
	}
	thr, err := loop{clients: f.clients, d: f.d, maxCalls: f.maxCalls, warmup: 20}.run(ctx, newCaller, m)
	if err != nil {
		return result{}, err
	}
	return resultOf(t, percentile(lat.lat, 50), percentile(lat.lat, 99), lat, thr), nil
}

// moduleRoot is the directory of the main module's go.mod.
func moduleRoot() (string, error) {
	b, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(b))
	if gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("run callcost from inside the sezzlee module")
	}
	return filepath.Dir(gomod), nil
}

// gobuild builds pkg into dst and returns the compiler's complaint, if any.
func gobuild(root, dst, pkg string) string {
	cmd := exec.Command("go", "build", "-o", dst, pkg)
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		return strings.Join(strings.Fields(string(b)+" "+err.Error()), " ")
	}
	return ""
}

// header describes the machine and the run.
func header(f *flags, ts bool) string {
	load, _ := os.ReadFile("/proc/loadavg")
	var b strings.Builder
	fmt.Fprintf(&b, "callcost %s  %s/%s  %d CPUs  load %s\n", time.Now().UTC().Format(time.RFC3339),
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), strings.Join(strings.Fields(string(load))[:3], " "))
	switch {
	case !f.ts:
		b.WriteString("TypeScript client: off (-ts=false)\n")
	case !ts:
		b.WriteString("TypeScript client: off (needs node, and npm ci in bench/ts)\n")
	}
	return b.String()
}
