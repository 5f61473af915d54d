package envelope

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sezzlee/sezzlee/spec"
)

var update = flag.Bool("update", false, "rewrite golden files and the spec table from the code")

const (
	tableStart = "<!-- table:start -->"
	tableEnd   = "<!-- table:end -->"
)

// renderTable writes the registry as the markdown table of error-mapping.md.
func renderTable() string {
	var b strings.Builder
	b.WriteString("| Code | Layer | Statuses | Retryable | When | What the agent should do |\n")
	b.WriteString("|---|---|---|---|---|---|\n")
	for _, c := range Codes() {
		code := "`" + string(c.Code) + "`"
		if c.Extension {
			code += " *extension*"
		}
		layer, statuses := "backend", ""
		if c.Layer == LayerSDK {
			layer, statuses = "SDK, no status", "none"
		} else {
			var s []string
			for _, st := range c.Statuses {
				s = append(s, strconv.Itoa(st))
			}
			statuses = strings.Join(s, ", ")
			if c.Code == BackendError {
				statuses += ", every status no other code lists"
			}
		}
		retry := map[Retryability]string{RetryNever: "no", RetryAlways: "yes", RetryByCase: "by case"}[c.Retryable]
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", code, layer, statuses, retry, c.When, c.Action)
	}
	return b.String()
}

