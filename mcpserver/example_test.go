package mcpserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/sezzlee/sezzlee/catalog"
	"github.com/sezzlee/sezzlee/demo"
	"github.com/sezzlee/sezzlee/invoke"
	"github.com/sezzlee/sezzlee/mcpserver"
)

type userKey struct{}

// session stands for a program's own authentication middleware: here it
// trusts a header, a real program would check a session cookie.
func session(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u := r.Header.Get("X-User"); u != "" {
			r = r.WithContext(context.WithValue(r.Context(), userKey{}, u))
		}
		next.ServeHTTP(w, r)
	})
}

// Example embeds sezzlee in an existing program: the MCP endpoint is
// mounted on the program's own mux, calls reach the program's API handler
// in-process, and the deferred owner comes from the program's session.
func Example() {
	api := demo.NewHandler(nil) // the program's own API

	cat, err := catalog.Parse(demo.Description, &catalog.Options{Deferred: demo.Deferred})
	if err != nil {
		log.Fatal(err)
	}
	inv, err := invoke.New(&invoke.Options{
		Backend:  invoke.Handler(api), // no network hop
		Deferred: mcpserver.DeferredFromCaller("owner"),
	})
	if err != nil {
		log.Fatal(err)
	}
	srv, err := mcpserver.New(&mcpserver.Options{
		Sources: []mcpserver.Source{{Catalog: cat, Invoker: inv}},
		Identify: func(r *http.Request) (*mcpserver.Caller, error) {
			u, ok := r.Context().Value(userKey{}).(string)
			if !ok {
				return nil, errors.New("not signed in")
			}
			return &mcpserver.Caller{Subject: u}, nil
		},
	})
	if err != nil {
		log.Fatal(err)
	}

	mux := http.NewServeMux()
	mux.Handle("/mcp", session(srv.Handler()))
	mux.Handle("/", api)
	ts := httptest.NewServer(mux)
	defer ts.Close()

	// An MCP client signed in as bob.
	client := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint:   ts.URL + "/mcp",
		HTTPClient: &http.Client{Transport: userTransport{"bob"}},
	}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()

	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{
		Name:      "invoke_tool",
		Arguments: map[string]any{"name": "createOrder", "arguments": map[string]any{"item": "desk lamp", "quantity": 2}},
	})
	if err != nil {
		log.Fatal(err)
	}
	var env struct {
		Status int `json:"status"`
		Body   struct {
			Item  string `json:"item"`
			Owner string `json:"owner"`
		} `json:"body"`
	}
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &env); err != nil {
		log.Fatal(err)
	}
	fmt.Println(env.Status, env.Body.Item, "for", env.Body.Owner)
	// Output: 201 desk lamp for bob
}

type userTransport struct{ user string }

func (u userTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("X-User", u.user)
	return http.DefaultTransport.RoundTrip(r)
}

// ExampleServer_ServeStdio serves the demo API to one MCP client on stdin
// and stdout, as `sezzlee demo --stdio` does.
func ExampleServer_ServeStdio() {
	cat, _ := catalog.Parse(demo.Description, &catalog.Options{Deferred: demo.Deferred})
	inv, _ := invoke.New(&invoke.Options{
		Backend:  invoke.Handler(demo.NewHandler(nil)),
		Deferred: mcpserver.DeferredFromCaller("owner"),
	})
	srv, err := mcpserver.New(&mcpserver.Options{
		Sources:     []mcpserver.Source{{Catalog: cat, Invoker: inv}},
		LocalCaller: &mcpserver.Caller{Subject: "alice"},
	})
	if err != nil {
		log.Fatal(err)
	}
	_ = srv.ServeStdio // srv.ServeStdio(ctx) blocks until the client leaves
}
