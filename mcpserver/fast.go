package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/netip"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fastPath answers the plain tools/call of a meta-tool itself, with one
// pass over the request and one write of the answer, and hands every other
// request to the SDK's handler (next) untouched. The SDK's read path costs
// several times sezzlee's own work per call (bench/README.md), and a
// tools/call of a meta-tool is most of the traffic.
//
// It answers only what it is certain the SDK would answer the same way,
// the same status, headers and bytes (TestFastPathMatchesSDK holds it to
// that; only the HTTP framing may differ, see answer): a POST whose
// headers pass every check the SDK makes, carrying one JSON-RPC request
// with jsonrpc "2.0", a plain id, method tools/call and params holding
// only a meta-tool's name and its arguments, keys matched exactly. In
// stateful mode the session must be one this handler's SDK accepted
// notifications/initialized for, still open, and owned by the same token
// user. Anything else, including anything it cannot parse, goes to the SDK.
// A call whose id is in flight in its session, on either path, is refused
// as the SDK refuses it; a call the fast path did not parse (it went to
// the SDK for its headers) is not known to be in flight.
//
// The SDK renews a session's idle timer only on requests it serves, so the
// fast path passes a session's call to the SDK when the SDK has not served
// that session for an eighth of the idle time: a session the client keeps
// using stays open, and an unused one closes between seven eighths of
// Options.SessionIdle and all of it after its last request.
type fastPath struct {
	s         *Server
	next      http.Handler
	stateless bool
	maxBody   int64
	idle      time.Duration // the SDK's session timeout; zero never
}

// liveSession is what the fast path knows of a stateful session.
type liveSession struct {
	owner    *fastPath                     // the handler whose SDK accepted its initialisation
	user     string                        // the token's UserID when it did; the SDK binds the session to it
	watched  bool                          // a goroutine forgets the session when it closes
	lastSDK  time.Time                     // when a request of the session last went to the SDK
	inflight map[string]context.CancelFunc // by raw id; nil for a call the SDK answers
}

// fastVersions are the protocol versions whose tools/call answer the fast
// path knows. A later version, which the SDK treats differently, goes to it.
var fastVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// plainID matches the JSON-RPC ids the SDK writes back exactly as they came:
// integers it holds as int64, and simple strings.
var plainID = regexp.MustCompile(`^(-?[1-9][0-9]{0,14}|0|"[A-Za-z0-9_.:-]{1,64}")$`)

func (s *Server) newFastPath(next http.Handler) *fastPath {
	return &fastPath{s: s, next: next, stateless: s.opts.Stateless, maxBody: s.opts.MaxRequestBytes, idle: s.opts.SessionIdle}
}

func (f *fastPath) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	session := ""
	if !f.stateless {
		session = r.Header.Get("Mcp-Session-Id")
	}
	if r.Method != http.MethodPost {
		if r.Method == http.MethodDelete && session != "" {
			rec := &statusRecorder{ResponseWriter: w}
			f.next.ServeHTTP(rec, r)
			if rec.status == http.StatusNoContent {
				f.s.forgetSession(session)
			}
			return
		}
		f.next.ServeHTTP(w, r)
		return
	}
	if !f.admissible(r) {
		f.next.ServeHTTP(w, r)
		return
	}
	user := ""
	if ti := auth.TokenInfoFromContext(r.Context()); ti != nil {
		user = ti.UserID
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, f.maxBody+1))
	// From here on the SDK, if it is asked, reads the body whole.
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(body), r.Body), r.Body}
	if err != nil || int64(len(body)) > f.maxBody {
		f.pass(w, r, session, user)
		return
	}
	c, ok := parseCall(body)
	if !ok {
		if id, ok := cancelledID(body); ok && session != "" {
			f.s.cancelCall(session, user, string(id))
		}
		if session != "" && isInitialized(body) {
			rec := &statusRecorder{ResponseWriter: w}
			f.pass(rec, r, session, user)
			if rec.status == http.StatusAccepted {
				f.s.sessionNotified(session, f, user)
			}
			return
		}
		f.pass(w, r, session, user)
		return
	}
	meta := f.s.metaTools[c.name]
	if f.stateless {
		if meta == nil {
			f.pass(w, r, session, user)
			return
		}
		f.answer(w, r.Context(), c, meta)
		return
	}
	var ctx context.Context
	var cancel context.CancelFunc
	if meta != nil {
		ctx, cancel = context.WithCancel(r.Context())
		defer cancel()
	}
	switch f.s.claim(session, f, user, string(c.id), cancel) {
	case claimNone:
		f.pass(w, r, session, user)
	case claimDuplicate:
		f.s.touchSession(session, user)
		writeDuplicate(w, c.id)
	case claimSDK:
		defer f.s.release(session, string(c.id))
		f.pass(w, r, session, user)
	case claimFast:
		defer f.s.release(session, string(c.id))
		f.answer(w, ctx, c, meta)
	}
}

