package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// result is one repetition of one configuration with one client.
type result struct {
	p50, p99 time.Duration // latency phase
	perSec   float64       // throughput phase
	// cpu1 and cpu16 are the front server's CPU per call in the latency and
	// throughput phases (the backend's, for direct); backend16 is the
	// backend's own in the throughput phase.
	cpu1, cpu16, backend16 time.Duration
	calls, errors          int // both phases
	firstErr               string
}

func resultOf(t *target, p50, p99 time.Duration, lat, thr *phase) result {
	r := result{
		p50: p50, p99: p99, perSec: thr.perSecond(),
		cpu1:      lat.cpuPerCall(t.serverName()),
		cpu16:     thr.cpuPerCall(t.serverName()),
		backend16: thr.cpuPerCall("backend"),
		calls:     lat.calls + thr.calls,
		errors:    lat.errors + thr.errors,
	}
	for _, e := range []error{lat.firstErr, thr.firstErr} {
		if e != nil && r.firstErr == "" {
			r.firstErr = e.Error()
		}
	}
	return r
}

// report gathers the results by configuration and client ("go", "ts").
type report struct {
	flags   *flags
	header  string
	targets []*target
	results map[string]map[string][]result
}

func (r *report) add(target, client string, res result) {
	if r.results[target] == nil {
		r.results[target] = map[string][]result{}
	}
	r.results[target][client] = append(r.results[target][client], res)
}

// stat is the median and range of one metric over the repetitions.
type stat struct{ med, lo, hi float64 }

func statOf(rs []result, metric func(result) float64) stat {
	v := make([]float64, len(rs))
	for i, r := range rs {
		v[i] = metric(r)
	}
	slices.Sort(v)
	if len(v) == 0 {
		return stat{}
	}
	return stat{med: v[len(v)/2], lo: v[0], hi: v[len(v)-1]}
}

func (s stat) String() string {
	if s.lo == s.hi {
		return fmt.Sprintf("%.0f", s.med)
	}
	return fmt.Sprintf("%.0f [%.0f-%.0f]", s.med, s.lo, s.hi)
}

func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

var metrics = []struct {
	name string
	get  func(result) float64
}{
	{"p50 µs @1", func(r result) float64 { return us(r.p50) }},
	{"p99 µs @1", func(r result) float64 { return us(r.p99) }},
	{"calls/s @N", func(r result) float64 { return r.perSec }},
	{"server CPU µs/call @N", func(r result) float64 { return us(r.cpu16) }},
	{"server CPU µs/call @1", func(r result) float64 { return us(r.cpu1) }},
	{"backend CPU µs/call @N", func(r result) float64 { return us(r.backend16) }},
}

func (r *report) print(w io.Writer) {
	f := r.flags
	fmt.Fprint(w, r.header)
	if load, err := os.ReadFile("/proc/loadavg"); err == nil {
		// Other work on the machine weighs on calls/s far more than on CPU per call.
		fmt.Fprintf(w, "load at the end %s\n", strings.Join(strings.Fields(string(load))[:3], " "))
	}
	fmt.Fprintf(w, "each figure: median [min-max] of %d runs; each run %v at 1 client (@1) then %v at %d clients (@N)\n",
		f.runs, f.d, f.d, f.clients)
	for _, t := range r.targets {
		if t.skip != "" {
			fmt.Fprintf(w, "%s: not measured: %s\n", t.name, t.skip)
		}
	}
	for _, client := range []struct{ key, title string }{
		{"go", "bare JSON-RPC client (Go)"},
		{"ts", "official TypeScript MCP client (@modelcontextprotocol/sdk)"},
	} {
		var rows []*target
		for _, t := range r.targets {
			if len(r.results[t.name][client.key]) > 0 {
				rows = append(rows, t)
			}
		}
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n== %s\n", client.title)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		head := []string{"config"}
		for _, m := range metrics {
			head = append(head, m.name)
		}
		head = append(head, "calls", "errors")
		fmt.Fprintln(tw, strings.Join(head, "\t"))
		for _, t := range rows {
			rs := r.results[t.name][client.key]
			cells := []string{t.name}
			for _, m := range metrics {
				cells = append(cells, statOf(rs, m.get).String())
			}
			calls, errs := 0, 0
			for _, x := range rs {
				calls += x.calls
				errs += x.errors
			}
			cells = append(cells, fmt.Sprint(calls), fmt.Sprint(errs))
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
		tw.Flush()

		// Ratios of medians, to each baseline present with this client.
		for _, base := range []string{"direct", "bare"} {
			bs := r.results[base][client.key]
			if len(bs) == 0 {
				continue
			}
			fmt.Fprintf(w, "ratios to %s (medians): p50, p99, calls/s, server CPU/call @N\n", base)
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			for _, t := range rows {
				if t.name == base {
					continue
				}
				rs := r.results[t.name][client.key]
				cells := []string{"  " + t.name}
				for _, i := range []int{0, 1, 2, 3} {
					cells = append(cells, fmt.Sprintf("%.2fx", statOf(rs, metrics[i].get).med/statOf(bs, metrics[i].get).med))
				}
				fmt.Fprintln(tw, strings.Join(cells, "\t"))
			}
			tw.Flush()
		}
		for _, t := range rows {
			for _, x := range r.results[t.name][client.key] {
				if x.firstErr != "" {
					fmt.Fprintf(w, "first error of %s: %.300s\n", t.name, x.firstErr)
					break
				}
			}
		}
	}
}
