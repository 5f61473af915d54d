package mcpserver

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sezzlee/sezzlee/invoke"
)

// TestFastPathMatchesSDK sends each request of a table to a server with the
// fast path and to the same server without it, and wants the same status,
// headers and bytes from both: the fast path may only answer what the SDK
// would have answered, and must hand everything else on. Only what is
// random is normalised: session ids, error references and the Date header.
func TestFastPathMatchesSDK(t *testing.T) {
	call := func(id, tool, args string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`
	}
	invoke := func(id, args string) string { return call(id, InvokeTool, args) }
	getOrder := `{"name":"getOrder","arguments":{"id":1}}`
	const alice, bob = "key-alice", "key-bob"
	tests := []struct {
		name    string
		method  string
		session string // "" the live one; "none", "unknown", "uninitialized", "deleted", "bob" (bob's session)
		header  map[string]string
		body    string
		fast    bool // the fast path answers it itself
		only    string
	}{
		{name: "invoke", body: invoke("7", getOrder), fast: true},
		{name: "string id", body: invoke(`"req-1"`, getOrder), fast: true},
		{name: "zero id", body: invoke("0", getOrder), fast: true},
		{name: "negative id", body: invoke("-3", getOrder), fast: true},
		{name: "no protocol header", header: map[string]string{"Mcp-Protocol-Version": ""}, body: invoke("8", getOrder), fast: true},
		{name: "accept wildcard", header: map[string]string{"Accept": "*/*"}, body: invoke("8", getOrder), fast: true},
		{name: "created", body: invoke("9", `{"name":"createOrder","arguments":{"item":"desk lamp","quantity":2}}`), fast: true},
		{name: "validation failure", body: invoke("10", `{"name":"createOrder","arguments":{"item":"","quantity":0}}`), fast: true},
		{name: "unknown argument", body: invoke("11", `{"name":"getOrder","arguments":{"id":1,"expand":true}}`), fast: true},
		{name: "backend not found", body: invoke("12", `{"name":"getOrder","arguments":{"id":987654}}`), fast: true},
		{name: "tool changed", body: invoke("13", `{"name":"getOrder","arguments":{"id":1},"version":"old"}`), fast: true},
		{name: "unknown tool", body: invoke("14", `{"name":"launchRocket"}`), fast: true},
		{name: "meta arguments wrong type", body: invoke("15", `{"name":5}`), fast: true},
		{name: "meta argument unknown", body: invoke("16", `{"name":"getOrder","Name":"x"}`), fast: true},
		{name: "arguments not an object", body: invoke("17", `{"name":"getOrder","arguments":[1]}`), fast: true},
		{name: "no arguments", body: `{"jsonrpc":"2.0","id":18,"method":"tools/call","params":{"name":"invoke_tool"}}`, fast: true},
		{name: "null arguments", body: invoke("19", `null`), fast: true},
		{name: "search", body: call("20", SearchTool, `{"query":"change the quantity of an order"}`), fast: true},
		{name: "load", body: call("21", LoadTool, `{"name":"createOrder"}`), fast: true},
		{name: "load unknown", body: call("22", LoadTool, `{"name":"launchRocket"}`), fast: true},
		{name: "html and unicode", body: call("23", SearchTool, `{"query":"<b>a & b</b> \u2028 é"}`), fast: true},
		{name: "float id", body: invoke("7.5", getOrder)},
		{name: "exponent id", body: invoke("1e3", getOrder)},
		{name: "null id", body: invoke("null", getOrder)},
		{name: "long id", body: invoke("12345678901234567890", getOrder)},
		{name: "escaped string id", body: invoke(`"a\u0041"`, getOrder)},
		{name: "unknown meta-tool", body: call("24", "get_item", `{}`)},
		{name: "with _meta", body: `{"jsonrpc":"2.0","id":25,"method":"tools/call","params":{"name":"invoke_tool","arguments":` + getOrder + `,"_meta":{"progressToken":"t"}}}`},
		{name: "key case", body: `{"jsonrpc":"2.0","id":26,"Method":"tools/call","params":{"name":"invoke_tool","arguments":` + getOrder + `}}`},
		{name: "params key case", body: `{"jsonrpc":"2.0","id":27,"method":"tools/call","params":{"Name":"invoke_tool","arguments":` + getOrder + `}}`},
		{name: "extra top-level key", body: `{"jsonrpc":"2.0","id":28,"method":"tools/call","params":{"name":"invoke_tool"},"x":1}`},
		{name: "jsonrpc 1.0", body: `{"jsonrpc":"1.0","id":29,"method":"tools/call","params":{"name":"invoke_tool"}}`},
		{name: "initialize", session: "none", body: `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`},
		{name: "initialized again", body: `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
		{name: "tools/list", body: `{"jsonrpc":"2.0","id":30,"method":"tools/list"}`},
		{name: "ping", body: `{"jsonrpc":"2.0","id":31,"method":"ping"}`},
		{name: "notification", body: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}`},
		{name: "batch", header: map[string]string{"Mcp-Protocol-Version": "2025-03-26"}, body: "[" + invoke("32", getOrder) + "]"},
		{name: "not JSON", body: `{"jsonrpc":`},
		{name: "empty body", body: ``},
		{name: "trailing data", body: invoke("33", getOrder) + ` {}`},
		{name: "too large", body: invoke("34", `{"name":"getOrder","arguments":{"id":1,"pad":"`+strings.Repeat("x", 5000)+`"}}`)},
		{name: "unsupported protocol", header: map[string]string{"Mcp-Protocol-Version": "1999-01-01"}, body: invoke("35", getOrder)},
		{name: "future protocol", header: map[string]string{"Mcp-Protocol-Version": "2026-07-28"}, body: invoke("36", getOrder)},
		{name: "wrong content type", header: map[string]string{"Content-Type": "text/plain"}, body: invoke("37", getOrder)},
		{name: "content type charset", header: map[string]string{"Content-Type": "application/json; charset=utf-8"}, body: invoke("38", getOrder)},
		{name: "JSON-only accept", header: map[string]string{"Accept": "application/json"}, body: invoke("39", getOrder)},
		{name: "Last-Event-ID", header: map[string]string{"Last-Event-ID": "x_1"}, body: invoke("40", getOrder)},
		{name: "foreign host", header: map[string]string{"Host": "evil.example"}, body: invoke("41", getOrder)},
		{name: "foreign origin", header: map[string]string{"Origin": "https://evil.example"}, body: invoke("42", getOrder)},
		{name: "allowed origin", header: map[string]string{"Origin": "https://app.example"}, body: invoke("43", getOrder), fast: true},
		{name: "GET", method: "GET", session: "none"},
		{name: "PUT", method: "PUT", body: invoke("44", getOrder)},
		{name: "no session", session: "none", body: invoke("45", getOrder), only: "stateful"},
		{name: "unknown session", session: "unknown", body: invoke("46", getOrder), only: "stateful"},
		{name: "uninitialized session", session: "uninitialized", body: invoke("47", getOrder), only: "stateful"},
		{name: "deleted session", session: "deleted", body: invoke("48", getOrder), only: "stateful"},
		{name: "DELETE unknown session", method: "DELETE", session: "unknown", only: "stateful"},
		{name: "no token", header: map[string]string{"Authorization": ""}, body: invoke("49", getOrder), only: "auth"},
		{name: "wrong token", header: map[string]string{"Authorization": "Bearer nope"}, body: invoke("50", getOrder), only: "auth"},
		{name: "another user's session", header: map[string]string{"Authorization": "Bearer " + bob}, body: invoke("51", getOrder), only: "auth"},
		{name: "own session", session: "bob", header: map[string]string{"Authorization": "Bearer " + bob}, body: invoke("52", getOrder), fast: true, only: "auth"},
	}
	for _, mode := range []struct {
		name string
		opts Options
	}{
		{"stateful", Options{}},
		{"stateless", Options{Stateless: true}},
		{"auth", Options{Verifier: APIKeys(map[string]string{alice: "alice", bob: "bob"})}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			var sdkLog, fastLog syncBuffer
			newSrv := func(disable bool, log *syncBuffer) (*Server, http.Handler) {
				opts := mode.opts
				opts.MaxRequestBytes = 4096
				opts.AllowedOrigins = []string{"https://app.example"}
				opts.DisableFastPath = disable
				opts.Logger = slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelDebug}))
				s := newServer(t, &opts)
				return s, s.Handler()
			}
			_, sdk := newSrv(true, &sdkLog)
			fast, fastH := newSrv(false, &fastLog)
			auth := map[string]string{}
			if mode.name == "auth" {
				auth["Authorization"] = "Bearer " + alice
			}
			sdkSessions := openSessions(t, sdk, auth, mode.opts.Stateless)
			fastSessions := openSessions(t, fastH, auth, mode.opts.Stateless)
			for _, tt := range tests {
				if tt.only != "" && tt.only != mode.name && !(tt.only == "stateful" && mode.name == "auth") {
					continue
				}
				t.Run(tt.name, func(t *testing.T) {
					method := cmp(tt.method, "POST")
					header := map[string]string{}
					for k, v := range auth {
						header[k] = v
					}
					for k, v := range tt.header {
						header[k] = v
					}
					want := serve(t, sdk, method, sdkSessions[tt.session], header, tt.body)
					before := fast.fastServed.Load()
					got := serve(t, fastH, method, fastSessions[tt.session], header, tt.body)
					if got.status != want.status || got.header != want.header || got.body != want.body {
						t.Errorf("with the fast path: %d\n%s\n%s\nwithout: %d\n%s\n%s", got.status, got.header, got.body, want.status, want.header, want.body)
					}
					if gotFast := fast.fastServed.Load() > before; gotFast != tt.fast {
						t.Errorf("answered on the fast path = %v, want %v", gotFast, tt.fast)
					}
					if want.session != "" { // an initialize opened one
						closeSessions(t, sdk, map[string]string{"new": want.session}, header)
						closeSessions(t, fastH, map[string]string{"new": got.session}, header)
					}
				})
			}
			closeSessions(t, sdk, sdkSessions, auth)
			closeSessions(t, fastH, fastSessions, auth)
			// The calls are logged alike, line for line.
			if got, want := normalizeLog(fastLog.String()), normalizeLog(sdkLog.String()); got != want {
				t.Errorf("the logs differ; with the fast path:\n%s\nwithout:\n%s", got, want)
			} else if n := strings.Count(got, "\n"); n < 20 {
				t.Errorf("%d call records, want one per call:\n%s", n, got)
			}
		})
	}
}

func cmp(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// openSessions opens on h the sessions the table names, each the way a
// client would, and returns their ids (all "" when stateless).
func openSessions(t *testing.T, h http.Handler, auth map[string]string, stateless bool) map[string]string {
	t.Helper()
	const initialize = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	const initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	open := func(auth map[string]string, notify bool) string {
		rec := serve(t, h, "POST", "", auth, initialize)
		if rec.status != http.StatusOK {
			t.Fatalf("initialize: %d %s", rec.status, rec.body)
		}
		if notify && rec.session != "" {
			if rec := serve(t, h, "POST", rec.session, auth, initialized); rec.status != http.StatusAccepted {
				t.Fatalf("notifications/initialized: %d %s", rec.status, rec.body)
			}
		}
		return rec.session
	}
	if stateless {
		return map[string]string{}
	}
	s := map[string]string{"": open(auth, true), "none": "", "uninitialized": open(auth, false), "deleted": open(auth, true), "unknown": "NOSUCHSESSION"}
	if auth["Authorization"] != "" {
		s["bob"] = open(map[string]string{"Authorization": "Bearer key-bob"}, true)
	}
	if rec := serve(t, h, "DELETE", s["deleted"], auth, ""); rec.status != http.StatusNoContent {
		t.Fatalf("DELETE: %d %s", rec.status, rec.body)
	}
	return s
}

// closeSessions ends the sessions openSessions opened.
func closeSessions(t *testing.T, h http.Handler, sessions map[string]string, auth map[string]string) {
	t.Helper()
	for name, id := range sessions {
		if id == "" || name == "deleted" || name == "unknown" {
			continue
		}
		a := auth
		if name == "bob" {
			a = map[string]string{"Authorization": "Bearer key-bob"}
		}
		serve(t, h, "DELETE", id, a, "")
	}
}

type served struct {
	status  int
	header  string // every header but Date, one per line, sorted
	session string
	body    string
}

var (
	referencePattern = regexp.MustCompile(`sz-[0-9a-f]{16}`)
	logTimePattern   = regexp.MustCompile(`time=\S+ |duration=\S+ `)
)

// normalizeLog keeps the call records of a text log, without their times.
func normalizeLog(s string) string {
	var out []string
	for line := range strings.Lines(s) {
		if strings.Contains(line, "msg=call ") {
			out = append(out, referencePattern.ReplaceAllString(logTimePattern.ReplaceAllString(line, ""), "sz-REF"))
		}
	}
	return strings.Join(out, "")
}

// serve serves one request through h as if it came to 127.0.0.1:8080.
func serve(t *testing.T, h http.Handler, method, session string, header map[string]string, body string) served {
	t.Helper()
	req := httptest.NewRequest(method, "http://127.0.0.1:8080/mcp", strings.NewReader(body))
	req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	for k, v := range header {
		switch {
		case k == "Host":
			req.Host = v
		case v == "":
			req.Header.Del(k)
		default:
			req.Header.Set(k, v)
		}
	}
	rec := httptest.NewRecorder()
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.ServeHTTP(rec, req)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s %s: no answer", method, body)
	}
	res := rec.Result()
	b, _ := io.ReadAll(res.Body)
	sid := res.Header.Get("Mcp-Session-Id")
	var lines []string
	for k, vs := range res.Header {
		if k == "Date" {
			continue
		}
		if k == "Mcp-Session-Id" {
			vs = []string{"SESSION"}
		}
		lines = append(lines, k+": "+strings.Join(vs, ", "))
	}
	slices.Sort(lines)
	text := referencePattern.ReplaceAllString(string(b), "sz-REF")
	if session != "" {
		text = strings.ReplaceAll(text, session, "SESSION")
	}
	return served{status: res.StatusCode, header: strings.Join(lines, "\n"), session: sid, body: text}
}

// TestFastPathSessionIdle checks that calls answered on the fast path keep
// a session open as the SDK's own answers do, and that a session the SDK
// closes on its own is forgotten and then answered 404 as by the SDK.
func TestFastPathSessionIdle(t *testing.T) {
	const idle = 400 * time.Millisecond
	for _, disable := range []bool{true, false} {
		s := newServer(t, &Options{SessionIdle: idle, DisableFastPath: disable})
		h := s.Handler()
		id := openSessions(t, h, nil, false)[""]
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"load_tool","arguments":{"name":"getOrder"}}}`
		for end := time.Now().Add(2 * idle); time.Now().Before(end); time.Sleep(idle / 20) {
			if got := serve(t, h, "POST", id, nil, body); got.status != http.StatusOK {
				t.Fatalf("DisableFastPath %v: a call on a session in use answered %d %s", disable, got.status, got.body)
			}
		}
		if !disable && s.fastServed.Load() == 0 {
			t.Errorf("the fast path answered no call")
		}
		time.Sleep(idle + idle/2)
		if got := serve(t, h, "POST", id, nil, body); got.status != http.StatusNotFound {
			t.Errorf("DisableFastPath %v: a call on an idle session answered %d %s, want 404", disable, got.status, got.body)
		}
		s.liveMu.Lock()
		n := len(s.live)
		s.liveMu.Unlock()
		if n != 0 {
			t.Errorf("DisableFastPath %v: %d sessions still known after they closed", disable, n)
		}
	}
}

// FuzzAppendJSONString holds the fast path's string escaping to
// encoding/json's, which the SDK writes text blocks with.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", `{"a":"<b>&</b>"}`, "\u2028\u2029", "\xff\xfe", "\x00\x1f\x7f\b\f\n\r\t", `"\`, "é€𝄞", "a\xe2\x80"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, s []byte) {
		want, err := json.Marshal(string(s))
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSONString([]byte("x"), s); string(got) != "x"+string(want) {
			t.Errorf("appendJSONString(%q) = %s, want %s", s, got[1:], want)
		}
	})
}

