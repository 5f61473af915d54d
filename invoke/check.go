package invoke

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/sezzlee/sezzlee/catalog"
	"github.com/sezzlee/sezzlee/envelope"
)

// precedence orders the codes found before dispatch. When a call breaks
// several rules, the envelope's code is the first of this list that occurs,
// and fields still lists every violation. Naming problems come first (an
// agent fixing them often fixes the rest), then types, then what only the
// values themselves can break, then what the host supplies, then files.
var precedence = []envelope.Code{
	envelope.UnknownArgument,
	envelope.MissingPathParameter,
	envelope.InvalidPathType,
	envelope.NullNotAllowed,
	envelope.InvalidType,
	envelope.HeaderInjection,
	envelope.InvalidCookieValue,
	envelope.CookieCarrierCollision,
	envelope.DeferredValueMissing,
	envelope.DeferredValueInvalid,
	envelope.InvalidFileArgument,
	envelope.FileTooLarge,
	envelope.FileUnresolved,
}

// violation is one broken rule, found before dispatch.
type violation struct {
	code envelope.Code
	name string // the argument's name
	msg  string
	// retryable marks a file_unresolved whose store was unavailable.
	retryable bool
}

func (b *builder) fail(code envelope.Code, name, format string, a ...any) {
	v := violation{code: code, name: name, msg: fmt.Sprintf(format, a...)}
	for _, o := range b.violations {
		if o.code == v.code && o.name == v.name && o.msg == v.msg {
			return
		}
	}
	b.violations = append(b.violations, v)
	if b.bad == nil {
		b.bad = make(map[string]bool)
	}
	b.bad[name] = true
}

// envelope turns the violations into one error envelope.
func (b *builder) envelope() *envelope.Envelope {
	rank := func(c envelope.Code) int {
		for i, p := range precedence {
			if p == c {
				return i
			}
		}
		return len(precedence)
	}
	// Fields are ordered by precedence, then by argument name, so the same
	// call always reads the same.
	sort.SliceStable(b.violations, func(i, j int) bool {
		ri, rj := rank(b.violations[i].code), rank(b.violations[j].code)
		if ri != rj {
			return ri < rj
		}
		return b.violations[i].name < b.violations[j].name
	})
	first := b.violations[0]
	fields := make([]envelope.Field, len(b.violations))
	var unknown []string
	retryable := first.code == envelope.FileUnresolved
	for i, v := range b.violations {
		fields[i] = envelope.Field{Name: v.name, Message: v.msg}
		if v.code == envelope.UnknownArgument {
			unknown = append(unknown, v.name)
		}
		if v.code == envelope.FileUnresolved && !v.retryable {
			retryable = false
		}
	}
	msg := first.msg
	if first.code == envelope.UnknownArgument {
		msg = fmt.Sprintf("Unknown argument(s): %s. Allowed: %s.", strings.Join(unknown, ", "), b.plan.allowed)
	}
	if len(b.violations) > 1 && len(unknown) < len(b.violations) {
		msg += " Every problem with this call is listed in fields; fix them all before calling again."
	}
	if retryable {
		e := envelope.Retry(first.code, msg, true)
		e.Fields = fields
		return e
	}
	return envelope.Reject(first.code, msg, fields)
}

// decodeArguments decodes the agent's arguments exactly: a JSON object whose
// numbers stay json.Number, so an integer is never rounded through float64.
func decodeArguments(raw json.RawMessage) (map[string]any, *envelope.Envelope) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return map[string]any{}, nil
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var args map[string]any
	bad := func() *envelope.Envelope {
		return envelope.Reject(envelope.InvalidType, "The arguments must be one JSON object, with one member per argument.", nil)
	}
	if raw[0] != '{' {
		return nil, bad()
	}
	if err := d.Decode(&args); err != nil {
		return nil, bad()
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return nil, bad()
	}
	if args == nil {
		args = map[string]any{}
	}
	return args, nil
}

// checkNames reports unknown arguments, in name order.
func (b *builder) checkNames() {
	var unknown []string
	for name := range b.args {
		if b.plan.args[name] == nil {
			unknown = append(unknown, name)
		}
	}
	sort.Strings(unknown)
	for _, name := range unknown {
		name = shownName(name)
		b.fail(envelope.UnknownArgument, name, "'%s' is not an argument of this tool. Allowed: %s.", name, b.plan.allowed)
	}
}

