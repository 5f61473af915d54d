package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"
)

// Schema is the part of a loaded tool's input schema that repairs need: the
// top-level properties, what each allows, and which are required. sezzlee's
// input schemas are flat (one property per argument), so nested schemas are
// only consulted to build a value, never to repair inside one.
type Schema struct {
	// Properties are the arguments, by name.
	Properties map[string]*Property
	// Required lists the arguments that must be present.
	Required []string
}

// Property is what one argument's schema allows, as far as repairs need
// it. A nil pointer means the keyword is absent.
type Property struct {
	// Types are the allowed JSON types ("string", "integer", ...); empty
	// means any.
	Types []string
	// Enum lists the allowed values; empty means any.
	Enum []any
	// Const is the one allowed value when HasConst is set.
	Const    any
	HasConst bool
	// Default and Examples are the schema's suggestions; Valid uses them
	// when they satisfy the rest of the schema.
	Default  any
	Examples []any
	// Format is the string format ("email", "date", ...).
	Format string
	// Pattern is the string pattern; it is honoured on a best-effort basis.
	Pattern string
	// MinLength and MaxLength bound a string's length in characters.
	MinLength *int
	MaxLength *int
	// Minimum and Maximum are inclusive numeric bounds.
	Minimum *float64
	Maximum *float64
	// ExclusiveMinimum and ExclusiveMaximum are exclusive numeric bounds,
	// from either the 2020-12 number form or the OpenAPI 3.0 boolean form.
	ExclusiveMinimum *float64
	ExclusiveMaximum *float64
	// MinItems bounds an array's length; Items is its element schema.
	MinItems *int
	Items    *Property
	// Object holds the nested schema of an object property.
	Object *Schema
}

// rawSchema is the JSON shape ParseSchema reads.
type rawSchema struct {
	Type             json.RawMessage            `json:"type"`
	Enum             []any                      `json:"enum"`
	Const            json.RawMessage            `json:"const"`
	Default          any                        `json:"default"`
	Examples         []any                      `json:"examples"`
	Format           string                     `json:"format"`
	Pattern          string                     `json:"pattern"`
	MinLength        *int                       `json:"minLength"`
	MaxLength        *int                       `json:"maxLength"`
	Minimum          *float64                   `json:"minimum"`
	Maximum          *float64                   `json:"maximum"`
	ExclusiveMinimum json.RawMessage            `json:"exclusiveMinimum"`
	ExclusiveMaximum json.RawMessage            `json:"exclusiveMaximum"`
	MinItems         *int                       `json:"minItems"`
	Items            json.RawMessage            `json:"items"`
	Properties       map[string]json.RawMessage `json:"properties"`
	Required         []string                   `json:"required"`
}

// maxSchemaDepth bounds recursion through nested schemas.
const maxSchemaDepth = 8

// ParseSchema reads a tool's input schema as load_tool returns it.
func ParseSchema(raw []byte) (*Schema, error) {
	p, err := parseProperty(raw, 0)
	if err != nil {
		return nil, err
	}
	if p.Object == nil {
		return &Schema{Properties: map[string]*Property{}}, nil
	}
	return p.Object, nil
}

func parseProperty(raw []byte, depth int) (*Property, error) {
	var r rawSchema
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("agent: input schema: %w", err)
	}
	p := &Property{
		Enum: r.Enum, Default: r.Default, Examples: r.Examples, Format: r.Format,
		Pattern: r.Pattern, MinLength: r.MinLength, MaxLength: r.MaxLength,
		Minimum: r.Minimum, Maximum: r.Maximum, MinItems: r.MinItems,
	}
	if len(r.Type) > 0 {
		var one string
		if json.Unmarshal(r.Type, &one) == nil {
			p.Types = []string{one}
		} else if err := json.Unmarshal(r.Type, &p.Types); err != nil {
			return nil, fmt.Errorf("agent: input schema: type: %w", err)
		}
	}
	if len(r.Const) > 0 {
		p.HasConst = true
		_ = json.Unmarshal(r.Const, &p.Const)
	}
	// exclusiveMinimum is a number in 2020-12 and a boolean in draft 4
	// (OpenAPI 3.0); the boolean form turns minimum exclusive.
	p.ExclusiveMinimum, p.Minimum = exclusive(r.ExclusiveMinimum, p.Minimum)
	p.ExclusiveMaximum, p.Maximum = exclusive(r.ExclusiveMaximum, p.Maximum)
	if depth >= maxSchemaDepth {
		return p, nil
	}
	if len(r.Items) > 0 {
		if it, err := parseProperty(r.Items, depth+1); err == nil {
			p.Items = it
		}
	}
	if r.Properties != nil || p.is("object") {
		s := &Schema{Properties: make(map[string]*Property, len(r.Properties)), Required: r.Required}
		for name, sub := range r.Properties {
			sp, err := parseProperty(sub, depth+1)
			if err != nil {
				return nil, fmt.Errorf("agent: input schema: property %q: %w", name, err)
			}
			s.Properties[name] = sp
		}
		p.Object = s
	}
	return p, nil
}

