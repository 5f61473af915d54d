package search

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sezzlee/sezzlee/catalog"
	"github.com/sezzlee/sezzlee/envelope"
)

// tool builds a hand-made tool; args are "name:description" pairs.
func tool(name, method, path, summary string, tags []string, args ...string) *catalog.Tool {
	t := &catalog.Tool{Name: name, Method: method, PathKey: path, Summary: summary,
		Description: summary, Tags: tags, Version: "v-" + name,
		InputSchema: []byte(`{"type":"object"}`)}
	for _, a := range args {
		n, d, _ := strings.Cut(a, ":")
		t.Arguments = append(t.Arguments, catalog.Argument{Name: n, Description: d, In: catalog.InQuery})
	}
	return t
}

// petTools is a small shop API; two tools have no summary at all.
func petTools() []*catalog.Tool {
	return []*catalog.Tool{
		tool("addPet", "POST", "/pets", "Add a new pet to the store", []string{"pet"}, "name:The pet's name", "status:Sale status"),
		tool("deletePet", "DELETE", "/pets/{petId}", "Deletes a pet", []string{"pet"}, "petId:Pet id"),
		tool("findPetsByStatus", "GET", "/pets/findByStatus", "Finds pets by status", []string{"pet"}, "status:Status values to filter by"),
		tool("getPetById", "GET", "/pets/{petId}", "Find pet by ID", []string{"pet"}, "petId:Pet id"),
		tool("updatePet", "PUT", "/pets/{petId}", "Update an existing pet", []string{"pet"}, "petId:Pet id", "name:New name"),
		tool("placeOrder", "POST", "/store/order", "Place an order for a pet", []string{"store"}, "quantity:How many"),
		tool("getInventory", "GET", "/store/inventory", "Returns pet inventories by status", []string{"store"}),
		tool("createUser", "POST", "/users", "Create user", []string{"user"}, "username:Login name"),
		tool("loginUser", "GET", "/users/login", "Logs user into the system", []string{"user"}, "username:Login name", "password:Password in clear text"),
		// No summary, no description: only name, path and arguments tell.
		tool("shipments_cancel", "POST", "/shipments/{shipment_id}/cancel", "", nil, "shipment_id:"),
		tool("warehouseStockLevels", "GET", "/warehouses/{warehouseId}/stock", "", nil, "sku:"),
	}
}

func mustSearcher(t testing.TB, tools []*catalog.Tool, opts *Options) *Searcher {
	t.Helper()
	s, err := newSearcher(tools, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func names(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Name)
	}
	return out
}

func search(t *testing.T, s *Searcher, q Query) *Result {
	t.Helper()
	res, env := s.Search(context.Background(), q)
	if env != nil {
		t.Fatalf("Search(%+v): envelope %+v, want a result", q, env)
	}
	return res
}

func TestSearchFirstHit(t *testing.T) {
	s := mustSearcher(t, petTools(), nil)
	tests := []struct{ query, want string }{
		{"add a pet", "addPet"},
		{"remove a pet from the store", "deletePet"}, // synonym of delete
		{"pets with a given status", "findPetsByStatus"},
		{"log in", "loginUser"},
		{"change the name of my pet", "updatePet"},
		{"order a pet", "placeOrder"},
		// Description-less tools, found by name, path and arguments.
		{"cancel a shipment", "shipments_cancel"},
		{"stock level in a warehouse", "warehouseStockLevels"},
		{"how much stock of this sku", "warehouseStockLevels"},
	}
	for _, tt := range tests {
		res := search(t, s, Query{Text: tt.query})
		if len(res.Hits) == 0 || res.Hits[0].Name != tt.want {
			t.Errorf("Search(%q) = %v, want %s first", tt.query, names(res.Hits), tt.want)
		}
	}
}

func TestSearchLiteralBeatsSynonym(t *testing.T) {
	s := mustSearcher(t, []*catalog.Tool{
		tool("a", "POST", "/a", "Delete the widget", nil),
		tool("b", "POST", "/b", "Remove the widget", nil),
	}, nil)
	for _, tt := range []struct{ query, want string }{{"remove widget", "b"}, {"delete widget", "a"}} {
		res := search(t, s, Query{Text: tt.query})
		if got := names(res.Hits); !slices.Equal(got, []string{tt.want, other(tt.want)}) {
			t.Errorf("Search(%q) = %v, want %s first and the other second", tt.query, got, tt.want)
		}
	}
}

func other(n string) string {
	if n == "a" {
		return "b"
	}
	return "a"
}

