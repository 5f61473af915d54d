package agent

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// noSleep records the waits instead of waiting.
func noSleep(waits *[]time.Duration) func(context.Context, time.Duration) error {
	return func(_ context.Context, d time.Duration) error {
		*waits = append(*waits, d)
		return nil
	}
}

func TestScenariosPassAgainstACorrectServer(t *testing.T) {
	for _, s := range Scenarios() {
		t.Run(s.Name, func(t *testing.T) {
			var out bytes.Buffer
			var waits []time.Duration
			cs := (&fakeServer{}).connect(t)
			rep := s.Run(context.Background(), cs, &Options{Out: &out, Sleep: noSleep(&waits)})
			if !rep.OK() {
				t.Errorf("scenario failed checks %q; report:\n%s", rep.FailedChecks(), out.String())
			}
			if s.Name == "retry-after" {
				if len(waits) != 1 || waits[0] != time.Second {
					t.Errorf("waits = %v, want [1s] (the fake's retryAfterSeconds)", waits)
				}
			} else if len(waits) != 0 {
				t.Errorf("waits = %v, want none", waits)
			}
		})
	}
}

// TestScenariosCatchABrokenServer shows that each check can fail: every case
// serves one deliberately wrong answer and names the check that must fail.
func TestScenariosCatchABrokenServer(t *testing.T) {
	invoking := func(tool string, edit func(c fakeCall, a map[string]any)) func(fakeCall, map[string]any) {
		return func(c fakeCall, a map[string]any) {
			if c.Meta == InvokeTool && c.Tool == tool {
				edit(c, a)
			}
		}
	}
	onCode := func(code string, edit func(a map[string]any)) func(fakeCall, map[string]any) {
		return func(c fakeCall, a map[string]any) {
			if c.Meta == InvokeTool && a["error"] == code {
				edit(a)
			}
		}
	}
	const stack = "NullReferenceException at Shop.Orders.Create() in /src/Shop/Orders.cs:line 7"
	tests := []struct {
		name     string
		scenario string
		mutate   func(fakeCall, map[string]any)
		wantFail string
	}{
		// any scenario: load_tool and invoke_tool themselves
		{"load_tool fails", "validation-retry", func(c fakeCall, a map[string]any) {
			if c.Meta == LoadTool {
				for k := range a {
					delete(a, k)
				}
				for k, v := range reject("unknown_tool", "No such tool.") {
					a[k] = v
				}
			}
		}, "load_tool createOrder succeeds"},
		{"schema is not an object", "validation-retry", func(c fakeCall, a map[string]any) {
			if c.Meta == LoadTool {
				a["inputSchema"] = "object"
			}
		}, "load_tool createOrder returns a readable input schema"},
		{"schema without rules", "validation-retry", func(c fakeCall, a map[string]any) {
			if c.Meta == LoadTool {
				a["inputSchema"] = map[string]any{"type": "object", "properties": map[string]any{"item": map[string]any{"type": "string"}}}
			}
		}, "the schema has rules the backend judges"},
		{"schema without a typed argument", "sdk-rejection", func(c fakeCall, a map[string]any) {
			if c.Meta == LoadTool && c.Tool == "getOrder" {
				a["inputSchema"] = map[string]any{"type": "object", "properties": map[string]any{"id": map[string]any{"type": "string"}}}
			}
		}, "the tool has a typed path argument to get wrong"},
		{"invoke_tool answers prose", "leak-check", func(c fakeCall, a map[string]any) {
			if c.Meta == InvokeTool {
				a["rawText"] = "Internal Server Error"
			}
		}, "invoke_tool answers with an envelope"},

		// validation-retry
		{"wrong code", "validation-retry", onCode("validation_failed", func(a map[string]any) { a["error"] = "bad_request" }), "error is validation_failed"},
		{"5xx for a validation failure", "validation-retry", onCode("validation_failed", func(a map[string]any) { a["status"] = 500 }), "status is 4xx"},
		{"validation failure without status", "validation-retry", onCode("validation_failed", func(a map[string]any) { delete(a, "status") }), "status is 4xx"},
		{"validation failure marked retryable", "validation-retry", onCode("validation_failed", func(a map[string]any) { a["retryable"] = true }), "retryable is false"},
		{"retryable missing", "validation-retry", onCode("validation_failed", func(a map[string]any) { delete(a, "retryable") }), "retryable is present"},
		{"fields leave out quantity", "validation-retry", onCode("validation_failed", func(a map[string]any) {
			var keep []Field
			for _, f := range fieldsOf(a) {
				if f.Name != "quantity" {
					keep = append(keep, f)
				}
			}
			a["fields"] = keep
		}), "fields name quantity"},
		{"fields use the backend's casing", "validation-retry", onCode("validation_failed", func(a map[string]any) {
			fs := fieldsOf(a)
			for i := range fs {
				fs[i].Name = strings.ToUpper(fs[i].Name[:1]) + fs[i].Name[1:]
			}
			a["fields"] = fs
		}), "fields name item"},
		{"two rules collapsed into one repeated", "validation-retry", onCode("validation_failed", func(a map[string]any) {
			fs := fieldsOf(a)
			for i := range fs {
				fs[i].Message = "invalid"
			}
			a["fields"] = fs
		}), "item keeps all 2 of its rules, each once"},
		{"one of two rules dropped", "validation-retry", onCode("validation_failed", func(a map[string]any) {
			var keep []Field
			for _, f := range fieldsOf(a) {
				if !strings.Contains(f.Message, "minimum length") {
					keep = append(keep, f)
				}
			}
			a["fields"] = keep
		}), "item, sent empty, is listed for both the rules it broke"},
		{"no fields at all", "validation-retry", onCode("validation_failed", func(a map[string]any) { delete(a, "fields") }), "a repair from fields and the schema alone"},
		{"repaired call still fails", "validation-retry", invoking("createOrder", func(_ fakeCall, a map[string]any) {
			if a["status"] == 201 {
				for k := range a {
					delete(a, k)
				}
				for k, v := range backend(409, "conflict", "Conflict.", false) {
					a[k] = v
				}
			}
		}), "status is 2xx"},
		{"isError false on an error", "validation-retry", onCode("validation_failed", func(a map[string]any) { a["isError"] = false }), "isError is set exactly when error is"},
		{"isError true on a success", "validation-retry", invoking("createOrder", func(_ fakeCall, a map[string]any) {
			if a["status"] == 201 {
				a["isError"] = true
			}
		}), "isError is set exactly when error is"},
		{"field message leaks a stack", "validation-retry", onCode("validation_failed", func(a map[string]any) {
			fs := fieldsOf(a)
			fs[0].Message = stack
			a["fields"] = fs
		}), "no leak in the envelope"},

		// sdk-rejection
		{"unknown argument with a status", "sdk-rejection", onCode("unknown_argument", func(a map[string]any) { a["status"] = 400 }), "no status (sezzlee refused, the backend was not reached)"},
		{"unknown argument passed to the backend", "sdk-rejection", onCode("unknown_argument", func(a map[string]any) {
			for k := range a {
				delete(a, k)
			}
			a["status"] = 201
		}), "error is unknown_argument"},
		{"wrong type under another code", "sdk-rejection", onCode("invalid_type", func(a map[string]any) { a["error"] = "validation_failed" }), "error is invalid_type"},
		{"path type rejection marked retryable", "sdk-rejection", onCode("invalid_path_type", func(a map[string]any) { a["retryable"] = true }), "retryable is false"},
		{"re-read schema still rejected", "sdk-rejection", invoking("getOrder", func(_ fakeCall, a map[string]any) {
			if a["status"] == 200 {
				for k, v := range reject("invalid_path_type", "Still wrong.") {
					a[k] = v
				}
				delete(a, "status")
				delete(a, "body")
			}
		}), "status is 2xx"},

		// retry-after
		{"never rate limited", "retry-after", onCode("rate_limited", func(a map[string]any) {
			for k := range a {
				delete(a, k)
			}
			a["status"] = 200
		}), "a call soon after another is rate_limited"},
		{"429 without retryAfterSeconds", "retry-after", onCode("rate_limited", func(a map[string]any) { delete(a, "retryAfterSeconds") }), "the 429 carries retryAfterSeconds"},
		{"429 marked not retryable", "retry-after", onCode("rate_limited", func(a map[string]any) { a["retryable"] = false }), "the 429 is retryable"},
		{"429 without status", "retry-after", onCode("rate_limited", func(a map[string]any) { delete(a, "status") }), "the 429 says status 429"},
		{"validation failure marked retryable", "retry-after", onCode("validation_failed", func(a map[string]any) { a["retryable"] = true }), "a retryable:false envelope is not retried"},

		// tool-changed
		{"stale version accepted", "tool-changed", func(c fakeCall, a map[string]any) {
			if a["error"] == "tool_changed" {
				for k := range a {
					delete(a, k)
				}
				a["status"] = 201
			}
		}, "error is tool_changed"},
		{"tool_changed with a status", "tool-changed", onCode("tool_changed", func(a map[string]any) { a["status"] = 409 }), "no status (sezzlee refused, the backend was not reached)"},
		{"reload without a version", "tool-changed", func(c fakeCall, a map[string]any) {
			if c.Meta == LoadTool {
				delete(a, "version")
			}
		}, "load_tool returns a version other than the stale one"},

		// response-too-large
		{"no payload", "response-too-large", onCode("response_too_large", func(a map[string]any) { delete(a, "payload") }), "payload is present"},
		{"payload under its limit", "response-too-large", onCode("response_too_large", func(a map[string]any) {
			a["payload"] = map[string]any{"bytes": 10, "limit": 65536}
		}), "payload bytes exceed its limit"},
		{"no narrowing fields", "response-too-large", onCode("response_too_large", func(a map[string]any) { delete(a, "fields") }), "fields name the narrowing arguments"},
		{"field that is no argument", "response-too-large", onCode("response_too_large", func(a map[string]any) {
			a["fields"] = append(fieldsOf(a), Field{"pageSize", "x"})
		}), "field pageSize is an argument of the tool"},
		{"no limit-like field", "response-too-large", onCode("response_too_large", func(a map[string]any) {
			a["fields"] = []Field{{"cursor", "Pages."}, {"status", "Filters."}}
		}), "fields include a limit-like integer argument"},
		{"never fits", "response-too-large", invoking("listOrders", func(_ fakeCall, a map[string]any) {
			if a["status"] == 200 {
				for k := range a {
					delete(a, k)
				}
				for k, v := range (&fakeServer{}).invoke("listOrders", nil, "") {
					a[k] = v
				}
			}
		}), "status is 2xx"},
		{"too large with a status", "response-too-large", onCode("response_too_large", func(a map[string]any) { a["status"] = 200 }), "no status (sezzlee refused, the backend was not reached)"},

		// leak-check
		{"stack frame", "leak-check", onCode("backend_error", func(a map[string]any) { a["message"] = "Failed.\n   at Shop.Invoices.Render(Order o)" }), "no message holds a stack frame"},
		{"exception type", "leak-check", onCode("backend_error", func(a map[string]any) { a["message"] = "System.InvalidOperationException: template missing" }), "no message holds"},
		{"file path", "leak-check", onCode("backend_error", func(a map[string]any) { a["message"] = "cannot open /var/app/templates/invoice.tmpl" }), "no message holds"},
		{"connection string", "leak-check", onCode("backend_error", func(a map[string]any) { a["message"] = "db down: postgres://app:pw@db:5432/shop" }), "no message holds"},
		{"credential in reference", "leak-check", onCode("backend_error", func(a map[string]any) {
			a["reference"] = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlMTIz"
		}), "no message holds"},
		{"internal error without status", "leak-check", onCode("backend_error", func(a map[string]any) { delete(a, "status") }), "status is 5xx (the backend answered)"},
		{"internal error as success", "leak-check", onCode("backend_error", func(a map[string]any) {
			for k := range a {
				delete(a, k)
			}
			a["status"] = 200
		}), "the backend's internal error is an error envelope"},
	}
	for _, tt := range tests {
		t.Run(tt.scenario+"/"+tt.name, func(t *testing.T) {
			s, ok := FindScenario(tt.scenario)
			if !ok {
				t.Fatalf("no scenario %q", tt.scenario)
			}
			var out bytes.Buffer
			var waits []time.Duration
			cs := (&fakeServer{mutate: tt.mutate}).connect(t)
			rep := s.Run(context.Background(), cs, &Options{Out: &out, Sleep: noSleep(&waits)})
			if rep.OK() {
				t.Fatalf("scenario passed against a broken server; report:\n%s", out.String())
			}
			failed := rep.FailedChecks()
			for _, f := range failed {
				if strings.HasPrefix(f, tt.wantFail) {
					return
				}
			}
			t.Errorf("failed checks %q, want one starting %q; report:\n%s", failed, tt.wantFail, out.String())
		})
	}
}

func TestScenarioPanicIsAFailedCheck(t *testing.T) {
	s := Scenario{Name: "boom", Summary: "panics", run: func(r *run) {
		r.check("first", true, "")
		var m map[string]int
		m["x"] = 1
	}}
	var out bytes.Buffer
	rep := s.Run(context.Background(), nil, &Options{Out: &out})
	if rep.OK() || rep.Failed != 1 || rep.FailedChecks()[0] != "the scenario runs to its end" {
		t.Errorf("report = %+v, want one failed check for the panic; output:\n%s", rep, out.String())
	}
}
