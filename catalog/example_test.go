package catalog_test

import (
	"fmt"

	"github.com/sezzlee/sezzlee/catalog"
)

func ExampleParse() {
	description := []byte(`
openapi: 3.0.3
info: {title: Orders, version: "1"}
paths:
  /orders/{id}:
    patch:
      operationId: updateOrder
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [quantity]
              properties:
                id: {type: string, description: The client's own reference.}
                quantity: {type: integer, minimum: 1}
`)
	c, err := catalog.Parse(description, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	tool, _ := c.Tool("updateOrder")
	fmt.Println(string(tool.InputSchema))
	for _, a := range tool.Binding.Args {
		fmt.Printf("%s -> %s %s\n", a.Name, a.In, a.Wire)
	}
	// Output:
	// {"type":"object","properties":{"id":{"type":"string"},"body_id":{"type":"string","description":"The client's own reference."},"quantity":{"type":"integer","minimum":1}},"required":["id","quantity"],"additionalProperties":false}
	// body_id -> body id
	// id -> path id
	// quantity -> body quantity
}

func ExampleCatalog_Excluded() {
	description := []byte(`
openapi: 3.0.3
info: {title: Orders, version: "1"}
paths:
  /orders:
    get: {operationId: listOrders}
    post: {operationId: createOrder}
`)
	c, _ := catalog.Parse(description, &catalog.Options{Filter: catalog.Filter{ReadOnly: true}})
	for _, t := range c.Tools() {
		fmt.Println("tool:", t.Name)
	}
	reason, _ := c.Excluded("createOrder")
	fmt.Println("createOrder:", reason)
	// Output:
	// tool: listOrders
	// createOrder: the catalog is read-only and POST is not a safe method
}

func ExampleLoadError() {
	_, err := catalog.Parse([]byte("title: my notes\nitems: [a, b]\n"), nil)
	fmt.Println(err)
	// Output:
	// line 1, column 1: not an OpenAPI description: there is no openapi or swagger key
}