func TestSearchTiesByName(t *testing.T) {
	var tools []*catalog.Tool
	for _, n := range []string{"zeta", "alpha", "mid", "beta"} {
		tools = append(tools, tool(n, "GET", "/same", "Same words", nil))
	}
	s := mustSearcher(t, tools, nil)
	want := []string{"alpha", "beta", "mid", "zeta"}
	for i := 0; i < 5; i++ {
		res := search(t, s, Query{Text: "same words"})
		if got := names(res.Hits); !slices.Equal(got, want) {
			t.Fatalf("run %d: Search = %v, want %v", i, got, want)
		}
		if res.Hits[0].Score != res.Hits[3].Score {
			t.Fatalf("scores %v and %v differ, want a tie", res.Hits[0].Score, res.Hits[3].Score)
		}
	}
}

func TestSearchFilters(t *testing.T) {
	s := mustSearcher(t, petTools(), nil)
	tests := []struct {
		q    Query
		want []string
	}{
		{Query{Text: "pet", Method: "get"}, []string{"findPetsByStatus", "getPetById", "getInventory"}},
		{Query{Text: "pet", Tag: "STORE"}, []string{"getInventory", "placeOrder"}},
		{Query{Text: "pet", Tag: "store", Method: "POST"}, []string{"placeOrder"}},
		{Query{Text: "pet", Tag: "nosuchtag"}, nil},
	}
	for _, tt := range tests {
		res := search(t, s, tt.q)
		got := names(res.Hits)
		slices.Sort(got)
		want := slices.Clone(tt.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("Search(%+v) = %v, want %v in any order", tt.q, got, want)
		}
		if res.Hits == nil {
			t.Errorf("Search(%+v).Hits is nil, want an empty slice", tt.q)
		}
	}
}

func TestSearchLimit(t *testing.T) {
	var tools []*catalog.Tool
	for i := range 30 {
		tools = append(tools, tool(fmt.Sprintf("t%02d", i), "GET", fmt.Sprintf("/things/%d", i), "Get a thing", nil))
	}
	s := mustSearcher(t, tools, nil)
	for _, tt := range []struct{ limit, want int }{{0, DefaultLimit}, {-3, DefaultLimit}, {1, 1}, {7, 7}, {20, 20}, {21, MaxLimit}, {1000, MaxLimit}} {
		for _, text := range []string{"thing", "  "} {
			res := search(t, s, Query{Text: text, Limit: tt.limit})
			if len(res.Hits) != tt.want {
				t.Errorf("Search(%q, Limit %d) gave %d hits, want %d", text, tt.limit, len(res.Hits), tt.want)
			}
		}
	}
}

func TestSearchEmptyQuery(t *testing.T) {
	s := mustSearcher(t, petTools(), nil)
	for _, text := range []string{"", "   \t\n", "the of and"} {
		res := search(t, s, Query{Text: text, Tag: "pet", Limit: 3})
		if text == "the of and" {
			// Only stopwords: nothing to match, and no panic.
			if len(res.Hits) != 0 || res.Tool != nil {
				t.Errorf("Search(%q) = %v, want no hits", text, names(res.Hits))
			}
			continue
		}
		want := []string{"addPet", "deletePet", "findPetsByStatus"}
		if got := names(res.Hits); !slices.Equal(got, want) {
			t.Errorf("Search(%q) = %v, want %v (filtered tools in name order)", text, got, want)
		}
		if res.Tool != nil || res.Hits[0].Score != 0 {
			t.Errorf("Search(%q): tool %v, score %v; want no definition and score 0", text, res.Tool, res.Hits[0].Score)
		}
	}
}

func TestSearchDominance(t *testing.T) {
	tools := []*catalog.Tool{
		tool("refundPayment", "POST", "/payments/{id}/refund", "Refund a payment", nil, "amount:Amount to refund"),
		tool("capturePayment", "POST", "/payments/{id}/capture", "Capture a payment", nil),
		tool("listPayments", "GET", "/payments", "List payments", nil),
		tool("getPayout", "GET", "/payouts/{id}", "Get a payout", nil),
	}
	tests := []struct {
		name  string
		opts  *Options
		query string
		want  string // the definition's name, "" for none
	}{
		{"clear winner", nil, "refund a payment", "refundPayment"},
		{"close scores", nil, "payment", ""},
		{"nothing matches", nil, "weather forecast", ""},
		{"disabled", &Options{DominanceRatio: -1}, "refund a payment", ""},
		{"stricter ratio", &Options{DominanceRatio: 50}, "refund a payment", ""},
		// The winner matches one word of four: not enough of the query.
		{"low coverage", nil, "refund weather forecast tomorrow", ""},
	}
	for _, tt := range tests {
		s := mustSearcher(t, tools, tt.opts)
		res := search(t, s, Query{Text: tt.query})
		got := ""
		if res.Tool != nil {
			got = res.Tool.Name
			if res.Tool.Version != "v-"+got || len(res.Tool.InputSchema) == 0 {
				t.Errorf("%s: definition %+v lacks its version or schema", tt.name, res.Tool)
			}
		}
		if got != tt.want {
			t.Errorf("%s: Search(%q) definition = %q, want %q (hits %v)", tt.name, tt.query, got, tt.want, res.Hits)
		}
	}
}

