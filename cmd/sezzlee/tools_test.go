package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sezzlee/sezzlee/catalog"
	"github.com/sezzlee/sezzlee/demo"
	"github.com/sezzlee/sezzlee/internal/specs"
)

func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), &env{stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}, args)
	return code, out.String(), errb.String()
}

func TestToolsListsTheDemo(t *testing.T) {
	code, out, stderr := runCmd(t, "tools")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 8 {
		t.Fatalf("got %d lines, want 8 (one per demo operation):\n%s", len(lines), out)
	}
	f := strings.Fields(lines[0])
	if f[0] != "createOrder" || f[1] != "POST" || f[2] != "/orders" || len(f[3]) != 12 {
		t.Errorf("first line = %q, want createOrder POST /orders <12-hex version> <summary>", lines[0])
	}
}

func TestToolsJSON(t *testing.T) {
	code, out, stderr := runCmd(t, "tools", "--json", "--read-only")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var got []toolLine
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("stdout is not a JSON array: %v\n%s", err, out)
	}
	for _, l := range got {
		if l.Method != "GET" {
			t.Errorf("--read-only kept %s %s", l.Method, l.Path)
		}
		if l.Name == "" || l.Path == "" || l.Version == "" || l.Tags == nil {
			t.Errorf("incomplete line %+v", l)
		}
	}
	if len(got) != 5 {
		t.Errorf("got %d read-only tools, want 5", len(got))
	}
}

func TestToolsPathKeepsFragment(t *testing.T) {
	path := specs.File(t, "readme-parameters-style-oas30.yaml")
	code, out, _ := runCmd(t, "tools", "--spec", path, "--json", "--include-tag", "Cookie")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var got []toolLine
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	paths := map[string]bool{}
	for _, l := range got {
		paths[l.Path] = true
	}
	for _, want := range []string{"/cookies", "/cookies#formNonExploded", "/cookies#formExploded"} {
		if !paths[want] {
			t.Errorf("path %q missing from %v", want, paths)
		}
	}
}

func TestLoadPrintsDefinition(t *testing.T) {
	// Flags after the NAME work too.
	code, out, stderr := runCmd(t, "load", "listOrders", "--read-only")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	c, err := catalog.Parse(demo.Description, &catalog.Options{Deferred: demo.Deferred})
	if err != nil {
		t.Fatal(err)
	}
	tool, _ := c.Tool("listOrders")
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(tool.Definition()); err != nil {
		t.Fatal(err)
	}
	if out != want.String() {
		t.Errorf("load printed\n%s\nwant\n%s", out, want.String())
	}
	if strings.Contains(out, `"owner"`) {
		t.Errorf("the deferred argument owner reached the agent's schema:\n%s", out)
	}
}

func TestLoadUnknownAndExcluded(t *testing.T) {
	tests := []struct {
		args     []string
		wantCode int
		wantErr  string
	}{
		{[]string{"load", "noSuchTool"}, exitError, "no tool named"},
		{[]string{"load", "--read-only", "createOrder"}, exitError, "read-only"},
		{[]string{"load"}, exitUsage, "exactly one"},
		{[]string{"load", "a", "b"}, exitUsage, "exactly one"},
		{[]string{"tools", "extra"}, exitUsage, "unexpected argument"},
		{[]string{"tools", "--no-such-flag"}, exitUsage, "no-such-flag"},
	}
	for _, tt := range tests {
		code, _, stderr := runCmd(t, tt.args...)
		if code != tt.wantCode || !strings.Contains(stderr, tt.wantErr) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tt.args, code, stderr, tt.wantCode, tt.wantErr)
		}
	}
}

func TestToolsNotADescription(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("hello: world\nlist:\n  - 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCmd(t, "tools", "--spec", bad)
	if code != exitUsage {
		t.Errorf("exit %d, want %d", code, exitUsage)
	}
	if out != "" || !strings.Contains(stderr, "line 1, column 1") {
		t.Errorf("stdout %q, stderr %q; want nothing and an error naming line 1, column 1", out, stderr)
	}
}

func TestToolsWarningsOnStderr(t *testing.T) {
	path := specs.File(t, "petstore-oas31.yaml")
	code, out, stderr := runCmd(t, "tools", "--spec", path)
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "warning: #/components/schemas/Pet/properties/petDetails/$ref (line 377") {
		t.Errorf("stderr = %q, want one warning line for the null $ref", stderr)
	}
	if strings.Contains(out, "warning") {
		t.Errorf("a warning reached stdout")
	}
}

func TestLoadDeferredFlag(t *testing.T) {
	path := specs.File(t, "petstore-oas30.yaml")
	_, out, _ := runCmd(t, "load", "--spec", path, "getPetById")
	if !strings.Contains(out, `"petId"`) {
		t.Fatalf("petId missing without --deferred:\n%s", out)
	}
	code, out, stderr := runCmd(t, "load", "--spec", path, "--deferred", "petId", "getPetById")
	if code != exitOK || strings.Contains(out, `"petId"`) {
		t.Errorf("exit %d (stderr %q); --deferred petId left petId in the schema:\n%s", code, stderr, out)
	}
}

func TestToolsPrivateURL(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(demo.Description)
	}))
	defer srv.Close()
	code, _, stderr := runCmd(t, "tools", "--spec", srv.URL+"/openapi.yaml")
	if code != exitUsage || !strings.Contains(stderr, "loopback") || !strings.Contains(stderr, "--allow-private-networks") {
		t.Errorf("loopback URL: exit %d, stderr %q; want exit 2 naming loopback and the flag", code, stderr)
	}
	code, out, stderr := runCmd(t, "tools", "--allow-private-networks", "--spec", srv.URL+"/openapi.yaml")
	if code != exitOK || !strings.Contains(out, "listOrders") {
		t.Errorf("with --allow-private-networks: exit %d, stderr %q", code, stderr)
	}
}
