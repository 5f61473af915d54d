package invoke

import (
	"crypto/rand"
	"encoding/base64"
	"sync"
	"time"
)

// idemStore keeps the idempotency keys of calls whose outcome is unknown,
// so that the agent's retry of the same call is sent with the same key.
// A call that gets an answer forgets its key. Entries expire after the TTL,
// and the store never holds more than its bound.
type idemStore struct {
	header string
	ttl    time.Duration
	max    int

	mu      sync.Mutex
	pending map[[32]byte]idemEntry
}

type idemEntry struct {
	key     string
	expires time.Time
}

func newIdemStore(o IdempotencyKeys) *idemStore {
	s := &idemStore{header: o.Header, ttl: o.TTL, max: o.MaxPending, pending: make(map[[32]byte]idemEntry)}
	if s.header == "" {
		s.header = "Idempotency-Key"
	}
	if s.ttl == 0 {
		s.ttl = 24 * time.Hour
	}
	if s.max == 0 {
		s.max = 10000
	}
	return s
}

// key returns the pending key for the call, or a fresh one. A fresh key is
// not recorded: two identical calls in flight at once are two calls.
func (s *idemStore) key(id [32]byte, now time.Time) string {
	s.mu.Lock()
	e, ok := s.pending[id]
	s.mu.Unlock()
	if ok && now.Before(e.expires) {
		return e.key
	}
	var b [18]byte
	rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// keep records the call's key after an unknown outcome, for its retry.
func (s *idemStore) keep(id [32]byte, key string, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pending[id] = idemEntry{key: key, expires: now.Add(s.ttl)}
	s.trim(now)
}

// forget drops the call's key: it was answered, or surely never sent.
func (s *idemStore) forget(id [32]byte) {
	s.mu.Lock()
	delete(s.pending, id)
	s.mu.Unlock()
}

// trim drops expired entries, then the oldest, until the bound holds.
// It runs only when the store is over its bound.
func (s *idemStore) trim(now time.Time) {
	if len(s.pending) <= s.max {
		return
	}
	var oldest [32]byte
	var first time.Time
	for id, e := range s.pending {
		if !now.Before(e.expires) {
			delete(s.pending, id)
			continue
		}
		if first.IsZero() || e.expires.Before(first) {
			oldest, first = id, e.expires
		}
	}
	if len(s.pending) > s.max {
		delete(s.pending, oldest)
	}
}

// len reports the number of pending keys.
func (s *idemStore) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.pending)
}
