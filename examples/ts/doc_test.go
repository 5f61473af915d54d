// Package ts_test runs the TypeScript validation-retry example, the loop
// most agent developers will copy, with the machine's Node against a small
// go-sdk server (a correct one and a broken one) and against `sezzlee demo`.
package ts_test
