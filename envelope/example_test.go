package envelope_test

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/sezzlee/sezzlee/envelope"
)

func ExampleFromResponse() {
	resp := &envelope.Response{
		Status: 422,
		Header: http.Header{"Content-Type": {"application/json"}},
		Body:   []byte(`{"detail":[{"loc":["body","quantity"],"msg":"Input should be less than or equal to 100"}]}`),
	}
	e := envelope.FromResponse(resp, &envelope.MapOptions{Arguments: []string{"quantity"}})
	out, _ := json.Marshal(e)
	fmt.Println(string(out))
	fmt.Println(envelope.Validate(out))
	// Output:
	// {"error":"validation_failed","message":"The backend rejected one or more arguments. Fix the listed fields and call the operation again.","status":422,"retryable":false,"fields":[{"name":"quantity","message":"Input should be less than or equal to 100"}]}
	// <nil>
}

func ExampleLookup() {
	c, _ := envelope.Lookup(envelope.BackendUnavailable)
	fmt.Println(c.Layer, c.Statuses, c.Retryable)
	fmt.Println(envelope.ForStatus(418), envelope.RetryableStatus(503))
	// Output:
	// backend [502 503] always
	// backend_error true
}

func ExampleTooLarge() {
	e := envelope.TooLarge(250_000, envelope.DefaultMaxAgentBytes, "application/json", []string{"limit"})
	out, _ := json.Marshal(e)
	fmt.Println(string(out))
	// Output:
	// {"error":"response_too_large","message":"The backend's answer is too large to return. Call again with the listed arguments to narrow it.","retryable":false,"fields":[{"name":"limit","message":"Ask for fewer items per page with a smaller value."}],"payload":{"bytes":250000,"limit":65536,"contentType":"application/json"}}
}
