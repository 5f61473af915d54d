package agent

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite testdata/reports.txtar from the current output")

// TestReportsGolden pins what `sezzlee agent` prints for each scenario run
// against the correct fake server: the calls, the envelopes and the checks.
// Regenerate with go test ./agent -run TestReportsGolden -update.
func TestReportsGolden(t *testing.T) {
	path := filepath.Join("testdata", "reports.txtar")
	got := &txtar.Archive{Comment: []byte("The report of each scenario against the fake sezzlee server in fake_test.go.\n")}
	for _, s := range Scenarios() {
		var out bytes.Buffer
		var waits []time.Duration
		s.Run(context.Background(), (&fakeServer{}).connect(t), &Options{Out: &out, Sleep: noSleep(&waits)})
		got.Files = append(got.Files, txtar.File{Name: s.Name, Data: out.Bytes()})
	}
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, txtar.Format(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if len(want.Files) != len(got.Files) {
		t.Fatalf("golden has %d reports, run made %d", len(want.Files), len(got.Files))
	}
	for i, w := range want.Files {
		g := got.Files[i]
		if w.Name != g.Name || !bytes.Equal(w.Data, g.Data) {
			t.Errorf("report %s differs from the golden %s:\n--- got\n%s\n--- want\n%s", g.Name, w.Name, g.Data, w.Data)
		}
	}
}
