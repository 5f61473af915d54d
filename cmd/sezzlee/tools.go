package main

import (
	"context"
	"fmt"
)

func runTools(ctx context.Context, e *env, args []string) int {
	fmt.Fprintln(e.stderr, "sezzlee: this command is not built yet")
	return exitUsage
}

func runLoad(ctx context.Context, e *env, args []string) int {
	fmt.Fprintln(e.stderr, "sezzlee: this command is not built yet")
	return exitUsage
}
