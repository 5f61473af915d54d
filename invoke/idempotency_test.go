package invoke

import (
	"net/http"
	"sync"
	"testing"
	"time"
)

// TestIdempotencyKeys: a POST gets a fresh key per logical call; a retry of
// the same call after a timeout reuses the key; once answered, the next
// call gets a new key; other callers and other arguments never share one.
func TestIdempotencyKeys(t *testing.T) {
	cat := mustParse(t, "testdata/pets.yaml", nil)
	var mu sync.Mutex
	var keys []string
	slow := true
	release := make(chan struct{})
	h := Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		keys = append(keys, r.Header.Get("Idempotency-Key"))
		s := slow
		mu.Unlock()
		if s {
			<-release
		}
	}))
	defer close(release)
	inv, _ := New(&Options{Backend: h, Timeout: 50 * time.Millisecond, IdempotencyKeys: &IdempotencyKeys{}})
	call := func(caller, args string) string {
		env := inv.Invoke(WithCaller(bg, caller), cat, Call{Tool: "createPet", Arguments: []byte(args)})
		mu.Lock()
		defer mu.Unlock()
		if len(keys) == 0 {
			t.Fatal("backend not reached")
		}
		_ = env
		return keys[len(keys)-1]
	}
	first := call("alice", `{"name":"rex"}`) // times out: outcome unknown
	if first == "" {
		t.Fatal("no Idempotency-Key sent on a POST")
	}
	if got := call("alice", `{ "name" : "rex" }`); got != first {
		t.Errorf("retry after a timeout sent key %q, want the first call's %q", got, first)
	}
	if got := call("bob", `{"name":"rex"}`); got == first {
		t.Error("another caller's identical call reused alice's key")
	}
	if got := call("alice", `{"name":"max"}`); got == first {
		t.Error("a call with other arguments reused the key")
	}
	mu.Lock()
	slow = false
	mu.Unlock()
	if got := call("alice", `{"name":"rex"}`); got != first {
		t.Errorf("second retry sent %q, want %q", got, first)
	}
	// That retry was answered: the key is forgotten, the next call is new.
	if got := call("alice", `{"name":"rex"}`); got == first {
		t.Error("a call after an answered retry reused the old key")
	}
	// Idempotent methods never carry a key.
	if env := inv.Invoke(bg, cat, Call{Tool: "getSession"}); env.Status != 200 {
		t.Fatalf("GET envelope %s", envJSON(env))
	}
	mu.Lock()
	last := keys[len(keys)-1]
	mu.Unlock()
	if last != "" {
		t.Errorf("GET carried Idempotency-Key %q", last)
	}
}

func TestIdempotencyStoreIsBoundedAndExpires(t *testing.T) {
	s := newIdemStore(IdempotencyKeys{MaxPending: 3, TTL: time.Minute})
	now := time.Unix(0, 0)
	for i := range 10 {
		s.keep([32]byte{byte(i)}, "k", now.Add(time.Duration(i)*time.Second))
	}
	if n := s.len(); n != 3 {
		t.Errorf("pending = %d, want 3", n)
	}
	if k := s.key([32]byte{9}, now.Add(10*time.Second)); k != "k" {
		t.Errorf("newest entry lost: key %q", k)
	}
	if k := s.key([32]byte{9}, now.Add(2*time.Minute)); k == "k" {
		t.Error("an expired key was reused")
	}
}

// TestPlanCacheDoesNotGrowOnReload: reloading the same description reuses
// the compiled plans instead of adding new ones.
func TestPlanCacheDoesNotGrowOnReload(t *testing.T) {
	inv, _ := New(&Options{Backend: Handler(http.NotFoundHandler())})
	for range 20 {
		cat := mustParse(t, "testdata/pets.yaml", nil)
		inv.Invoke(bg, cat, Call{Tool: "createPet", Arguments: []byte(`{}`)})
		inv.Invoke(bg, cat, Call{Tool: "updatePet", Arguments: []byte(`{"id":1}`)})
	}
	if n := len(inv.plans.m); n != 2 {
		t.Errorf("plans cached = %d after 20 reloads, want 2", n)
	}
}

func TestNewValidatesOptions(t *testing.T) {
	be := Handler(http.NotFoundHandler())
	for name, o := range map[string]*Options{
		"nil":              nil,
		"no backend":       {},
		"negative timeout": {Backend: be, Timeout: -1},
		"negative ttl":     {Backend: be, IdempotencyKeys: &IdempotencyKeys{TTL: -1}},
	} {
		if _, err := New(o); err == nil {
			t.Errorf("%s: New succeeded, want an error", name)
		}
	}
}
