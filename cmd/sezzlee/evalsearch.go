package main

import (
	"context"
	"fmt"
)

func runEvalSearch(ctx context.Context, e *env, args []string) int {
	fmt.Fprintln(e.stderr, "sezzlee: this command is not built yet")
	return exitUsage
}