// holdBackend holds every call until release is closed, telling started
// when one arrives.
type holdBackend struct {
	started chan struct{}
	release chan struct{}
}

func (g holdBackend) Do(ctx context.Context, req *http.Request) (*http.Response, error) {
	g.started <- struct{}{}
	select {
	case <-g.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return callerBackend{}.Do(ctx, req)
}

// TestFastPathDuplicateInFlight checks that a second call with the id of a
// call still in flight in the same session is refused as the SDK refuses
// it, whichever path the first call took.
func TestFastPathDuplicateInFlight(t *testing.T) {
	const first = `{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"invoke_tool","arguments":{"name":"getOrder","arguments":{"id":1}}}}`
	for _, tt := range []struct {
		name  string
		id    string
		stale bool // the SDK's idle timer wants renewing: the first call takes the SDK's path
	}{
		{name: "numeric id", id: "99"},
		{name: "string id", id: `"r-9"`},
		{name: "first call on the SDK's path", id: "98", stale: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			body := strings.Replace(first, "%s", tt.id, 1)
			var answers [2][2]served
			for i, disable := range []bool{true, false} {
				gate := holdBackend{started: make(chan struct{}, 1), release: make(chan struct{})}
				src := callerSource(t)
				inv, err := invoke.New(&invoke.Options{Backend: gate})
				if err != nil {
					t.Fatal(err)
				}
				src.Invoker = inv
				const idle = 2 * time.Second
				s := newServer(t, &Options{Sources: []Source{src}, DisableFastPath: disable, SessionIdle: idle})
				h := s.Handler()
				sessions := openSessions(t, h, nil, false)
				if tt.stale {
					time.Sleep(idle/8 + idle/20)
				}
				before := s.fastServed.Load()
				done := make(chan served)
				go func() { done <- serve(t, h, "POST", sessions[""], nil, body) }()
				<-gate.started
				answers[i][1] = serve(t, h, "POST", sessions[""], nil, body)
				close(gate.release)
				answers[i][0] = <-done
				if fast := s.fastServed.Load() > before; !disable && fast == tt.stale {
					t.Errorf("the first call answered on the fast path = %v, want %v", fast, !tt.stale)
				}
				closeSessions(t, h, sessions, nil)
			}
			for j, what := range []string{"first call", "second call"} {
				got, want := answers[1][j], answers[0][j]
				if got.status != want.status || got.header != want.header || got.body != want.body {
					t.Errorf("%s with the fast path: %d\n%s\n%s\nwithout: %d\n%s\n%s", what, got.status, got.header, got.body, want.status, want.header, want.body)
				}
			}
			if answers[0][1].status != http.StatusBadRequest {
				t.Errorf("the SDK answered the duplicate %d %s, want 400", answers[0][1].status, answers[0][1].body)
			}
		})
	}
}

