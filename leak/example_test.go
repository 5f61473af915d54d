package leak_test

import (
	"fmt"

	"github.com/sezzlee/sezzlee/leak"
)

func ExampleFilter() {
	out, withheld := leak.Filter("could not connect to postgres://app:hunter2@10.0.0.5/orders")
	fmt.Println(out, withheld)
	out, withheld = leak.Filter("must be at least 12 characters")
	fmt.Println(out, withheld)
	// Output:
	// could not connect to [withheld] true
	// must be at least 12 characters false
}

func ExampleClean() {
	fmt.Println(leak.Clean("TypeError: x is undefined\n    at handler (/app/server.js:12:7)"))
	// Output:
	// x is undefined (details were withheld)
}
