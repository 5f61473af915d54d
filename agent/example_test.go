package agent_test

import (
	"fmt"
	"time"

	"github.com/sezzlee/sezzlee/agent"
)

// The loop an agent runs on a failed invoke_tool: tell the layers apart,
// decide on retrying, and repair from fields and the schema alone.
func Example() {
	schema, _ := agent.ParseSchema([]byte(`{"type":"object",
		"properties":{"item":{"type":"string","minLength":1},"quantity":{"type":"integer","minimum":1,"maximum":100}},
		"required":["item","quantity"]}`))
	args := map[string]any{"item": "", "quantity": 101}

	e, _ := agent.Parse([]byte(`{"error":"validation_failed","message":"Fix the listed fields.","status":400,"retryable":false,
		"fields":[{"name":"item","message":"The Item field is required."},
		          {"name":"item","message":"The field Item must have a minimum length of '1'."},
		          {"name":"quantity","message":"The field Quantity must be between 1 and 100."}]}`))

	fmt.Println("from the backend:", !e.IsSDKSide())
	_, retry := e.RetryAfter(time.Second, 0)
	fmt.Println("replay as is:", retry)
	fmt.Println("rules broken by item:", len(e.FieldsFor("item")))
	fixed, err := schema.Repair(args, e.Fields)
	fmt.Println(fixed, err)
	// Output:
	// from the backend: true
	// replay as is: false
	// rules broken by item: 2
	// map[item:x quantity:100] <nil>
}

// An envelope without status came from sezzlee: the arguments do not match
// the schema the agent holds, so it re-reads the schema and conforms to it.
func ExampleSchema_Conform() {
	e, _ := agent.Parse([]byte(`{"error":"unknown_argument","message":"Unknown argument(s): colour.","retryable":false}`))
	fmt.Println("sezzlee refused:", e.IsSDKSide())

	schema, _ := agent.ParseSchema([]byte(`{"type":"object","properties":{"id":{"type":"integer","minimum":1}},"required":["id"]}`))
	args, changes := schema.Conform(map[string]any{"id": "seven", "colour": "red"})
	fmt.Println(args)
	for _, c := range changes {
		fmt.Println(c)
	}
	// Output:
	// sezzlee refused: true
	// map[id:1]
	// dropped unknown argument colour
	// replaced id with a value of its type
}

func ExampleCheckNoLeak() {
	fmt.Println(agent.CheckNoLeak("The field Quantity must be between 1 and 100."))
	fmt.Println(agent.CheckNoLeak("failed: postgres://app:hunter2@db.internal/shop"))
	// Output:
	// []
	// [connection string (postgr…) internal address (db.int…)]
}