// writeDuplicate answers a call whose id is already in flight in its
// session as the SDK does.
func writeDuplicate(w http.ResponseWriter, id json.RawMessage) {
	shown := strings.Trim(string(id), `"`) // plainID strings hold no escapes
	h := w.Header()
	h.Set("Cache-Control", "no-cache, no-transform") // set for the stream it was about to open
	h.Set("Connection", "keep-alive")
	h.Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(id)+`,"error":{"code":-32600,"message":"duplicate in-flight request ID `+shown+`"}}`)
}

// pass hands a request to the SDK, noting that the SDK saw the session.
func (f *fastPath) pass(w http.ResponseWriter, r *http.Request, session, user string) {
	if session != "" {
		f.s.touchSession(session, user)
	}
	f.next.ServeHTTP(w, r)
}

// answer runs the meta-tool and writes its result as the SDK does: one
// event on a stream of its own.
func (f *fastPath) answer(w http.ResponseWriter, ctx context.Context, c fastCall, meta *metaTool) {
	f.s.fastServed.Add(1)
	text, isError := encodeOutcome(f.s.outcome(ctx, meta.name, meta.f, c.args))
	buf := answerBuffers.Get().(*[]byte)
	defer answerBuffers.Put(buf)
	out := append((*buf)[:0], "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":"...)
	out = append(out, c.id...)
	out = append(out, `,"result":{"content":[{"type":"text","text":`...)
	out = appendJSONString(out, text)
	if isError {
		out = append(out, `}],"isError":true}}`...)
	} else {
		out = append(out, `}]}}`...)
	}
	out = append(out, "\n\n"...)
	if cap(out) <= 64<<10 { // keep small buffers only
		*buf = out
	}
	h := w.Header()
	h.Set("Cache-Control", "no-cache, no-transform")
	h.Set("Content-Type", "text/event-stream")
	h.Set("Connection", "keep-alive")
	// The SDK flushes the event, then ends the stream: two writes, the
	// answer in chunked framing. Not flushing lets net/http write it in
	// one, with a Content-Length when it fits its buffer; the client reads
	// the same event and the same end of stream.
	_, _ = w.Write(out)
}

// answerBuffers holds the buffers answers are written from.
var answerBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// appendJSONString appends s as a JSON string, escaped exactly as
// encoding/json escapes a string (HTML characters, U+2028 and U+2029
// included, invalid UTF-8 as U+FFFD), which is how the SDK writes a text
// block. FuzzAppendJSONString holds the two together.
func appendJSONString(dst, s []byte) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRune(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// admissible reports whether r passes every check the SDK makes of a POST
// before it reads the body. A request that might not goes to the SDK,
// which answers it.
func (f *fastPath) admissible(r *http.Request) bool {
	if la, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && la != nil && isLoopback(la.String()) && !isLoopback(r.Host) {
		return false
	}
	if r.Body == nil || r.Header.Get("Content-Type") != "application/json" {
		return false
	}
	if json, stream := accepts(r.Header.Values("Accept")); !json || !stream {
		return false
	}
	if v := r.Header.Get("Mcp-Protocol-Version"); v != "" && !slices.Contains(fastVersions, v) {
		return false
	}
	for _, h := range []string{"Last-Event-Id", "Mcp-Method", "Mcp-Name"} {
		if _, ok := r.Header[h]; ok {
			return false
		}
	}
	return true
}

// isLoopback is the SDK's test of a loopback host (internal/util.IsLoopback).
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = strings.Trim(addr, "[]")
	}
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// accepts is the SDK's reading of the Accept header (streamableAccepts).
func accepts(values []string) (jsonOK, streamOK bool) {
	for _, value := range values {
		for raw := range strings.SplitSeq(value, ",") {
			base, _, _ := strings.Cut(strings.TrimSpace(raw), ";")
			switch strings.ToLower(strings.TrimSpace(base)) {
			case "application/json", "application/*":
				jsonOK = true
			case "text/event-stream", "text/*":
				streamOK = true
			case "*/*":
				jsonOK, streamOK = true, true
			}
		}
	}
	return jsonOK, streamOK
}

// fastCall is the one request shape the fast path answers.
type fastCall struct {
	id   json.RawMessage // as sent; plainID holds
	name string
	args json.RawMessage // nil when absent
}

// parseCall reads body as a tools/call the fast path may answer. Keys are
// matched exactly, as the SDK matches them (encoding/json would fold case);
// a key spelled with escapes, a key given twice, or any key beyond the
// known ones refuses the request. The arguments are a slice of body.
func parseCall(body []byte) (fastCall, bool) {
	if !json.Valid(body) {
		return fastCall{}, false
	}
	var c fastCall
	var seen, paramsSeen int
	var params []byte
	ok := members(body, func(key, val []byte) bool {
		bit := 0
		switch string(key) {
		case `"jsonrpc"`:
			bit = 1
			if string(val) != `"2.0"` {
				return false
			}
		case `"id"`:
			bit = 2
			c.id = val
		case `"method"`:
			bit = 4
			if string(val) != `"tools/call"` {
				return false
			}
		case `"params"`:
			bit, params = 8, val
		}
		if bit == 0 || seen&bit != 0 {
			return false
		}
		seen |= bit
		return true
	})
	if !ok || seen != 15 || !plainID.Match(c.id) {
		return fastCall{}, false
	}
	ok = members(params, func(key, val []byte) bool {
		bit := 0
		switch string(key) {
		case `"name"`:
			bit = 1
			if len(val) < 2 || val[0] != '"' || !plainName(val[1:len(val)-1]) {
				return false
			}
			c.name = string(val[1 : len(val)-1])
		case `"arguments"`:
			bit, c.args = 2, val
		}
		if bit == 0 || paramsSeen&bit != 0 {
			return false
		}
		paramsSeen |= bit
		return true
	})
	if !ok || paramsSeen&1 == 0 {
		return fastCall{}, false
	}
	return c, true
}

// plainName reports whether a string's raw bytes are printable ASCII
// without escapes, so that they are the string itself.
func plainName(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c >= 0x7f || c == '\\' {
			return false
		}
	}
	return true
}