// FuzzParseCall holds the fast path's reading of a request to
// encoding/json's with exact keys: whatever it accepts, a decode through
// maps accepts too, with the same id, name and arguments.
func FuzzParseCall(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"invoke_tool","arguments":{"name":"getOrder"}}}`,
		` { "jsonrpc" : "2.0" , "id" : "a-1" , "method" : "tools/call" , "params" : { "arguments" : [1,{"}":"]"}] , "name" : "load_tool" } } `,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"invoke_tool","arguments":{"a":"\"}\\"}}}`,
		`{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/call","params":{"name":"x"}}`,
		`{"jsonrpc":"2.0","id":1,"Method":"tools/call","params":{"name":"x"}}`,
		`{"jsonrpc":"2.0","id":1,"\u006dethod":"tools/call","params":{"name":"x"}}`,
		`{"jsonrpc":"2.0","id":1e3,"method":"tools/call","params":{"name":"x","arguments":-1.5e-3}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a\"b"}}`,
		`[{"jsonrpc":"2.0"}]`, `{}`, `{"params":{}}`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		c, ok := parseCall(body)
		if !ok {
			return
		}
		var top map[string]json.RawMessage
		if err := json.Unmarshal(body, &top); err != nil {
			t.Fatalf("parseCall accepted %q, which does not decode: %v", body, err)
		}
		var params map[string]json.RawMessage
		if err := json.Unmarshal(top["params"], &params); err != nil {
			t.Fatalf("parseCall accepted %q, whose params do not decode: %v", body, err)
		}
		var name string
		if err := json.Unmarshal(params["name"], &name); err != nil {
			t.Fatalf("parseCall accepted %q, whose name is no string: %v", body, err)
		}
		for k := range top {
			if !slices.Contains([]string{"jsonrpc", "id", "method", "params"}, k) {
				t.Errorf("parseCall accepted the key %q in %q", k, body)
			}
		}
		for k := range params {
			if k != "name" && k != "arguments" {
				t.Errorf("parseCall accepted the params key %q in %q", k, body)
			}
		}
		if len(top) != 4 || string(top["jsonrpc"]) != `"2.0"` || string(top["method"]) != `"tools/call"` ||
			string(top["id"]) != string(c.id) || name != c.name || string(params["arguments"]) != string(c.args) {
			t.Errorf("parseCall(%q) = id %s name %q args %s; the maps hold %v and %v", body, c.id, c.name, c.args, top, params)
		}
	})
}

