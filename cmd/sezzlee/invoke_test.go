package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

const petsSpec = "../../invoke/testdata/pets.yaml"

// petsBackend is a real loopback server counting the requests it gets.
func petsBackend(t *testing.T) (*httptest.Server, *atomic.Int32) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]string{"path": r.URL.Path, "body": string(body), "auth": r.Header.Get("Authorization")})
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func TestInvokeCommand(t *testing.T) {
	srv, hits := petsBackend(t)
	tests := []struct {
		name     string
		args     []string
		code     int
		hits     int32
		stdout   string // a substring of stdout
		stderr   string // a substring of stderr
		noStdout bool
	}{
		{name: "success", args: []string{"--spec", petsSpec, "--upstream", srv.URL + "/v1", "createPet", `{"name":"rex"}`},
			code: exitOK, hits: 1, stdout: `"path": "/v1/pets"`},
		{name: "flags after the name", args: []string{"createPet", `{"name":"rex"}`, "--spec", petsSpec, "--upstream", srv.URL},
			code: exitOK, hits: 1, stdout: `"status": 200`},
		{name: "credential from the environment", args: []string{"--spec", petsSpec, "--upstream", srv.URL, "--credential", "bearer=PET_TOKEN", "updatePet", `{"id":1}`},
			code: exitOK, hits: 1, stdout: `"auth": "Bearer t0k"`},
		{name: "error envelope", args: []string{"--spec", petsSpec, "--upstream", srv.URL, "createPet", `{"bogus":1}`},
			code: exitError, stdout: `"error": "unknown_argument"`},
		{name: "pinned version changed", args: []string{"--spec", petsSpec, "--upstream", srv.URL, "--version", "000000000000", "createPet"},
			code: exitError, stdout: `"error": "tool_changed"`},
		{name: "no tool name", args: []string{"--spec", petsSpec}, code: exitUsage, stderr: "want a tool name", noStdout: true},
		{name: "bad flag", args: []string{"--nope", "createPet"}, code: exitUsage, noStdout: true},
		{name: "bad timeout", args: []string{"--timeout", "-1s", "createPet"}, code: exitUsage, noStdout: true},
		{name: "unreadable spec", args: []string{"--spec", "does-not-exist.yaml", "createPet"}, code: exitUsage, noStdout: true},
		{name: "bad upstream", args: []string{"--spec", petsSpec, "--upstream", "ftp://x", "createPet"}, code: exitUsage, noStdout: true},
		{name: "empty credential variable", args: []string{"--spec", petsSpec, "--credential", "bearer=UNSET", "createPet"}, code: exitUsage, stderr: "UNSET"},
		{name: "bad deferred value", args: []string{"--deferred", "novalue", "createPet"}, code: exitUsage, stderr: "NAME=VALUE"},
		{name: "demo in-process", args: []string{"--deferred", "owner=alice", "getOrder", `{"id":1}`}, code: exitOK, stdout: `"owner": "alice"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := hits.Load()
			var out, errb strings.Builder
			code := run(context.Background(), &env{stdout: &out, stderr: &errb, getenv: func(k string) string {
				if k == "PET_TOKEN" {
					return "t0k"
				}
				return ""
			}}, append([]string{"invoke"}, tt.args...))
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stdout %s; stderr %s", code, tt.code, out.String(), errb.String())
			}
			if got := hits.Load() - before; got != tt.hits {
				t.Errorf("backend hits = %d, want %d", got, tt.hits)
			}
			if !strings.Contains(out.String(), tt.stdout) {
				t.Errorf("stdout %s, want it to contain %s", out.String(), tt.stdout)
			}
			if !strings.Contains(errb.String(), tt.stderr) {
				t.Errorf("stderr %s, want it to contain %s", errb.String(), tt.stderr)
			}
			if tt.noStdout && out.Len() > 0 {
				t.Errorf("stdout %s, want nothing on bad usage", out.String())
			}
			if tt.code != exitUsage && !json.Valid([]byte(out.String())) {
				t.Errorf("stdout is not one JSON envelope: %s", out.String())
			}
		})
	}
}

// TestInvokeDescriptionServerNeedsPrivateFlag: a loopback server named by the
// description (not typed by the operator) is refused unless
// --allow-private-networks is given.
func TestInvokeDescriptionServerNeedsPrivateFlag(t *testing.T) {
	srv, hits := petsBackend(t)
	data, err := os.ReadFile(petsSpec)
	if err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(t.TempDir(), "pets.yaml")
	os.WriteFile(spec, []byte(strings.Replace(string(data), "https://api.example.com/v1", srv.URL+"/api", 1)), 0o600)

	code, out, _ := runCmd(t, "invoke", "--spec", spec, "createPet", `{"name":"a"}`)
	if code != exitError || !strings.Contains(out, "backend_unreachable") || hits.Load() != 0 {
		t.Errorf("without the flag: exit %d, hits %d, stdout %s; want backend_unreachable and no hit", code, hits.Load(), out)
	}
	code, out, _ = runCmd(t, "invoke", "--spec", spec, "--allow-private-networks", "createPet", `{"name":"a"}`)
	if code != exitOK || !strings.Contains(out, `"path": "/api/pets"`) {
		t.Errorf("with the flag: exit %d, stdout %s; want the call under /api", code, out)
	}
}

// TestInvokeCommandInDocs runs the command docs/forms-and-files.md shows,
// against a local server standing in for its upstream.
func TestInvokeCommandInDocs(t *testing.T) {
	srv, hits := petsBackend(t)
	page, err := os.ReadFile("../../docs/forms-and-files.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(page), "```sh\n")
	if !ok {
		t.Fatal("the page has no sh block")
	}
	cmd, _, _ := strings.Cut(rest, "```")
	args, err := shellWords(strings.ReplaceAll(cmd, "\\\n", " "))
	if err != nil {
		t.Fatal(err)
	}
	if len(args) < 2 || args[0] != "sezzlee" || args[1] != "invoke" {
		t.Fatalf("the sh block is not a sezzlee invoke command: %q", args)
	}
	for i, a := range args {
		switch {
		case a == "http://localhost:8080":
			args[i] = srv.URL
		case strings.HasPrefix(a, "invoke/testdata/"):
			args[i] = "../../" + a
		}
	}
	code, out, stderr := runCmd(t, args[1:]...)
	if code != exitOK || hits.Load() != 1 || !strings.Contains(out, `"path": "/v1/documents/notes.txt"`) || !strings.Contains(out, `meet at noon`) {
		t.Errorf("exit %d, hits %d\nstdout %s\nstderr %s", code, hits.Load(), out, stderr)
	}
}