// members calls fn with the raw key (quotes included) and the raw value of
// each member of obj, a valid JSON value, in order, until fn returns
// false. It reports false when obj is not an object or fn refused one.
func members(obj []byte, fn func(key, val []byte) bool) bool {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return false
	}
	i = skipSpace(obj, i+1)
	if i < len(obj) && obj[i] == '}' {
		return true
	}
	for i < len(obj) {
		end := skipValue(obj, i) // the key, a string
		key := obj[i:end]
		i = skipSpace(obj, end)
		i = skipSpace(obj, i+1) // past the colon
		end = skipValue(obj, i)
		if !fn(key, obj[i:end]) {
			return false
		}
		i = skipSpace(obj, end)
		if i >= len(obj) || obj[i] == '}' {
			return true
		}
		i = skipSpace(obj, i+1) // past the comma
	}
	return false
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the index just past the valid JSON value at b[i].
func skipValue(b []byte, i int) int {
	depth := 0
	for i < len(b) {
		switch b[i] {
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
			i++
		case '{', '[':
			depth++
			i++
			continue
		case '}', ']':
			depth--
			i++
		default: // a number or literal, or the space, colon or comma inside a container
			if depth == 0 {
				for i < len(b) && !strings.ContainsRune(" \t\n\r,}]", rune(b[i])) {
					i++
				}
				return i
			}
			i++
			continue
		}
		if depth == 0 {
			return i
		}
	}
	return i
}

// cancelledID returns the requestId of a notifications/cancelled.
func cancelledID(body []byte) (json.RawMessage, bool) {
	if !json.Valid(body) {
		return nil, false
	}
	var method, params []byte
	members(body, func(key, val []byte) bool {
		switch string(key) {
		case `"method"`:
			method = val
		case `"params"`:
			params = val
		}
		return true
	})
	if string(method) != `"notifications/cancelled"` {
		return nil, false
	}
	var id []byte
	members(params, func(key, val []byte) bool {
		if string(key) == `"requestId"` {
			id = val
		}
		return true
	})
	return id, id != nil
}