func exclusive(raw json.RawMessage, bound *float64) (*float64, *float64) {
	if len(raw) == 0 {
		return nil, bound
	}
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		if b && bound != nil {
			return bound, nil
		}
		return nil, bound
	}
	var f float64
	if json.Unmarshal(raw, &f) == nil {
		return &f, bound
	}
	return nil, bound
}

// is reports whether t is one of the property's types.
func (p *Property) is(t string) bool {
	for _, x := range p.Types {
		if x == t || (t == "number" && x == "integer") {
			return true
		}
	}
	return false
}

// mainType is the first non-null type, or "" when any type is allowed.
func (p *Property) mainType() string {
	for _, t := range p.Types {
		if t != "null" {
			return t
		}
	}
	return ""
}

// Names returns the schema's property names, sorted.
func (s *Schema) Names() []string {
	out := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// IsRequired reports whether name is in the required list.
func (s *Schema) IsRequired(name string) bool {
	for _, r := range s.Required {
		if r == name {
			return true
		}
	}
	return false
}

// Check returns the keywords v breaks ("type", "minLength", "maximum", ...),
// empty when v satisfies the property as far as this package judges.
func (p *Property) Check(v any) []string {
	if p.HasConst {
		if !sameJSON(v, p.Const) {
			return []string{"const"}
		}
		return nil
	}
	if !p.typeOK(v) {
		return []string{"type"}
	}
	var broken []string
	if len(p.Enum) > 0 && !containsJSON(p.Enum, v) {
		broken = append(broken, "enum")
	}
	switch x := v.(type) {
	case string:
		n := utf8.RuneCountInString(x)
		if p.MinLength != nil && n < *p.MinLength {
			broken = append(broken, "minLength")
		}
		if p.MaxLength != nil && n > *p.MaxLength {
			broken = append(broken, "maxLength")
		}
		if p.Pattern != "" {
			if re, err := regexp.Compile(p.Pattern); err == nil && !re.MatchString(x) {
				broken = append(broken, "pattern")
			}
		}
	case []any:
		if p.MinItems != nil && len(x) < *p.MinItems {
			broken = append(broken, "minItems")
		}
	default:
		if f, ok := number(v); ok {
			if p.Minimum != nil && f < *p.Minimum {
				broken = append(broken, "minimum")
			}
			if p.ExclusiveMinimum != nil && f <= *p.ExclusiveMinimum {
				broken = append(broken, "exclusiveMinimum")
			}
			if p.Maximum != nil && f > *p.Maximum {
				broken = append(broken, "maximum")
			}
			if p.ExclusiveMaximum != nil && f >= *p.ExclusiveMaximum {
				broken = append(broken, "exclusiveMaximum")
			}
		}
	}
	return broken
}

func (p *Property) typeOK(v any) bool {
	if len(p.Types) == 0 {
		return true
	}
	for _, t := range p.Types {
		if jsonTypeIs(v, t) {
			return true
		}
	}
	return false
}

func jsonTypeIs(v any, t string) bool {
	switch t {
	case "null":
		return v == nil
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "number":
		_, ok := number(v)
		return ok
	case "integer":
		f, ok := number(v)
		return ok && f == math.Trunc(f) && !math.IsInf(f, 0)
	}
	return false
}

// number returns v as a float64 when it is a JSON number.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

func sameJSON(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}

func containsJSON(list []any, v any) bool {
	for _, x := range list {
		if sameJSON(x, v) {
			return true
		}
	}
	return false
}

// Valid returns a value the property accepts, built from its schema alone:
// its const, its first enum value, its default or an example when they
// satisfy it, otherwise a value of its type within its bounds. A pattern is
// honoured on a best-effort basis: a few common shapes are tried and, when
// none matches, the value is returned anyway for the backend to judge.
func (p *Property) Valid() any {
	if p.HasConst {
		return p.Const
	}
	for _, v := range p.Enum {
		if v != nil {
			return v
		}
	}
	if p.Default != nil && len(p.Check(p.Default)) == 0 {
		return p.Default
	}
	for _, v := range p.Examples {
		if v != nil && len(p.Check(v)) == 0 {
			return v
		}
	}
	switch p.mainType() {
	case "integer":
		return int(p.inRange(true))
	case "number":
		return p.inRange(false)
	case "boolean":
		return true
	case "array":
		out := []any{}
		if p.MinItems != nil && p.Items != nil {
			for range min(*p.MinItems, 16) {
				out = append(out, p.Items.Valid())
			}
		}
		return out
	case "object":
		out := map[string]any{}
		if p.Object != nil {
			for _, r := range p.Object.Required {
				if sp, ok := p.Object.Properties[r]; ok {
					out[r] = sp.Valid()
				}
			}
		}
		return out
	case "null":
		return nil
	}
	return p.validString()
}

// inRange picks the smallest value the numeric bounds allow, or 1 when the
// property has no lower bound and 1 is allowed.
func (p *Property) inRange(integer bool) float64 {
	lo, hi := math.Inf(-1), math.Inf(1)
	step := 1.0
	if !integer {
		step = 0.5
	}
	if p.Minimum != nil {
		lo = *p.Minimum
	}
	if p.ExclusiveMinimum != nil {
		lo = max(lo, *p.ExclusiveMinimum+step)
	}
	if p.Maximum != nil {
		hi = *p.Maximum
	}
	if p.ExclusiveMaximum != nil {
		hi = min(hi, *p.ExclusiveMaximum-step)
	}
	if integer {
		lo, hi = math.Ceil(lo), math.Floor(hi)
	}
	switch {
	case !math.IsInf(lo, 0):
		return lo
	case 1 <= hi:
		return 1
	case !math.IsInf(hi, 0):
		return hi
	}
	return 1
}

// stringShapes are tried, in order, for a string property with a format or
// pattern the default sample does not satisfy.
var stringShapes = []string{
	"sample", "agent@example.com", "2026-01-01", "2026-01-01T00:00:00Z",
	"00000000-0000-4000-8000-000000000000", "https://example.com/", "a", "A", "0", "1",
	"sample-1", "SAMPLE", "ABC", "abc", "123", "abc-123",
}

var formatShapes = map[string]string{
	"email": "agent@example.com", "date": "2026-01-01", "date-time": "2026-01-01T00:00:00Z",
	"uuid": "00000000-0000-4000-8000-000000000000", "uri": "https://example.com/",
	"url": "https://example.com/", "hostname": "example.com", "ipv4": "192.0.2.1",
	"time": "00:00:00Z",
}

func (p *Property) validString() string {
	s := "sample"
	if f, ok := formatShapes[p.Format]; ok {
		s = f
	}
	if p.Pattern != "" {
		if re, err := regexp.Compile(p.Pattern); err == nil && !re.MatchString(s) {
			for _, c := range stringShapes {
				if re.MatchString(c) {
					s = c
					break
				}
			}
		}
	}
	return fitLength(s, p.MinLength, p.MaxLength)
}

// fitLength pads s with 'x' to minLength runes and cuts it to maxLength runes.
func fitLength(s string, minLen, maxLen *int) string {
	if minLen != nil {
		if n := *minLen - utf8.RuneCountInString(s); n > 0 {
			s += strings.Repeat("x", min(n, 1<<16))
		}
	}
	if maxLen != nil && utf8.RuneCountInString(s) > *maxLen {
		s = string([]rune(s)[:max(*maxLen, 0)])
	}
	return s
}

// Fix returns v changed as little as the schema allows so that it satisfies
// the property: a string padded to its minimum length or cut to its maximum,
// a number clamped into its range, a value outside an enum replaced by the
// first enum value. A value of the wrong type, or one Fix cannot mend,
// becomes Valid().
func (p *Property) Fix(v any) any {
	broken := p.Check(v)
	if len(broken) == 0 {
		return v
	}
	if broken[0] == "type" || broken[0] == "const" || broken[0] == "enum" {
		return p.Valid()
	}
	var out any = v
	switch x := v.(type) {
	case string:
		out = fitLength(x, p.MinLength, p.MaxLength)
	default:
		if f, ok := number(v); ok {
			f = p.clamp(f)
			if p.mainType() == "integer" {
				out = int(f)
			} else {
				out = f
			}
		}
	}
	if len(p.Check(out)) > 0 {
		return p.Valid()
	}
	return out
}

func (p *Property) clamp(f float64) float64 {
	integer := p.mainType() == "integer"
	step := 1.0
	if !integer {
		step = 0.5
	}
	if p.Minimum != nil && f < *p.Minimum {
		f = *p.Minimum
	}
	if p.ExclusiveMinimum != nil && f <= *p.ExclusiveMinimum {
		f = *p.ExclusiveMinimum + step
	}
	if p.Maximum != nil && f > *p.Maximum {
		f = *p.Maximum
	}
	if p.ExclusiveMaximum != nil && f >= *p.ExclusiveMaximum {
		f = *p.ExclusiveMaximum - step
	}
	if integer {
		f = math.Ceil(f)
	}
	return f
}

// RepairError names the fields Repair could not act on: names that are not
// arguments of the tool and were not among the arguments sent.
type RepairError struct {
	Names []string
}

// Error lists the names.
func (e *RepairError) Error() string {
	return "agent: cannot repair fields that are not arguments: " + strings.Join(e.Names, ", ")
}

// ErrNothingToRepair is returned by Repair when fields is empty.
var ErrNothingToRepair = errors.New("agent: the envelope names no fields")

// Repair returns a copy of args in which every argument named in fields is
// changed to satisfy the schema: a missing one is supplied, a present one is
// mended with Fix, and one the backend rejected although the schema accepts
// it is replaced with Valid(), since sending it unchanged would fail again.
// A name the schema does not know is removed from the arguments.
//
// Repair reads only the field names and the schema. The field messages are
// prose for people; all the rules an argument broke are satisfied at once
// because the new value is built from all of the argument's constraints.
func (s *Schema) Repair(args map[string]any, fields []Field) (map[string]any, error) {
	if len(fields) == 0 {
		return copyArgs(args), ErrNothingToRepair
	}
	out := copyArgs(args)
	var unknown []string
	seen := map[string]bool{}
	for _, f := range fields {
		name := argumentName(f.Name)
		if seen[name] {
			continue
		}
		seen[name] = true
		p, ok := s.Properties[name]
		if !ok {
			if _, sent := out[name]; sent {
				delete(out, name)
			} else {
				unknown = append(unknown, f.Name)
			}
			continue
		}
		v, sent := out[name]
		switch {
		case !sent:
			out[name] = p.Valid()
		case len(p.Check(v)) > 0:
			out[name] = p.Fix(v)
		default:
			out[name] = p.Valid()
			if sameJSON(out[name], v) {
				out[name] = p.alternative(v)
			}
		}
	}
	if len(unknown) > 0 {
		return out, &RepairError{Names: unknown}
	}
	return out, nil
}

// alternative returns a valid value different from v, when the schema
// allows one: the next enum value, or a different sample.
func (p *Property) alternative(v any) any {
	for _, e := range p.Enum {
		if e != nil && !sameJSON(e, v) {
			return e
		}
	}
	if p.mainType() == "string" || p.mainType() == "" {
		if s := fitLength("sample-2", p.MinLength, p.MaxLength); len(p.Check(s)) == 0 && s != v {
			return s
		}
	}
	return v
}

// argumentName maps a field name that points inside an argument
// ("items[0].name", "address.city") to the argument itself.
func argumentName(name string) string {
	if i := strings.IndexAny(name, ".["); i > 0 {
		return name[:i]
	}
	return name
}

// Conform returns a copy of args that matches the schema's names and types:
// arguments the schema does not list are dropped, values of the wrong type
// are replaced with Valid(), and missing required arguments are supplied.
// It is the repair for an envelope without status, which says the arguments
// did not match the schema the agent loaded. The second result lists what
// changed, one line each.
func (s *Schema) Conform(args map[string]any) (map[string]any, []string) {
	out := copyArgs(args)
	var changes []string
	for _, name := range sortedKeys(out) {
		p, ok := s.Properties[name]
		switch {
		case !ok:
			delete(out, name)
			changes = append(changes, "dropped unknown argument "+name)
		case !p.typeOK(out[name]):
			out[name] = p.Valid()
			changes = append(changes, "replaced "+name+" with a value of its type")
		}
	}
	for _, name := range s.Required {
		if _, ok := out[name]; !ok {
			if p, known := s.Properties[name]; known {
				out[name] = p.Valid()
				changes = append(changes, "supplied required argument "+name)
			}
		}
	}
	return out, changes
}

// ValidArgs returns arguments that satisfy the schema: every required
// argument, and no optional one.
func (s *Schema) ValidArgs() map[string]any {
	out := map[string]any{}
	for _, name := range s.Required {
		if p, ok := s.Properties[name]; ok {
			out[name] = p.Valid()
		}
	}
	return out
}

func copyArgs(args map[string]any) map[string]any {
	out := make(map[string]any, len(args))
	for k, v := range args {
		out[k] = v
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
