package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
)

// Options configures a scenario run. A nil *Options and the zero value are
// usable; each field says what its zero value means. The tool names default
// to the demo API's operations; against another server, set Tool to any tool
// whose input schema has constraints and run validation-retry.
type Options struct {
	// Tool is the tool validation-retry, sdk-rejection and tool-changed
	// call. Empty means "createOrder".
	Tool string
	// PathTool is a tool with an integer path parameter, for sdk-rejection's
	// wrong path type. Empty means "getOrder".
	PathTool string
	// RateTool is a rate-limited tool, for retry-after. Empty means
	// "getOrderStats".
	RateTool string
	// ListTool is a tool whose default answer is too large, for
	// response-too-large. Empty means "listOrders".
	ListTool string
	// FailTool is a tool whose backend fails with an internal error, for
	// leak-check. Empty means "getOrderInvoice".
	FailTool string
	// Out receives the report as the run goes. Nil discards it.
	Out io.Writer
	// MaxWait bounds a wait a retryable envelope asks for. Zero means
	// DefaultMaxWait.
	MaxWait time.Duration
	// Sleep waits d or until ctx ends. Nil means Sleep, a real timer.
	Sleep func(ctx context.Context, d time.Duration) error
}

// defaultTool is the demo API's tool whose schema has every kind of rule.
const defaultTool = "createOrder"

func (o *Options) withDefaults() Options {
	var out Options
	if o != nil {
		out = *o
	}
	def := func(s *string, v string) {
		if *s == "" {
			*s = v
		}
	}
	def(&out.Tool, defaultTool)
	def(&out.PathTool, "getOrder")
	def(&out.RateTool, "getOrderStats")
	def(&out.ListTool, "listOrders")
	def(&out.FailTool, "getOrderInvoice")
	if out.Out == nil {
		out.Out = io.Discard
	}
	if out.MaxWait <= 0 {
		out.MaxWait = DefaultMaxWait
	}
	if out.Sleep == nil {
		out.Sleep = Sleep
	}
	return out
}

// Scenario is one named exercise of the agent's side of the loop.
type Scenario struct {
	// Name is what --scenario selects.
	Name string
	// Summary says in one line what the scenario proves.
	Summary string

	run func(r *run)
}

// Scenarios returns every scenario, in the order `--scenario all` runs them.
func Scenarios() []Scenario {
	return []Scenario{
		{"validation-retry", "invalid arguments from the schema get validation_failed; a repair from fields succeeds", validationRetry},
		{"sdk-rejection", "unknown argument, wrong type, wrong path type come back without status; a re-read schema fixes them", sdkRejection},
		{"retry-after", "a 429 is retried after retryAfterSeconds; a retryable:false envelope is never retried", retryAfter},
		{"tool-changed", "a call pinned to a stale version gets tool_changed; a reload and retry succeed", toolChanged},
		{"response-too-large", "an oversized answer names its narrowing arguments; halving them makes it fit", responseTooLarge},
		{"leak-check", "a backend's internal error reaches the agent with no stack, path, connection string or secret", leakCheck},
	}
}

// FindScenario returns the scenario with the given name.
func FindScenario(name string) (Scenario, bool) {
	for _, s := range Scenarios() {
		if s.Name == name {
			return s, true
		}
	}
	return Scenario{}, false
}

// Report is the outcome of one scenario run.
type Report struct {
	// Scenario is the scenario's name.
	Scenario string
	// Steps are the calls made, in order, with their checks.
	Steps []*Step
	// Passed and Failed count the checks.
	Passed, Failed int
}

// OK reports whether every check held and at least one was made.
func (r *Report) OK() bool { return r.Failed == 0 && r.Passed > 0 }

// FailedChecks returns the names of the checks that failed.
func (r *Report) FailedChecks() []string {
	var out []string
	for _, s := range r.Steps {
		for _, c := range s.Checks {
			if !c.OK {
				out = append(out, c.Name)
			}
		}
	}
	return out
}

// Step is one meta-tool call and what was checked about its answer. A step
// with an empty Call holds checks made without a call.
type Step struct {
	// Call is the meta-tool and its JSON arguments.
	Call string
	// Result is the result's JSON text; IsError is its isError flag.
	Result  string
	IsError bool
	// Checks are the assertions made about the answer.
	Checks []Check
}

// Check is one assertion.
type Check struct {
	// Name says what was expected, in words.
	Name string
	// OK reports whether it held.
	OK bool
	// Detail says what was seen instead, when it did not hold.
	Detail string
}

// Run runs the scenario against a sezzlee server reached through c and
// returns its report. It writes the report to opts.Out as it goes.
func (s Scenario) Run(ctx context.Context, c Caller, opts *Options) *Report {
	o := opts.withDefaults()
	r := &run{ctx: ctx, client: NewClient(c), opts: o, report: &Report{Scenario: s.Name}}
	fmt.Fprintf(o.Out, "=== %s: %s\n", s.Name, s.Summary)
	func() {
		// A server's answer the scenario did not foresee must end in a
		// failed check, not in a crash of the client.
		defer func() {
			if p := recover(); p != nil {
				r.check("the scenario runs to its end", false, "it stopped: %v", p)
			}
		}()
		s.run(r)
	}()
	verdict := "PASS"
	if !r.report.OK() {
		verdict = "FAIL"
	}
	fmt.Fprintf(o.Out, "=== %s: %s (%d passed, %d failed)\n\n", s.Name, verdict, r.report.Passed, r.report.Failed)
	return r.report
}

