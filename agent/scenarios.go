package agent

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"
)

// pathParams returns the {names} in a path template.
func pathParams(path string) map[string]bool {
	out := map[string]bool{}
	for _, m := range pathParamRE.FindAllStringSubmatch(path, -1) {
		out[m[1]] = true
	}
	return out
}

var pathParamRE = regexp.MustCompile(`\{([^{}/]+)\}`)

// breakage is one set of invalid arguments and what was broken in it.
type breakage struct {
	args   map[string]any
	broken []string          // argument names, sorted
	how    map[string]string // name -> what was done to it
}

// breakArgs builds invalid arguments from a loaded schema, using only rules
// the backend judges (presence of a body property, string length, numeric
// range). sezzlee itself checks names and types; breaking those would be
// answered without status and prove nothing about the backend. Path
// parameters keep valid values, since they address the resource.
//
// It returns up to two cases: one with a required property missing, and one
// with every length- or range-constrained argument out of bounds. Between
// them they break each kind of rule the schema offers, even when, as in the
// demo's createOrder, every required property also has a value rule.
func breakArgs(s *Schema, path map[string]bool) []breakage {
	valid := s.ValidArgs()
	var missing string
	for _, n := range s.Required {
		if _, ok := s.Properties[n]; ok && !path[n] {
			missing = n
			break
		}
	}
	var out []breakage
	if missing != "" {
		b := breakage{args: copyArgs(valid), how: map[string]string{}}
		delete(b.args, missing)
		b.how[missing] = "required, left out"
		for _, n := range s.Names() {
			if n == missing || path[n] {
				continue
			}
			if v, how, ok := breakValue(s.Properties[n], true); ok {
				b.args[n], b.how[n] = v, how
			}
		}
		out = append(out, b.done())
	}
	b := breakage{args: copyArgs(valid), how: map[string]string{}}
	for _, n := range s.Names() {
		if path[n] {
			continue
		}
		if v, how, ok := breakValue(s.Properties[n], false); ok {
			b.args[n], b.how[n] = v, how
		}
	}
	if len(b.how) > 0 {
		out = append(out, b.done())
	}
	return out
}

func (b breakage) done() breakage {
	for n := range b.how {
		b.broken = append(b.broken, n)
	}
	sort.Strings(b.broken)
	return b
}

// breakValue returns a value of the right type that breaks one of the
// property's length or range rules. high prefers the upper bound.
func breakValue(p *Property, high bool) (any, string, bool) {
	switch p.mainType() {
	case "string":
		if len(p.Enum) > 0 || p.HasConst {
			return nil, "", false
		}
		if p.MinLength != nil && *p.MinLength > 0 && (!high || p.MaxLength == nil) {
			return strings.Repeat("x", *p.MinLength-1), fmt.Sprintf("shorter than minLength %d", *p.MinLength), true
		}
		if p.MaxLength != nil && *p.MaxLength < 1<<16 {
			return strings.Repeat("x", *p.MaxLength+1), fmt.Sprintf("longer than maxLength %d", *p.MaxLength), true
		}
	case "integer", "number":
		step := 1.0
		if p.mainType() == "number" {
			step = 0.5
		}
		over := func() (any, string, bool) {
			return num(p, *p.Maximum+step), fmt.Sprintf("above maximum %v", *p.Maximum), true
		}
		under := func() (any, string, bool) {
			return num(p, *p.Minimum-step), fmt.Sprintf("below minimum %v", *p.Minimum), true
		}
		switch {
		case high && p.Maximum != nil:
			return over()
		case p.Minimum != nil:
			return under()
		case p.Maximum != nil:
			return over()
		}
	}
	return nil, "", false
}

func num(p *Property, f float64) any {
	if p.mainType() == "integer" {
		return int(f)
	}
	return f
}

func validationRetry(r *run) {
	t, s := r.load(r.opts.Tool)
	if t == nil {
		return
	}
	cases := breakArgs(s, pathParams(t.Path))
	if !r.check("the schema has rules the backend judges", len(cases) > 0, "%s has no required body property, length or range to break", t.Name) {
		return
	}
	for _, c := range cases {
		var hows []string
		for _, n := range c.broken {
			hows = append(hows, n+": "+c.how[n])
		}
		r.note("breaking %s", strings.Join(hows, "; "))
		e := r.invoke(Invocation{Name: t.Name, Arguments: c.args, Version: t.Version})
		if e == nil {
			return
		}
		r.expectCode(e, CodeValidationFailed)
		s4 := e.StatusCode()
		r.check("status is 4xx", s4 >= 400 && s4 < 500, "got %s", statusText(e))
		r.expectNotRetryable(e)
		for _, n := range c.broken {
			r.check("fields name "+n, len(e.FieldsFor(n)) > 0, "fields name %v", e.FieldNames())
		}
		for _, n := range e.FieldNames() {
			if msgs := e.FieldsFor(n); len(msgs) > 1 {
				r.check(fmt.Sprintf("%s keeps all %d of its rules, each once", n, len(msgs)), distinct(msgs), "repeated message in %q", msgs)
			}
		}
		if r.opts.Tool == defaultTool {
			// The demo's backend judges an empty required string twice
			// (presence and minimum length), as ASP.NET Core's data
			// annotations do; both rules must reach the agent.
			for _, n := range c.broken {
				if p := s.Properties[n]; c.args[n] == "" && s.IsRequired(n) && p.MinLength != nil {
					r.check(n+", sent empty, is listed for both the rules it broke", len(e.FieldsFor(n)) == 2, "listed %d times", len(e.FieldsFor(n)))
				}
			}
		}
		fixed, err := s.Repair(c.args, e.Fields)
		if !r.check("a repair from fields and the schema alone", err == nil, "%v", err) {
			continue
		}
		r.note("repaired from fields %v", e.FieldNames())
		if e2 := r.invoke(Invocation{Name: t.Name, Arguments: fixed, Version: t.Version}); e2 != nil {
			r.expectSuccess(e2)
		}
	}
}

func distinct(msgs []string) bool {
	seen := map[string]bool{}
	for _, m := range msgs {
		if seen[m] {
			return false
		}
		seen[m] = true
	}
	return true
}

func sdkRejection(r *run) {
	t, s := r.load(r.opts.Tool)
	if t == nil {
		return
	}
	bogus := s.ValidArgs()
	bogus["bogus_argument"] = "x"
	r.rejectThenConform(t.Name, bogus, CodeUnknownArgument)

	r.rejectWrongType(t, s, false, CodeInvalidType)
	if pt, ps := r.load(r.opts.PathTool); pt != nil {
		r.rejectWrongType(pt, ps, true, CodeInvalidPathType)
	}
}

// rejectWrongType gives one argument (a path parameter when inPath) a value
// of the wrong type and expects code, then a successful re-read.
func (r *run) rejectWrongType(t *Tool, s *Schema, inPath bool, code string) {
	n, wrong, ok := wrongType(s, pathParams(t.Path), inPath)
	where := "body or query"
	if inPath {
		where = "path"
	}
	if !r.check("the tool has a typed "+where+" argument to get wrong", ok, "%s has none", t.Name) {
		return
	}
	args := s.ValidArgs()
	args[n] = wrong
	r.note("giving %s argument %s a value of the wrong type", where, n)
	r.rejectThenConform(t.Name, args, code)
}

// wrongType picks an argument (a path parameter when inPath) whose type is
// not string, and a string value for it.
func wrongType(s *Schema, path map[string]bool, inPath bool) (string, any, bool) {
	for _, n := range s.Names() {
		if path[n] != inPath {
			continue
		}
		switch s.Properties[n].mainType() {
		case "integer", "number", "boolean":
			return n, "wrong-type", true
		}
	}
	return "", nil, false
}

// rejectThenConform sends args, expects an SDK-side rejection with code,
// then re-reads the schema with load_tool, conforms the arguments to it and
// expects a success.
func (r *run) rejectThenConform(name string, args map[string]any, code string) {
	e := r.invoke(Invocation{Name: name, Arguments: args})
	if e == nil {
		return
	}
	r.expectCode(e, code)
	r.expectSDKSide(e)
	r.expectNotRetryable(e)
	_, s := r.load(name)
	if s == nil {
		return
	}
	fixed, changes := s.Conform(args)
	r.note("re-read the schema: %s", strings.Join(changes, "; "))
	if e2 := r.invoke(Invocation{Name: name, Arguments: fixed}); e2 != nil {
		r.expectSuccess(e2)
	}
}

func retryAfter(r *run) {
	t, s := r.load(r.opts.RateTool)
	if t == nil {
		return
	}
	args := s.ValidArgs()
	call := func(ctx context.Context) (*Envelope, error) {
		if e := r.invoke(Invocation{Name: t.Name, Arguments: args}); e != nil {
			return e, nil
		}
		return nil, fmt.Errorf("no envelope")
	}
	var waits []time.Duration
	policy := RetryPolicy{MaxAttempts: 4, MaxWait: r.opts.MaxWait, Sleep: func(ctx context.Context, d time.Duration) error {
		waits = append(waits, d)
		r.note("waiting %v before the next attempt", d)
		return r.opts.Sleep(ctx, d)
	}}
	// A first call spends the allowance, so the policy's first call meets
	// the limit. A slow machine may let the window pass between the two;
	// then the pair is tried again, up to three times.
	var (
		seen    []*Envelope
		limited *Envelope
		e       *Envelope
		n       int
	)
	for round := 0; round < 3 && limited == nil; round++ {
		if _, err := call(r.ctx); err != nil {
			return
		}
		waits, seen = nil, nil
		var err error
		e, n, err = policy.Do(r.ctx, func(ctx context.Context) (*Envelope, error) {
			e, err := call(ctx)
			if e != nil {
				seen = append(seen, e)
			}
			return e, err
		})
		if err != nil {
			return
		}
		for _, x := range seen {
			if x.Code == CodeRateLimited {
				limited = x
				break
			}
		}
	}
	if r.check("a call soon after another is rate_limited", limited != nil, "no rate_limited envelope in %d calls", n) {
		r.check("the 429 says status 429", limited.StatusCode() == 429, "got %s", statusText(limited))
		r.check("the 429 is retryable", limited.CanRetry(), "got retryable %s", boolText(limited.Retryable))
		ra := limited.RetryAfterSeconds
		r.check("the 429 carries retryAfterSeconds", ra != nil && *ra > 0, "got %v", ra)
		if ra != nil && len(waits) > 0 {
			want := min(time.Duration(*ra)*time.Second, r.opts.MaxWait)
			r.check("the client waited what it was asked, within its bound", waits[0] == want, "waited %v, want %v", waits[0], want)
		}
	}
	onlyRetryable := len(waits) == len(seen)-1
	for _, x := range seen[:len(seen)-1] {
		onlyRetryable = onlyRetryable && x.CanRetry()
	}
	r.check("the client waited and retried only after retryable envelopes", onlyRetryable, "%d waits over %d calls", len(waits), len(seen))
	r.expectSuccess(e)

	// A retryable:false envelope is never replayed.
	ct, cs := r.load(r.opts.Tool)
	if ct == nil {
		return
	}
	cases := breakArgs(cs, pathParams(ct.Path))
	if len(cases) == 0 {
		r.check("the schema has rules to break", false, "%s has none", ct.Name)
		return
	}
	waits = nil
	e, n, err := policy.Do(r.ctx, func(ctx context.Context) (*Envelope, error) {
		if e := r.invoke(Invocation{Name: ct.Name, Arguments: cases[0].args}); e != nil {
			return e, nil
		}
		return nil, fmt.Errorf("no envelope")
	})
	if err != nil {
		return
	}
	r.expectNotRetryable(e)
	r.check("a retryable:false envelope is not retried", n == 1 && len(waits) == 0, "%d calls, %d waits", n, len(waits))
}

// staleVersion changes one character of a version.
func staleVersion(v string) string {
	if v == "" {
		return "stale"
	}
	b := []byte(v)
	if b[len(b)-1] == '0' {
		b[len(b)-1] = '1'
	} else {
		b[len(b)-1] = '0'
	}
	return string(b)
}

func toolChanged(r *run) {
	t, s := r.load(r.opts.Tool)
	if t == nil {
		return
	}
	args := s.ValidArgs()
	stale := staleVersion(t.Version)
	r.note("pinning version %s instead of the loaded %s", stale, t.Version)
	e := r.invoke(Invocation{Name: t.Name, Arguments: args, Version: stale})
	if e == nil {
		return
	}
	r.expectCode(e, CodeToolChanged)
	r.expectSDKSide(e)
	r.expectNotRetryable(e)
	fresh, fs := r.load(t.Name)
	if fresh == nil {
		return
	}
	r.check("load_tool returns a version other than the stale one", fresh.Version != stale && fresh.Version != "", "got %q", fresh.Version)
	if e2 := r.invoke(Invocation{Name: fresh.Name, Arguments: fs.ValidArgs(), Version: fresh.Version}); e2 != nil {
		r.expectSuccess(e2)
	}
}

