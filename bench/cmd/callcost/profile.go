package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// profile puts t under the throughput load for f.profile and meanwhile
// fetches a CPU profile and an allocation profile (the delta over the same
// window) from its pprof listener. It returns the files written and the
// load phase, whose calls divide the profiles' totals into per-call figures.
func profile(ctx context.Context, f *flags, out string, t *target, backend *server, newCaller func(context.Context) (caller, error)) ([]string, *phase, error) {
	secs := strconv.Itoa(max(1, int(f.profile.Seconds())))
	kinds := []struct{ file, path string }{
		{t.name + ".cpu.pprof", "/debug/pprof/profile?seconds=" + secs},
		{t.name + ".allocs.pprof", "/debug/pprof/allocs?seconds=" + secs},
	}
	errc := make(chan error, len(kinds))
	var files []string
	for _, k := range kinds {
		file := filepath.Join(out, k.file)
		files = append(files, file)
		go func() { errc <- fetchTo(ctx, "http://"+t.pprof+k.path, file, f.profile+30*time.Second) }()
	}
	// The load runs a little longer than the profiles, so they see only load.
	l := loop{clients: f.clients, d: f.profile + 2*time.Second, maxCalls: f.maxCalls, warmup: 20}
	p, err := l.run(ctx, newCaller, t.meter(backend))
	if err != nil {
		return nil, nil, err
	}
	for range kinds {
		if err := <-errc; err != nil {
			return nil, nil, err
		}
	}
	return files, p, nil
}

// fetchTo GETs url into file.
func fetchTo(ctx context.Context, url, file string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
		return fmt.Errorf("%s: %s: %s", url, resp.Status, b)
	}
	w, err := os.Create(file)
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, io.LimitReader(resp.Body, 256<<20)); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