// isInitialized reports whether body is exactly the notification that
// completes a session's initialisation.
func isInitialized(body []byte) bool {
	var top map[string]json.RawMessage
	if json.Unmarshal(body, &top) != nil {
		return false
	}
	_, hasID := top["id"]
	return !hasID && string(top["jsonrpc"]) == `"2.0"` && string(top["method"]) == `"notifications/initialized"`
}

// sessionNotified notes that owner's SDK accepted the initialisation of a
// session, requested as user.
func (s *Server) sessionNotified(id string, owner *fastPath, user string) {
	s.liveMu.Lock()
	defer s.liveMu.Unlock()
	ls := s.liveEntry(id)
	ls.owner, ls.user, ls.lastSDK = owner, user, time.Now()
}

// sessionInitialized is the SDK's InitializedHandler: it watches the
// session so the fast path stops serving it the moment it closes, whatever
// closes it (DELETE, the idle timer, a broken connection).
func (s *Server) sessionInitialized(_ context.Context, req *mcp.InitializedRequest) {
	ss := req.Session
	id := ss.ID()
	if id == "" { // stdio, or a stateless request's temporary session
		return
	}
	s.liveMu.Lock()
	s.liveEntry(id).watched = true
	s.liveMu.Unlock()
	go func() {
		_ = ss.Wait()
		s.forgetSession(id)
	}()
}

// liveEntry returns the entry for id, creating it. s.liveMu is held.
func (s *Server) liveEntry(id string) *liveSession {
	ls := s.live[id]
	if ls == nil {
		ls = &liveSession{inflight: map[string]context.CancelFunc{}}
		s.live[id] = ls
	}
	return ls
}

func (s *Server) forgetSession(id string) {
	s.liveMu.Lock()
	delete(s.live, id)
	s.liveMu.Unlock()
}

// touchSession notes that a request of the session went to the SDK, which
// renews the session's idle timer when the session is the user's.
func (s *Server) touchSession(id, user string) {
	s.liveMu.Lock()
	if ls := s.live[id]; ls != nil && (ls.user == "" || ls.user == user) {
		ls.lastSDK = time.Now()
	}
	s.liveMu.Unlock()
}

// A claim is what the fast path may do with a call in a session.
type claim int

const (
	claimNone      claim = iota // not a live session of this handler's, or not the user's: the SDK answers
	claimDuplicate              // a call with the same id is in flight: the SDK would refuse it
	claimSDK                    // the SDK answers; the id is in flight until release
	claimFast                   // the fast path answers; the id is in flight until release
)

// claim marks a call's id in flight in a session owner's SDK accepted,
// whichever path answers it, so that a second call with the same id gets
// the SDK's refusal either way. A non-nil cancel asks for the fast path,
// which is given only while the session is watched and the SDK's idle
// timer fresh; cancel then ends the call's context if the client sends
// notifications/cancelled for it.
func (s *Server) claim(id string, owner *fastPath, user, callID string, cancel context.CancelFunc) claim {
	s.liveMu.Lock()
	defer s.liveMu.Unlock()
	ls := s.live[id]
	if ls == nil || ls.owner != owner || (ls.user != "" && ls.user != user) {
		return claimNone
	}
	if _, ok := ls.inflight[callID]; ok {
		return claimDuplicate
	}
	if cancel == nil || !ls.watched || (owner.idle > 0 && time.Since(ls.lastSDK) >= owner.idle/8) {
		ls.inflight[callID] = nil
		return claimSDK
	}
	ls.inflight[callID] = cancel
	return claimFast
}

// cancelCall ends the context of a call the fast path is answering, as
// the SDK cancels a request when its client sends notifications/cancelled.
func (s *Server) cancelCall(id, user, callID string) {
	s.liveMu.Lock()
	defer s.liveMu.Unlock()
	if ls := s.live[id]; ls != nil && (ls.user == "" || ls.user == user) {
		if cancel := ls.inflight[callID]; cancel != nil {
			cancel()
		}
	}
}

func (s *Server) release(id, callID string) {
	s.liveMu.Lock()
	if ls := s.live[id]; ls != nil {
		delete(ls.inflight, callID)
	}
	s.liveMu.Unlock()
}

// statusRecorder notes the status the SDK answers with.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the writer's Flush.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }
