package catalog

import (
	"os"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/sezzlee/sezzlee/internal/specs"
	"go.yaml.in/yaml/v3"
)

func BenchmarkLoadGitHub(b *testing.B) { benchmarkLoad(b, "github-api.github.com-2020.yaml") }
func BenchmarkLoadOpenAI(b *testing.B) { benchmarkLoad(b, "openai-openapi.yaml") }

// benchmarkLoad times the whole build of a real description and, in the
// same run, the YAML parse alone, and reports their ratio (build/parse),
// the peak heap during one build and the heap the catalog retains.
func benchmarkLoad(b *testing.B, name string) {
	data, err := os.ReadFile(specs.File(b, name))
	if err != nil {
		b.Fatal(err)
	}
	peak, retained := heapOfOneBuild(b, data)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	var parse, build time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		start := time.Now()
		var n yaml.Node
		if err := yaml.Unmarshal(data, &n); err != nil {
			b.Fatal(err)
		}
		parse += time.Since(start)
		b.StartTimer()

		start = time.Now()
		if _, err := Parse(data, nil); err != nil {
			b.Fatal(err)
		}
		build += time.Since(start)
	}
	b.ReportMetric(float64(parse.Milliseconds())/float64(b.N), "parse-ms/op")
	b.ReportMetric(float64(build)/float64(parse), "build/parse")
	b.ReportMetric(float64(peak)/(1<<20), "peak-MiB")
	b.ReportMetric(float64(retained)/(1<<20), "retained-MiB")
	b.ReportMetric(float64(retained)/float64(len(data)), "retained/file")
}

// heapOfOneBuild builds the catalog once and returns the peak live heap
// above the starting point (sampled every millisecond) and the heap still
// held once the build's garbage is collected.
func heapOfOneBuild(b *testing.B, data []byte) (peak, retained uint64) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	heap := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	runtime.GC()
	base := heap()
	var max uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			if h := heap(); h > max {
				max = h
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	c, err := Parse(data, nil)
	close(done)
	wg.Wait()
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	after := heap()
	runtime.KeepAlive(c)
	if after > base {
		retained = after - base
	}
	if max > base {
		peak = max - base
	}
	return peak, retained
}