func TestSearchSummary(t *testing.T) {
	long := strings.Repeat("word ", 100)
	s := mustSearcher(t, []*catalog.Tool{
		{Name: "a", Method: "GET", PathKey: "/a", Description: "First <b>sentence</b> here. Second one."},
		{Name: "b", Method: "GET", PathKey: "/b", Summary: long},
	}, nil)
	res := search(t, s, Query{Text: "", Limit: 2})
	if got, want := res.Hits[0].Summary, "First sentence here."; got != want {
		t.Errorf("summary from description = %q, want %q", got, want)
	}
	if got := res.Hits[1].Summary; len(got) > maxSummaryBytes || !strings.HasSuffix(got, "…") {
		t.Errorf("long summary = %q (%d bytes), want at most %d ending in …", got, len(got), maxSummaryBytes)
	}
}

// errRanker is a bound ranker that fails the way a remote service does.
var errRanker = errors.New("embedding service: connection refused")

func TestRankerFailure(t *testing.T) {
	failures := map[string]Ranker{
		"error": RankerFunc(func(context.Context, Query, []*catalog.Tool) ([]Hit, error) {
			return nil, errRanker
		}),
		"panic": RankerFunc(func(context.Context, Query, []*catalog.Tool) ([]Hit, error) {
			panic("boom")
		}),
		"timeout": RankerFunc(func(ctx context.Context, _ Query, _ []*catalog.Tool) ([]Hit, error) {
			<-ctx.Done()
			return []Hit{{Name: "addPet", Score: 1}}, nil
		}),
	}
	for name, r := range failures {
		t.Run(name+"/fallback", func(t *testing.T) {
			var logged []error
			s := mustSearcher(t, petTools(), &Options{Ranker: r, RankerTimeout: 20 * time.Millisecond,
				OnRankerError: func(err error) { logged = append(logged, err) }})
			res := search(t, s, Query{Text: "remove a pet"})
			if len(res.Hits) == 0 || res.Hits[0].Name != "deletePet" {
				t.Errorf("fallback hits = %v, want the built-in ranking with deletePet first", names(res.Hits))
			}
			if len(logged) != 1 {
				t.Errorf("OnRankerError called %d times, want 1", len(logged))
			}
		})
		t.Run(name+"/refuse", func(t *testing.T) {
			s := mustSearcher(t, petTools(), &Options{Ranker: r, RankerTimeout: 20 * time.Millisecond, RefuseOnRankerFailure: true})
			res, env := s.Search(context.Background(), Query{Text: "remove a pet"})
			if res != nil || env == nil {
				t.Fatalf("Search = %v, %v; want only an envelope", res, env)
			}
			if env.Error != envelope.SearchRankerUnavailable || env.Retryable == nil || !*env.Retryable {
				t.Errorf("envelope = %+v, want %s with retryable true", env, envelope.SearchRankerUnavailable)
			}
			if strings.Contains(env.Message, "refused") || strings.Contains(env.Message, "boom") {
				t.Errorf("envelope message %q leaks the ranker's internal error", env.Message)
			}
		})
	}
}

func TestBoundRanker(t *testing.T) {
	var gotTools []string
	r := RankerFunc(func(_ context.Context, q Query, tools []*catalog.Tool) ([]Hit, error) {
		for _, t := range tools {
			gotTools = append(gotTools, t.Name)
		}
		return []Hit{
			{Name: "loginUser", Method: "LIE", Path: "/lie", Score: 0.9},
			{Name: "no-such-tool", Score: 0.8},
			{Name: "addPet", Score: 0.75},   // exists, but the tag filter excludes it
			{Name: "loginUser", Score: 0.7}, // a repeat counts once
			{Name: "createUser", Score: 0.2},
		}, nil
	})
	s := mustSearcher(t, petTools(), &Options{Ranker: r})
	res := search(t, s, Query{Text: "sign in", Tag: "user"})
	if want := []string{"createUser", "loginUser"}; !slices.Equal(gotTools, want) {
		t.Errorf("ranker received %v, want the filtered tools %v", gotTools, want)
	}
	if got, want := names(res.Hits), []string{"loginUser", "createUser"}; !slices.Equal(got, want) {
		t.Fatalf("hits = %v, want %v", got, want)
	}
	if h := res.Hits[0]; h.Method != "GET" || h.Path != "/users/login" || h.Score != 0.9 {
		t.Errorf("first hit = %+v, want method and path from the catalog and the ranker's score", h)
	}
	if res.Tool == nil || res.Tool.Name != "loginUser" {
		t.Errorf("definition = %v, want loginUser (0.9 >= 1.5 x 0.2)", res.Tool)
	}
}