var limitLike = regexp.MustCompile(`(?i)limit|size|per_?page|count|top|max|first|last|take`)

func responseTooLarge(r *run) {
	t, s := r.load(r.opts.ListTool)
	if t == nil {
		return
	}
	args := s.ValidArgs()
	e := r.invoke(Invocation{Name: t.Name, Arguments: args})
	if e == nil {
		return
	}
	if !r.expectCode(e, CodeResponseTooLarge) {
		return
	}
	r.expectSDKSide(e)
	r.expectNotRetryable(e)
	if r.check("payload is present", e.Payload != nil, "no payload block") {
		r.check("payload bytes exceed its limit", e.Payload.Bytes > e.Payload.Limit && e.Payload.Limit > 0, "bytes %d, limit %d", e.Payload.Bytes, e.Payload.Limit)
	}
	names := e.FieldNames()
	r.check("fields name the narrowing arguments", len(names) > 0, "no fields")
	for _, n := range names {
		_, ok := s.Properties[n]
		r.check("field "+n+" is an argument of the tool", ok, "not in the input schema")
	}
	// Halve a limit-like argument until the answer fits.
	var narrow string
	for _, n := range names {
		if p, ok := s.Properties[n]; ok && p.mainType() == "integer" && limitLike.MatchString(n) {
			narrow = n
			break
		}
	}
	if !r.check("fields include a limit-like integer argument", narrow != "", "fields %v", names) {
		return
	}
	p := s.Properties[narrow]
	cur := 0.0
	if f, ok := number(args[narrow]); ok {
		cur = f
	} else if f, ok := number(p.Default); ok {
		cur = f
	} else if p.Maximum != nil {
		cur = *p.Maximum
	} else {
		cur = 1000
	}
	for range 12 {
		next := p.clamp(float64(int(cur / 2)))
		if next >= cur {
			break
		}
		cur = next
		args[narrow] = int(cur)
		r.note("narrowing: %s = %d", narrow, int(cur))
		e = r.invoke(Invocation{Name: t.Name, Arguments: args})
		if e == nil || e.Code != CodeResponseTooLarge {
			break
		}
	}
	if e != nil {
		r.expectSuccess(e)
	}
}

// leakSample is a backend failure text any leak detector must flag: the
// scenario proves its own detector works before trusting a clean verdict.
const leakSample = `System.InvalidOperationException: boom
   at Shop.Invoices.Render() in /src/Shop/Invoices.cs:line 12
Server=tcp:db.internal,1433;Database=Shop;User Id=app;Password=Hunter2x9;`

func leakCheck(r *run) {
	found := CheckNoLeak(leakSample)
	kinds := map[string]bool{}
	for _, f := range found {
		kinds[f[:strings.Index(f, " (")]] = true
	}
	r.begin("(self-test of the leak detector on a sample backend failure)")
	for _, k := range []string{"stack frame", "exception type", "file path", "connection string", "credential", "internal address"} {
		r.check("the detector catches the sample's "+k, kinds[k], "found %v", found)
	}
	t, s := r.load(r.opts.FailTool)
	if t == nil {
		return
	}
	e := r.invoke(Invocation{Name: t.Name, Arguments: s.ValidArgs()})
	if e == nil {
		return
	}
	r.check("the backend's internal error is an error envelope", e.Failed(), "got success")
	r.check("status is 5xx (the backend answered)", e.StatusCode() >= 500, "got %s", statusText(e))
	texts := []string{e.Message, e.Reference}
	for _, f := range e.Fields {
		texts = append(texts, f.Message)
	}
	var leaks []string
	for _, x := range texts {
		leaks = append(leaks, CheckNoLeak(x)...)
	}
	r.check("no message holds a stack frame, exception type, file path, connection string, credential or internal address", len(leaks) == 0, "%s", strings.Join(leaks, "; "))
}
