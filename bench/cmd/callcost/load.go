package main

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// maxErrors stops a phase early: a broken server must not be hammered.
const maxErrors = 100

// phase is the outcome of one bounded loop of calls.
type phase struct {
	calls    int
	errors   int
	firstErr error
	elapsed  time.Duration
	lat      []time.Duration // sorted; latency phases only
	// cpu is each measured process's CPU time over the loop, by name.
	cpu map[string]time.Duration
}

func (p *phase) perSecond() float64 { return float64(p.calls) / p.elapsed.Seconds() }

// cpuPerCall is the named process's CPU time per call.
func (p *phase) cpuPerCall(name string) time.Duration {
	if p.calls == 0 {
		return 0
	}
	return p.cpu[name] / time.Duration(p.calls)
}

// percentile returns the p-th percentile (nearest rank) of sorted latencies.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted))*p/100+0.999999) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// cpuMeter snapshots the CPU time of a set of processes.
type cpuMeter []*server

func (m cpuMeter) read() (map[string]time.Duration, error) {
	out := make(map[string]time.Duration, len(m))
	for _, s := range m {
		d, err := s.cpu()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.name, err)
		}
		out[s.name] = d
	}
	return out, nil
}

func (m cpuMeter) since(before map[string]time.Duration) (map[string]time.Duration, error) {
	now, err := m.read()
	if err != nil {
		return nil, err
	}
	for k := range now {
		now[k] -= before[k]
	}
	return now, nil
}

// loop is one load phase: clients goroutines, each with its own caller,
// calling until d passes or maxCalls calls are made in all. Each caller is
// warmed up first, outside the measurement. Latencies are kept when
// keepLatency is set.
type loop struct {
	clients     int
	d           time.Duration
	maxCalls    int
	warmup      int
	keepLatency bool
}

func (l loop) run(ctx context.Context, newCaller func(context.Context) (caller, error), meter cpuMeter) (*phase, error) {
	callers := make([]caller, l.clients)
	for i := range callers {
		c, err := newCaller(ctx)
		if err != nil {
			return nil, err
		}
		for j := range l.warmup {
			if err := c.call(ctx, j%1000); err != nil {
				return nil, fmt.Errorf("warm-up: %w", err)
			}
		}
		callers[i] = c
	}

	var (
		next     atomic.Int64 // calls started; every start but those past maxCalls is a call
		errCount atomic.Int64
		mu       sync.Mutex
		firstErr error
		lats     = make([][]time.Duration, l.clients)
		wg       sync.WaitGroup
	)
	before, err := meter.read()
	if err != nil {
		return nil, err
	}
	start := time.Now()
	deadline := start.Add(l.d)
	for i, c := range callers {
		if l.keepLatency {
			lats[i] = make([]time.Duration, 0, 1<<16)
		}
		wg.Go(func() {
			for time.Now().Before(deadline) && errCount.Load() < maxErrors && ctx.Err() == nil {
				n := next.Add(1)
				if n > int64(l.maxCalls) {
					return
				}
				t := time.Now()
				err := c.call(ctx, int(n%1000))
				if l.keepLatency {
					lats[i] = append(lats[i], time.Since(t))
				}
				if err != nil {
					errCount.Add(1)
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	cpu, err := meter.since(before)
	if err != nil {
		return nil, err
	}
	p := &phase{
		calls:    int(min(next.Load(), int64(l.maxCalls))),
		errors:   int(errCount.Load()),
		firstErr: firstErr,
		elapsed:  elapsed,
		cpu:      cpu,
	}
	if l.keepLatency {
		p.lat = slices.Concat(lats...)
		slices.Sort(p.lat)
	}
	return p, ctx.Err()
}