func TestNewOptions(t *testing.T) {
	if _, err := New(nil, nil); !errors.Is(err, ErrNoCatalog) {
		t.Errorf("New(nil) error = %v, want ErrNoCatalog", err)
	}
	if s, err := New(&catalog.Catalog{}, nil); err != nil || len(search(t, s, Query{Text: "x"}).Hits) != 0 {
		t.Errorf("New(empty catalog) = %v, %v; want a searcher that finds nothing", s, err)
	}
	for _, o := range []Options{{DominanceRatio: 0.5}, {SynonymWeight: 2}, {RankerTimeout: -1}} {
		if _, err := newSearcher(nil, &o); !errors.Is(err, ErrOptions) {
			t.Errorf("newSearcher(%+v) error = %v, want ErrOptions", o, err)
		}
	}
}

func FuzzSearch(f *testing.F) {
	s := mustSearcher(f, petTools(), nil)
	for _, q := range []string{"add a pet", "", "  ", "\xff", strings.Repeat("pet ", 400)} {
		f.Add(q, 3, "pet", "get")
	}
	f.Fuzz(func(t *testing.T, text string, limit int, tag, method string) {
		res, env := s.Search(context.Background(), Query{Text: text, Limit: limit, Tag: tag, Method: method})
		if env != nil || res == nil || res.Hits == nil {
			t.Fatalf("Search(%q) = %v, %v", text, res, env)
		}
		if len(res.Hits) > MaxLimit {
			t.Fatalf("Search(%q) gave %d hits, over MaxLimit", text, len(res.Hits))
		}
	})
}

func TestSearchDeprecatedRanksLower(t *testing.T) {
	old := tool("a_old", "GET", "/widgets", "List widgets", nil)
	old.Deprecated = true
	s := mustSearcher(t, []*catalog.Tool{old, tool("b_new", "GET", "/widgets", "List widgets", nil)}, nil)
	res := search(t, s, Query{Text: "list widgets"})
	if got := names(res.Hits); !slices.Equal(got, []string{"b_new", "a_old"}) {
		t.Errorf("Search = %v, want the current tool before the deprecated one that sorts first by name", got)
	}
}

// TestSearchConcurrent runs searches from several goroutines; run it with
// -race to check that a Searcher shares nothing mutable.
func TestSearchConcurrent(t *testing.T) {
	s := mustSearcher(t, petTools(), nil)
	want := names(search(t, s, Query{Text: "remove a pet"}).Hits)
	done := make(chan []string)
	for range 8 {
		go func() {
			var got []string
			for range 50 {
				res, _ := s.Search(context.Background(), Query{Text: "remove a pet"})
				got = names(res.Hits)
			}
			done <- got
		}()
	}
	for range 8 {
		if got := <-done; !slices.Equal(got, want) {
			t.Errorf("concurrent Search = %v, want %v", got, want)
		}
	}
}

// TestSearchDominanceIgnoresLimit checks that a limit of one does not make
// a first hit dominant when the second is close.
func TestSearchDominanceIgnoresLimit(t *testing.T) {
	tools := []*catalog.Tool{
		tool("a", "GET", "/a", "Payment report", nil),
		tool("b", "GET", "/b", "Payment report", nil),
	}
	r := RankerFunc(func(context.Context, Query, []*catalog.Tool) ([]Hit, error) {
		return []Hit{{Name: "a", Score: 1}, {Name: "b", Score: 0.9}}, nil
	})
	for name, opts := range map[string]*Options{"built-in": nil, "bound": {Ranker: r}} {
		s := mustSearcher(t, tools, opts)
		res := search(t, s, Query{Text: "payment report", Limit: 1})
		if len(res.Hits) != 1 || res.Tool != nil {
			t.Errorf("%s: Search(Limit 1) = %v with definition %v, want one hit and no definition", name, names(res.Hits), res.Tool)
		}
	}
}
