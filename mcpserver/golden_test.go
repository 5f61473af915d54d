package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite testdata/wire.txtar from the current output")

// TestWireGolden pins what a client sees: the meta-tools as tools/list
// lists them, and the results of a scripted session against the demo.
// Regenerate with go test -run TestWireGolden -update and review the diff.
func TestWireGolden(t *testing.T) {
	cs := connect(t, newServer(t, &Options{}).Handler())
	ctx := context.Background()
	var files []txtar.File
	add := func(name string, v any) {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, txtar.File{Name: name, Data: append(b, '\n')})
	}

	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	add("tools-list.json", list.Tools)

	steps := []struct {
		name string
		tool string
		args map[string]any
	}{
		{"load-createOrder.json", LoadTool, map[string]any{"name": "createOrder"}},
		{"load-unknown.json", LoadTool, map[string]any{"name": "launchRocket"}},
		{"search-bad-argument.json", SearchTool, map[string]any{"query": "orders", "sort": "name"}},
		{"invoke-created.json", InvokeTool, map[string]any{"name": "createOrder", "arguments": map[string]any{"item": "desk lamp", "quantity": 2}}},
		{"invoke-validation.json", InvokeTool, map[string]any{"name": "createOrder", "arguments": map[string]any{"item": "", "quantity": 0}}},
		{"invoke-unknown-argument.json", InvokeTool, map[string]any{"name": "getOrder", "arguments": map[string]any{"id": 1, "expand": true}}},
	}
	for _, st := range steps {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: st.tool, Arguments: st.args})
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		add(st.name, res)
	}

	got := txtar.Format(&txtar.Archive{
		Comment: []byte("The MCP wire format of sezzlee's meta-tools against the demo API.\nRegenerate: go test ./mcpserver -run TestWireGolden -update\n"),
		Files:   files,
	})
	const path = "testdata/wire.txtar"
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		wa, ga := txtar.Parse(want), txtar.Parse(got)
		for i, f := range ga.Files {
			if i >= len(wa.Files) || wa.Files[i].Name != f.Name || !bytes.Equal(wa.Files[i].Data, f.Data) {
				t.Errorf("%s differs from %s; got:\n%s", f.Name, path, f.Data)
			}
		}
		if len(wa.Files) != len(ga.Files) {
			t.Errorf("%s has %d files, the output %d", path, len(wa.Files), len(ga.Files))
		}
	}
}