// shownName is how an unknown argument's name is echoed to the agent: an
// empty name is written "" (an envelope field always has a name), and a
// name longer than 64 bytes is cut there, so an agent cannot make an
// envelope carry an arbitrarily long key back.
func shownName(name string) string {
	switch {
	case name == "":
		return `""`
	case len(name) > 64:
		cut := 64
		for cut > 0 && !utf8.RuneStart(name[cut]) {
			cut--
		}
		return name[:cut] + "…"
	}
	return name
}

// checkTypes validates the arguments against the reduced schema and reports
// every type, null and missing-path violation.
func (b *builder) checkTypes() {
	for i := range b.tool.Binding.Args {
		ab := &b.tool.Binding.Args[i]
		if ab.In != catalog.InPath || ab.Deferred {
			continue
		}
		v, ok := b.args[ab.Name]
		if (!ok && b.plan.schema == nil) || v == "" {
			b.fail(envelope.MissingPathParameter, ab.Name, "Path parameter '%s' is required and must not be empty.", ab.Name)
		}
	}
	if b.plan.schema == nil || b.plainlyTyped() {
		return
	}
	err := b.plan.schema.Validate(b.args)
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return
	}
	b.leaves(ve)
}

func (b *builder) leaves(e *jsonschema.ValidationError) {
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			b.leaves(c)
		}
		return
	}
	if len(e.InstanceLocation) == 0 {
		if r, ok := e.ErrorKind.(*kind.Required); ok {
			for _, name := range r.Missing {
				b.fail(envelope.MissingPathParameter, name, "Path parameter '%s' is required and must not be empty.", name)
			}
		}
		return
	}
	name := e.InstanceLocation[0]
	where := ""
	if len(e.InstanceLocation) > 1 {
		where = " at /" + strings.Join(e.InstanceLocation[1:], "/")
	}
	ab := b.plan.args[name]
	if ab == nil {
		return
	}
	switch k := e.ErrorKind.(type) {
	case *kind.Type:
		want := strings.Join(k.Want, " or ")
		switch {
		case k.Got == "null":
			b.fail(envelope.NullNotAllowed, name, "Argument '%s'%s must not be null: omit it or pass a value of type %s.", name, where, want)
		case ab.In == catalog.InPath && where == "":
			b.fail(envelope.InvalidPathType, name, "Argument '%s' must be of type %s.", name, want)
		default:
			b.fail(envelope.InvalidType, name, "Argument '%s'%s must be of type %s, not %s.", name, where, want, k.Got)
		}
	case *kind.FalseSchema:
		b.fail(envelope.InvalidType, name, "Argument '%s'%s is not allowed.", name, where)
	}
}

// plainlyTyped reports that the validator has nothing to find: every path
// parameter is present and every argument is a scalar, or an array of
// scalars, of its decided type. It is a shortcut for the common call; any
// doubt goes to the validator, which decides.
func (b *builder) plainlyTyped() bool {
	for _, ab := range b.plan.args {
		v, ok := b.args[ab.Name]
		if !ok {
			if ab.In == catalog.InPath {
				return false
			}
			continue
		}
		if ab.File || ab.Type == "" {
			if ab.File {
				continue
			}
			return false
		}
		if list, ok := v.([]any); ok && ab.Type == "array" {
			if ab.ItemsType == "" {
				return false
			}
			for _, it := range list {
				if !scalarOf(it, ab.ItemsType) {
					return false
				}
			}
			continue
		}
		if !scalarOf(v, ab.Type) {
			return false
		}
	}
	return true
}

// scalarOf reports that v is a non-null scalar of JSON type typ.
func scalarOf(v any, typ string) bool {
	switch x := v.(type) {
	case string:
		return typ == "string"
	case bool:
		return typ == "boolean"
	case json.Number:
		if typ == "number" {
			return true
		}
		if typ != "integer" {
			return false
		}
		for i := 0; i < len(x); i++ {
			if c := x[i]; (c < '0' || c > '9') && !(i == 0 && c == '-') {
				return false
			}
		}
		return true
	}
	return false
}
