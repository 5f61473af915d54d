package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// leanHandler is a prototype, for measurement only, of a lean path for the
// hot request: a stateless, JSON-answering server's tools/call of get_item
// is answered here, with one decode of the request and one write of the
// answer, and every other request (and any tools/call that is not the plain
// case: odd ids, _meta, unknown fields, a backend failure) is handed to the
// SDK's handler untouched. It tells how much of the bare server's cost a
// lean path could remove; it is not a complete implementation (see the
// README's findings for what a real one must keep).
type leanHandler struct {
	sdk      http.Handler
	fetch    func(r *http.Request, id int) ([]byte, error)
	maxBody  int64
	versions []string
}

// plainID is the JSON-RPC id shapes the lean path answers itself; the SDK
// re-encodes ids, so anything else goes to it.
var plainID = regexp.MustCompile(`^(-?[1-9][0-9]{0,14}|0|"[A-Za-z0-9_-]{1,64}")$`)

func (h *leanHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
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
	var msg struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  string          `json:"method"`
		Params  struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"params"`
	}
	var args struct {
		ID *int `json:"id"`
	}
	if !decodeStrict(body, &msg) || msg.JSONRPC != "2.0" || msg.Method != "tools/call" ||
		!plainID.Match(msg.ID) || msg.Params.Name != "get_item" ||
		!decodeStrict(msg.Params.Arguments, &args) || args.ID == nil {
		h.sdk.ServeHTTP(w, r)
		return
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
	out.Grow(len(text) + 96)
	out.WriteString(`{"jsonrpc":"2.0","id":`)
	out.Write(msg.ID)
	out.WriteString(`,"result":{"content":[{"type":"text","text":`)
	out.Write(text)
	out.WriteString(`}]}}`)
	w.Header().Set("Content-Type", "application/json")
	w.Write(out.Bytes())
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

// newLeanHandler wraps the stateless JSON SDK handler sdk.
func newLeanHandler(sdk http.Handler, fetchItem func(*http.Request, int) ([]byte, error)) *leanHandler {
	return &leanHandler{sdk: sdk, fetch: fetchItem, maxBody: mcp.DefaultMaxRequestBodyBytes,
		versions: []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}}
}
