package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sezzlee/sezzlee/internal/specs"
)

// TestReadmeCommands keeps README.md's commands true: every
// `go run ./cmd/sezzlee ...` line in its sh blocks names a real command,
// and each one-shot command (tools, load, search, invoke) runs and exits 0.
// The long-running ones (demo, serve, agent) are run by the end-to-end
// tests and .ci/run; here their flags are checked to parse.
func TestReadmeCommands(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(string(readme), -1)
	var lines []string
	for _, b := range blocks {
		for _, l := range strings.Split(b[1], "\n") {
			if i := strings.Index(l, "#"); i >= 0 && !strings.Contains(l[:i], "'") {
				l = l[:i]
			}
			if l = strings.TrimSpace(l); strings.HasPrefix(l, "go run ./cmd/sezzlee ") {
				lines = append(lines, l)
			}
		}
	}
	if len(lines) < 5 {
		t.Fatalf("found %d sezzlee commands in README.md, want the quick start's", len(lines))
	}
	for _, l := range lines {
		args, err := shellWords(strings.TrimPrefix(l, "go run ./cmd/sezzlee "))
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		t.Run(l, func(t *testing.T) {
			if _, ok := commands[args[0]]; !ok {
				t.Fatalf("README names the command %q, which sezzlee does not have", args[0])
			}
			for i, a := range args {
				if rest, ok := strings.CutPrefix(a, "../shared/specs/"); ok {
					args[i] = specs.File(t, rest)
				}
			}
			switch args[0] {
			case "demo", "serve", "agent":
				// Long-running: check the flags parse by asking for help
				// with the same flags in front.
				code, _, stderr := runCmd(t, append(args, "-h")...)
				if code != exitOK {
					t.Fatalf("exit %d, stderr %q", code, stderr)
				}
				return
			}
			if slicesContains(args, "--spec") && !fileArgExists(args) {
				t.Skipf("the description in %q is not here", l)
			}
			code, out, stderr := runCmd(t, args...)
			if code != exitOK {
				t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, stderr)
			}
		})
	}
}

func slicesContains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// fileArgExists reports whether the --spec argument names a file that exists
// (URLs and the README's placeholder files do not).
func fileArgExists(args []string) bool {
	for i, a := range args {
		if a == "--spec" && i+1 < len(args) {
			_, err := os.Stat(filepath.Clean(args[i+1]))
			return err == nil
		}
	}
	return false
}
