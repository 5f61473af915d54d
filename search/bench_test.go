package search

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/sezzlee/sezzlee/catalog"
	"github.com/sezzlee/sezzlee/internal/specs"
)

// githubQueries are tasks an agent might bring to the GitHub API.
var githubQueries = []string{
	"create an issue",
	"close a pull request without merging it",
	"list the commits of a repository",
	"add a collaborator to a repository",
	"star a repository",
	"get the latest release",
	"delete a branch protection rule",
	"who is the authenticated user",
	"list workflow runs for a repository",
	"search code across repositories",
	"comment on a pull request review",
	"create a webhook that fires on push",
	"fork a repository into my account",
	"list the members of an organization team",
	"upload an asset to a release",
	"merge a pull request",
	"what labels does this issue have",
	"download the logs of a workflow job",
	"create a gist from a file",
	"revoke an installation access token",
}

func loadGitHub(b *testing.B) *catalog.Catalog {
	b.Helper()
	c, err := catalog.Load(context.Background(), specs.File(b, "github-api.github.com-2020.yaml"), nil)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkBuild measures indexing the GitHub description (623 operations).
func BenchmarkBuild(b *testing.B) {
	c := loadGitHub(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New(c, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(c.Len()), "tools")
}

// BenchmarkQuery measures one query on the GitHub description, cycling
// through realistic queries, and reports the p50 and p99 latencies.
func BenchmarkQuery(b *testing.B) {
	s, err := New(loadGitHub(b), nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var lat []time.Duration
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		start := time.Now()
		res, env := s.Search(ctx, Query{Text: githubQueries[i%len(githubQueries)]})
		lat = append(lat, time.Since(start))
		if env != nil || len(res.Hits) == 0 {
			b.Fatalf("query %q: %v %v", githubQueries[i%len(githubQueries)], res, env)
		}
		i++
	}
	slices.Sort(lat)
	pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) }
	b.ReportMetric(pct(0.50), "p50-µs")
	b.ReportMetric(pct(0.99), "p99-µs")
}
