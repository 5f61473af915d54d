package invoke_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/sezzlee/sezzlee/catalog"
	"github.com/sezzlee/sezzlee/invoke"
)

const petsAPI = `
openapi: 3.0.3
info: {title: pets, version: "1"}
components:
  securitySchemes:
    token: {type: http, scheme: bearer}
security: [{token: []}]
paths:
  /pets/{id}:
    get:
      operationId: getPet
      parameters:
        - {name: id, in: path, required: true, schema: {type: integer}}
      responses: {"200": {description: ok}}
`

// An Invoker dispatching in-process to an http.Handler: the handler sees
// the request sezzlee composed, with the host's credential and nothing of
// the agent's own.
func ExampleInvoker_Invoke() {
	cat, err := catalog.Parse([]byte(petsAPI), nil)
	if err != nil {
		panic(err)
	}
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"path":"`+r.URL.Path+`","auth":"`+r.Header.Get("Authorization")+`"}`)
	})
	inv, err := invoke.New(&invoke.Options{
		Backend:     invoke.Handler(api),
		Credentials: invoke.StaticCredentials{"token": "s3cret"}.Credentials,
	})
	if err != nil {
		panic(err)
	}
	env := inv.Invoke(context.Background(), cat, invoke.Call{Tool: "getPet", Arguments: json.RawMessage(`{"id":7}`)})
	fmt.Println(env.Status, string(env.Body))

	env = inv.Invoke(context.Background(), cat, invoke.Call{Tool: "getPet", Arguments: json.RawMessage(`{"id":"seven"}`)})
	fmt.Println(env.Error, env.Message)
	// Output:
	// 200 {"path":"/pets/7","auth":"Bearer s3cret"}
	// invalid_path_type Argument 'id' must be of type integer.
}

// Compose is the dry run alone: the request Invoke would send, built
// without any I/O.
func ExampleInvoker_Compose() {
	cat, _ := catalog.Parse([]byte(petsAPI), nil)
	inv, _ := invoke.New(&invoke.Options{Backend: invoke.Handler(http.NotFoundHandler())})
	req, env := inv.Compose(context.Background(), cat, invoke.Call{Tool: "getPet", Arguments: json.RawMessage(`{"id":7}`)})
	fmt.Println(req.Method, req.URL, env == nil)
	// Output: GET /pets/7 true
}
