package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// leanHandler is a prototype, for measurement only, of a lean path for the
// hot request: a tools/call of get_item is answered here, with one decode
// of the request and one write of the answer, and every other request (and
// any tools/call that is not the plain case: odd ids, _meta, unknown
// fields, a session it has not seen initialised, a backend failure) is
// handed to the SDK's handler untouched. It tells how much of the bare
// server's cost a lean path could remove; it is not a complete
// implementation (see the README's findings for what a real one must keep).
//
// In stateful mode it learns which sessions are live by watching the SDK's
// answers: a session is served here once the SDK has accepted its
// notifications/initialized, and forgotten when a DELETE reaches the SDK.
// It does not see sessions the SDK closes on its own (none do in bench:
// no SessionTimeout is set).
type leanHandler struct {
	sdk       http.Handler
	fetch     func(r *http.Request, id int) ([]byte, error)
	maxBody   int64
	versions  []string
	stateless bool
	sse       bool     // answer as an event stream, as the SDK does without JSONResponse
	live      sync.Map // session id → struct{}, stateful only
}

// plainID is the JSON-RPC id shapes the lean path answers itself; the SDK
// re-encodes ids, so anything else goes to it.
var plainID = regexp.MustCompile(`^(-?[1-9][0-9]{0,14}|0|"[A-Za-z0-9_-]{1,64}")$`)

// rpcMessage is the one message shape the lean path reads.
type rpcMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"params"`
}

func (h *leanHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	session := r.Header.Get("Mcp-Session-Id")
	if !h.stateless && r.Method == http.MethodDelete {
		h.live.Delete(session) // whatever the SDK answers, stop serving it here
		h.sdk.ServeHTTP(w, r)
		return
	}
	if !h.mayServe(r) {
		h.sdk.ServeHTTP(w, r)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, h.maxBody+1))
	// From here on, the SDK gets the body back whole if it is needed.
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(body), r.Body), r.Body}
	if err != nil || int64(len(body)) > h.maxBody {
		h.sdk.ServeHTTP(w, r)
		return
	}
	var msg rpcMessage
	decoded := decodeStrict(body, &msg)
	if !h.stateless && decoded && msg.Method == "notifications/initialized" && session != "" {
		rec := &statusRecorder{ResponseWriter: w}
		h.sdk.ServeHTTP(rec, r)
		if rec.status == http.StatusAccepted {
			h.live.Store(session, struct{}{})
		}
		return
	}
	var args struct {
		ID *int `json:"id"`
	}
	if !decoded || msg.JSONRPC != "2.0" || msg.Method != "tools/call" ||
		!plainID.Match(msg.ID) || msg.Params.Name != "get_item" ||
		!decodeStrict(msg.Params.Arguments, &args) || args.ID == nil {
		h.sdk.ServeHTTP(w, r)
		return
	}
	if !h.stateless {
		if _, ok := h.live.Load(session); !ok {
			h.sdk.ServeHTTP(w, r)
			return
		}
	}
	item, err := h.fetch(r, *args.ID)
	if err != nil {
		h.sdk.ServeHTTP(w, r) // the SDK's handler calls again and words the error
		return
	}
	text, err := json.Marshal(string(item))
	if err != nil {
		h.sdk.ServeHTTP(w, r)
		return
	}
	var out bytes.Buffer
	out.Grow(len(text) + 128)
	if h.sse {
		out.WriteString("event: message\ndata: ")
	}
	out.WriteString(`{"jsonrpc":"2.0","id":`)
	out.Write(msg.ID)
	out.WriteString(`,"result":{"content":[{"type":"text","text":`)
	out.Write(text)
	out.WriteString(`}]}}`)
	if h.sse {
		out.WriteString("\n\n")
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache, no-transform")
		w.Header().Set("Connection", "keep-alive")
	} else {
		w.Header().Set("Content-Type", "application/json")
	}
	w.Write(out.Bytes())
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

// Flush passes flushes on: the SDK flushes event streams.
func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// mayServe checks the headers the SDK checks before it reads a body; a
// request that would fail any of them goes to the SDK, which answers it.
func (h *leanHandler) mayServe(r *http.Request) bool {
	if r.Method != http.MethodPost || r.Header.Get("Origin") != "" {
		return false
	}
	if !isLoopbackHost(r.Host) {
		return false
	}
	if ct, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";"); strings.TrimSpace(ct) != "application/json" {
		return false
	}
	accept := strings.Join(r.Header.Values("Accept"), ",")
	if !strings.Contains(accept, "application/json") || !strings.Contains(accept, "text/event-stream") {
		return false
	}
	if v := r.Header.Get("Mcp-Protocol-Version"); v != "" && !slices.Contains(h.versions, v) {
		return false
	}
	return true
}

func isLoopbackHost(host string) bool {
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.HasSuffix(host, "]") {
		host = host[:i]
	}
	return host == "localhost" || host == "[::1]" || strings.HasPrefix(host, "127.")
}

// decodeStrict decodes one JSON object with no unknown fields and nothing after it.
func decodeStrict(data []byte, v any) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if dec.Decode(v) != nil {
		return false
	}
	_, err := dec.Token()
	return err == io.EOF
}

// newLeanHandler wraps sdk, the SDK's handler built with opts.
func newLeanHandler(sdk http.Handler, opts *mcp.StreamableHTTPOptions, fetchItem func(*http.Request, int) ([]byte, error)) *leanHandler {
	return &leanHandler{sdk: sdk, fetch: fetchItem, maxBody: mcp.DefaultMaxRequestBodyBytes,
		versions:  []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"},
		stateless: opts.Stateless, sse: !opts.JSONResponse}
}