func TestSpecTableMatchesRegistry(t *testing.T) {
	const path = "../spec/error-mapping.md"
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok1 := strings.Cut(string(doc), tableStart)
	_, after, ok2 := strings.Cut(rest, tableEnd)
	if !ok1 || !ok2 {
		t.Fatalf("%s lacks the table markers", path)
	}
	want := renderTable()
	if *update {
		out := before + tableStart + "\n" + want + tableEnd + after
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(doc, spec.ErrorMapping()) {
		t.Fatalf("the embedded error-mapping.md differs from %s; rebuild", path)
	}
	got := strings.TrimPrefix(rest[:strings.Index(rest, tableEnd)], "\n")
	if got != want {
		t.Errorf("the table in %s is out of step with envelope/codes.go; run go test ./envelope -update\ngot:\n%s\nwant:\n%s", path, got, want)
	}

	// Read the table back as a reader would and check every row.
	rows := parseTable(t, got)
	codes := Codes()
	if len(rows) != len(codes) {
		t.Fatalf("table has %d rows; registry has %d codes", len(rows), len(codes))
	}
	for i, c := range codes {
		r := rows[i]
		if r.code != c.Code {
			t.Errorf("row %d: code %q; want %q", i, r.code, c.Code)
		}
		if (r.layer == LayerSDK) != (c.Layer == LayerSDK) {
			t.Errorf("%s: layer %q; want %q", c.Code, r.layer, c.Layer)
		}
		if !slices.Equal(r.statuses, c.Statuses) {
			t.Errorf("%s: statuses %v; want %v", c.Code, r.statuses, c.Statuses)
		}
		if r.retry != c.Retryable {
			t.Errorf("%s: retryable %q; want %q", c.Code, r.retry, c.Retryable)
		}
	}
}

type tableRow struct {
	code     Code
	layer    Layer
	statuses []int
	retry    Retryability
}

var numRE = regexp.MustCompile(`\d{3}`)

func parseTable(t *testing.T, table string) []tableRow {
	t.Helper()
	var rows []tableRow
	for _, line := range strings.Split(strings.TrimSpace(table), "\n")[2:] {
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != 6 {
			t.Fatalf("row %q has %d cells; want 6", line, len(cells))
		}
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		r := tableRow{layer: LayerBackend}
		code, _, _ := strings.Cut(strings.TrimPrefix(cells[0], "`"), "`")
		r.code = Code(code)
		if strings.HasPrefix(cells[1], "SDK") {
			r.layer = LayerSDK
		}
		for _, m := range numRE.FindAllString(cells[2], -1) {
			n, _ := strconv.Atoi(m)
			r.statuses = append(r.statuses, n)
		}
		r.retry = map[string]Retryability{"no": RetryNever, "yes": RetryAlways, "by case": RetryByCase}[cells[3]]
		rows = append(rows, r)
	}
	return rows
}

func TestSchemaMatchesRegistry(t *testing.T) {
	var s struct {
		Defs map[string]json.RawMessage `json:"$defs"`
	}
	if err := json.Unmarshal(spec.InvokeResultSchema(), &s); err != nil {
		t.Fatal(err)
	}
	var backendEnum, sdkEnum struct{ Enum []Code }
	json.Unmarshal(s.Defs["backendCode"], &backendEnum)
	json.Unmarshal(s.Defs["sdkCode"], &sdkEnum)

	var wantBackend, wantSDK, wantNever, wantAlways []Code
	wantStatuses := map[Code][]int{}
	for _, c := range Codes() {
		if c.Layer == LayerBackend {
			wantBackend = append(wantBackend, c.Code)
			wantStatuses[c.Code] = c.Statuses
			continue
		}
		wantSDK = append(wantSDK, c.Code)
		switch c.Retryable {
		case RetryNever:
			wantNever = append(wantNever, c.Code)
		case RetryAlways:
			wantAlways = append(wantAlways, c.Code)
		}
	}
	if !slices.Equal(backendEnum.Enum, wantBackend) {
		t.Errorf("schema backend codes %v; want %v", backendEnum.Enum, wantBackend)
	}
	if !slices.Equal(sdkEnum.Enum, wantSDK) {
		t.Errorf("schema SDK codes %v; want %v", sdkEnum.Enum, wantSDK)
	}

	// The per-code conditions: each backend code's statuses, each SDK
	// code's fixed retryability.
	type cond struct {
		If struct {
			Properties struct {
				Error struct {
					Const Code
					Enum  []Code
				} `json:"error"`
			} `json:"properties"`
		} `json:"if"`
		Then struct {
			Properties struct {
				Status struct {
					Enum []int
					Not  struct{ Enum []int } `json:"not"`
				} `json:"status"`
				Retryable struct{ Const *bool } `json:"retryable"`
			} `json:"properties"`
		} `json:"then"`
	}
	var be, se struct{ AllOf []cond }
	json.Unmarshal(s.Defs["backendError"], &be)
	json.Unmarshal(s.Defs["sdkError"], &se)
	gotStatuses := map[Code][]int{}
	var excluded []int
	for _, c := range be.AllOf {
		code := c.If.Properties.Error.Const
		if code == "" {
			continue
		}
		if code == BackendError {
			excluded = c.Then.Properties.Status.Not.Enum
			gotStatuses[code] = []int{500}
			continue
		}
		gotStatuses[code] = c.Then.Properties.Status.Enum
	}
	var listed []int
	for code, want := range wantStatuses {
		if !slices.Equal(gotStatuses[code], want) {
			t.Errorf("schema statuses of %s: %v; want %v", code, gotStatuses[code], want)
		}
		if code != BackendError {
			listed = append(listed, want...)
		}
	}
	slices.Sort(listed)
	if !slices.Equal(excluded, listed) {
		t.Errorf("schema excludes %v from backend_error; want %v", excluded, listed)
	}
	var gotNever, gotAlways []Code
	for _, c := range se.AllOf {
		if r := c.Then.Properties.Retryable.Const; r != nil {
			if *r {
				gotAlways = c.If.Properties.Error.Enum
			} else {
				gotNever = c.If.Properties.Error.Enum
			}
		}
	}
	if !slices.Equal(gotNever, wantNever) || !slices.Equal(gotAlways, wantAlways) {
		t.Errorf("schema retryability: never %v, always %v; want never %v, always %v", gotNever, gotAlways, wantNever, wantAlways)
	}
}

func TestRegistry(t *testing.T) {
	seen := map[Code]bool{}
	statuses := map[int]Code{}
	for _, c := range Codes() {
		if seen[c.Code] {
			t.Errorf("%s is registered twice", c.Code)
		}
		seen[c.Code] = true
		if c.When == "" || c.Action == "" || c.Message == "" {
			t.Errorf("%s lacks when, action or message", c.Code)
		}
		if (c.Layer == LayerSDK) != (len(c.Statuses) == 0) {
			t.Errorf("%s: layer %s with statuses %v", c.Code, c.Layer, c.Statuses)
		}
		for _, s := range c.Statuses {
			if prev, ok := statuses[s]; ok {
				t.Errorf("status %d maps to both %s and %s", s, prev, c.Code)
			}
			statuses[s] = c.Code
			if want := c.Retryable == RetryAlways; RetryableStatus(s) != want {
				t.Errorf("%s: status %d retryable %v; the code says %s", c.Code, s, RetryableStatus(s), c.Retryable)
			}
		}
	}
	if got := len(Codes()); got != 30 {
		t.Errorf("registry has %d codes; want 9 backend + 20 of the documents + backend_unreachable = 30", got)
	}
	if _, ok := Lookup("teapot"); ok {
		t.Error(`Lookup("teapot") found a code`)
	}
}
