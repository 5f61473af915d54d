package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestTypeScriptSDK drives `sezzlee demo` with the official TypeScript MCP
// SDK (e2e/ts/e2e.mjs). It installs the pinned SDK with `npm ci` when
// node_modules is missing, and skips when node or npm is absent.
func TestTypeScriptSDK(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("skipped: node is not installed")
	}
	dir, err := filepath.Abs("ts")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		npm, err := exec.LookPath("npm")
		if err != nil {
			t.Skip("skipped: npm is not installed, and e2e/ts/node_modules is missing")
		}
		cmd := exec.Command(npm, "ci", "--no-audit", "--no-fund")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci in e2e/ts: %v\n%s", err, out)
		}
	}
	url := start(t, nil, "demo", "--listen", "127.0.0.1:0").url(t)
	cmd := exec.Command(node, "e2e.mjs", url)
	cmd.Dir = dir
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node e2e.mjs: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