// run is the state of one scenario run.
type run struct {
	ctx    context.Context
	client *Client
	opts   Options
	report *Report
	step   *Step
}

// maxShown bounds how much of a result the report prints.
const maxShown = 400

func (r *run) begin(call string) {
	r.step = &Step{Call: call}
	r.report.Steps = append(r.report.Steps, r.step)
	fmt.Fprintf(r.opts.Out, "--> %s\n", call)
}

func (r *run) answered(text string, isError bool) {
	r.step.Result, r.step.IsError = text, isError
	flag := ""
	if isError {
		flag = " (isError)"
	}
	shown := text
	if len(shown) > maxShown {
		shown = shown[:maxShown] + fmt.Sprintf("… (%d bytes)", len(text))
	}
	fmt.Fprintf(r.opts.Out, "<-- %s%s\n", shown, flag)
}

// note prints a line of narrative: what the client decided and why.
func (r *run) note(format string, args ...any) {
	fmt.Fprintf(r.opts.Out, "    %s\n", fmt.Sprintf(format, args...))
}

// check records an assertion and reports whether it held.
func (r *run) check(name string, ok bool, detail string, args ...any) bool {
	if r.step == nil {
		r.begin("(no call)")
	}
	c := Check{Name: name, OK: ok}
	if !ok && detail != "" {
		c.Detail = fmt.Sprintf(detail, args...)
	}
	r.step.Checks = append(r.step.Checks, c)
	if ok {
		r.report.Passed++
		fmt.Fprintf(r.opts.Out, "    PASS %s\n", name)
	} else {
		r.report.Failed++
		fmt.Fprintf(r.opts.Out, "    FAIL %s: %s\n", name, c.Detail)
	}
	return ok
}

func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// load calls load_tool; it records a failed check and returns nil when the
// tool cannot be loaded or its schema cannot be read.
func (r *run) load(name string) (*Tool, *Schema) {
	r.begin(LoadTool + " " + compact(map[string]any{"name": name}))
	t, err := r.client.Load(r.ctx, name)
	if err != nil {
		if te, ok := err.(*ToolError); ok {
			r.answered(string(te.Envelope.Raw), true)
		}
		r.check("load_tool "+name+" succeeds", false, "%v", err)
		return nil, nil
	}
	s, err := t.Schema()
	if !r.check("load_tool "+name+" returns a readable input schema", err == nil, "%v", err) {
		return nil, nil
	}
	r.note("version %s; arguments %s; required %s", t.Version, strings.Join(s.Names(), ", "), strings.Join(s.Required, ", "))
	return t, s
}

// invoke calls invoke_tool and makes the checks every envelope must pass:
// isError agrees with the error code, an error carries retryable, and no
// text leaks. It returns nil, after a failed check, when no envelope came.
func (r *run) invoke(in Invocation) *Envelope {
	r.begin(InvokeTool + " " + compact(in))
	e, err := r.client.Invoke(r.ctx, in)
	if err != nil {
		r.check("invoke_tool answers with an envelope", false, "%v", err)
		return nil
	}
	r.answered(string(e.Raw), e.IsError)
	r.check("isError is set exactly when error is", e.IsError == e.Failed(), "isError %v with error %q", e.IsError, e.Code)
	if e.Failed() {
		r.check("retryable is present", e.Retryable != nil, "the envelope has no retryable")
	}
	leaks := e.Leaks()
	r.check("no leak in the envelope", len(leaks) == 0, "%s", strings.Join(leaks, "; "))
	return e
}

// Common expectations, each one check.

func (r *run) expectCode(e *Envelope, code string) bool {
	return r.check("error is "+code, e.Code == code, "got %q", e.Code)
}

func (r *run) expectSuccess(e *Envelope) bool {
	s := e.StatusCode()
	return r.check("status is 2xx", s >= 200 && s < 300 && !e.Failed(), "got status %s, error %q", statusText(e), e.Code)
}

func (r *run) expectSDKSide(e *Envelope) bool {
	return r.check("no status (sezzlee refused, the backend was not reached)", e.IsSDKSide(), "got status %d", e.StatusCode())
}

func (r *run) expectNotRetryable(e *Envelope) bool {
	return r.check("retryable is false", e.Retryable != nil && !*e.Retryable, "got %s", boolText(e.Retryable))
}

func statusText(e *Envelope) string {
	if e.Status == nil {
		return "none"
	}
	return fmt.Sprint(*e.Status)
}

func boolText(b *bool) string {
	if b == nil {
		return "none"
	}
	return fmt.Sprint(*b)
}