// TestFastPathCancel checks that notifications/cancelled ends a call the
// fast path is answering as it ends one the SDK is answering: the backend
// sees its context end, and the client gets the same answer.
func TestFastPathCancel(t *testing.T) {
	const call = `{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{"name":"invoke_tool","arguments":{"name":"getOrder","arguments":{"id":1}}}}`
	const cancel = `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":77,"reason":"enough"}}`
	var answers [2][2]served
	for i, disable := range []bool{true, false} {
		hold := holdBackend{started: make(chan struct{}, 1), release: make(chan struct{})}
		stop := time.AfterFunc(3*time.Second, func() { close(hold.release) }) // if the cancel is lost
		src := callerSource(t)
		inv, err := invoke.New(&invoke.Options{Backend: hold})
		if err != nil {
			t.Fatal(err)
		}
		src.Invoker = inv
		s := newServer(t, &Options{Sources: []Source{src}, DisableFastPath: disable})
		h := s.Handler()
		sessions := openSessions(t, h, nil, false)
		done := make(chan served)
		go func() { done <- serve(t, h, "POST", sessions[""], nil, call) }()
		<-hold.started
		answers[i][1] = serve(t, h, "POST", sessions[""], nil, cancel)
		answers[i][0] = <-done
		if !stop.Stop() {
			t.Errorf("DisableFastPath %v: the cancelled call ran until the backend gave up", disable)
		}
		closeSessions(t, h, sessions, nil)
	}
	for j, what := range []string{"cancelled call", "notification"} {
		got, want := answers[1][j], answers[0][j]
		if got.status != want.status || got.header != want.header || got.body != want.body {
			t.Errorf("%s with the fast path: %d\n%s\n%s\nwithout: %d\n%s\n%s", what, got.status, got.header, got.body, want.status, want.header, want.body)
		}
	}
}
