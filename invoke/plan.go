package invoke

import (
	"bytes"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/sezzlee/sezzlee/catalog"
	"github.com/sezzlee/sezzlee/envelope"
)

// plan is what a tool's composition needs, worked out once per tool version:
// the argument index, the parsed path template and the reduced schema.
// A plan depends only on a tool's Name, InputSchema and Binding, which its
// Version hashes, so tools of a reloaded catalog share plans with the
// catalog they replace.
type plan struct {
	args     map[string]*catalog.ArgBinding // agent arguments by name
	deferred []*catalog.ArgBinding
	byWire   map[string]*catalog.ArgBinding // path arguments by wire name
	segments []segment                      // the path template
	allowed  string                         // agent argument names, sorted, comma-separated
	schema   *jsonschema.Schema             // nil when nothing can be checked
	mapOpts  envelope.MapOptions
}

// segment is a piece of a path template: literal text or one {parameter}.
type segment struct {
	literal string
	param   string // wire name, when the segment is a parameter
}

type planKey struct {
	name, version string
	tool          *catalog.Tool // only when the tool has no Version
}

// planCache holds compiled plans. It is bounded: when full, an arbitrary
// entry is dropped, so a server reloading changed descriptions forever does
// not grow it.
type planCache struct {
	mu sync.RWMutex
	m  map[planKey]*plan
}

const maxPlans = 4096

func (inv *Invoker) planFor(t *catalog.Tool) *plan {
	k := planKey{name: t.Name, version: t.Version}
	if t.Version == "" {
		k.tool = t
	}
	inv.plans.mu.RLock()
	p := inv.plans.m[k]
	inv.plans.mu.RUnlock()
	if p != nil {
		return p
	}
	p = inv.compilePlan(t)
	inv.plans.mu.Lock()
	if len(inv.plans.m) >= maxPlans {
		for old := range inv.plans.m {
			delete(inv.plans.m, old)
			break
		}
	}
	inv.plans.m[k] = p
	inv.plans.mu.Unlock()
	return p
}

func (inv *Invoker) compilePlan(t *catalog.Tool) *plan {
	p := &plan{
		args:   make(map[string]*catalog.ArgBinding, len(t.Binding.Args)),
		byWire: make(map[string]*catalog.ArgBinding),
	}
	var names, narrowing []string
	var bodyRenames map[string]string
	for i := range t.Binding.Args {
		ab := &t.Binding.Args[i]
		if ab.Deferred {
			p.deferred = append(p.deferred, ab)
			continue
		}
		p.args[ab.Name] = ab
		names = append(names, ab.Name)
		if ab.In == catalog.InPath {
			p.byWire[ab.Wire] = ab
		}
		if ab.In == catalog.InBody && ab.Wire != ab.Name {
			if bodyRenames == nil {
				bodyRenames = make(map[string]string)
			}
			bodyRenames[ab.Wire] = ab.Name
		}
	}
	for _, a := range t.Arguments {
		if a.Paging {
			narrowing = append(narrowing, a.Name)
		}
	}
	sort.Strings(names)
	p.allowed = strings.Join(names, ", ")
	if p.allowed == "" {
		p.allowed = "none"
	}
	p.segments = parseTemplate(t.Binding.Path)
	p.mapOpts = envelope.MapOptions{Arguments: names, BodyRenames: bodyRenames, Narrowing: narrowing, MaxAgentBytes: inv.opts.MaxAgentBytes}
	p.schema = inv.compileSchema(t, p)
	return p
}

// parseTemplate splits "/pets/{id}/toys" into literal and parameter segments.
func parseTemplate(path string) []segment {
	var segs []segment
	for path != "" {
		i := strings.IndexByte(path, '{')
		if i < 0 {
			segs = append(segs, segment{literal: path})
			break
		}
		j := strings.IndexByte(path[i:], '}')
		if j < 0 {
			segs = append(segs, segment{literal: path})
			break
		}
		if i > 0 {
			segs = append(segs, segment{literal: path[:i]})
		}
		segs = append(segs, segment{param: path[i+1 : i+j]})
		path = path[i+j+1:]
	}
	return segs
}

// compileSchema builds the validator for the part of the input schema that
// composition needs: types, properties, items and the path parameters'
// presence. Value rules (ranges, lengths, patterns, formats, enums, required
// body properties) are dropped: the backend judges them. Branches that
// leave a type open (anyOf, oneOf) are dropped too, so such values pass.
// A schema that does not compile is logged and nothing is checked by it.
func (inv *Invoker) compileSchema(t *catalog.Tool, p *plan) *jsonschema.Schema {
	if len(t.InputSchema) == 0 {
		return nil
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(t.InputSchema))
	if err != nil {
		inv.opts.Logger.Warn("invoke: input schema is not JSON; types are not checked", "tool", t.Name)
		return nil
	}
	root, ok := doc.(map[string]any)
	if !ok {
		return nil
	}
	reduced := map[string]any{"type": "object"}
	props := map[string]any{}
	if in, ok := root["properties"].(map[string]any); ok {
		for name, s := range in {
			ab := p.args[name]
			if ab == nil || ab.File {
				continue // unknown names are reported separately; files are checked by shape
			}
			props[name] = reduce(s)
		}
	}
	reduced["properties"] = props
	var required []any
	for _, ab := range p.args {
		if ab.In == catalog.InPath {
			required = append(required, ab.Name)
		}
	}
	if len(required) > 0 {
		sort.Slice(required, func(i, j int) bool { return required[i].(string) < required[j].(string) })
		reduced["required"] = required
	}
	for _, k := range []string{"$defs", "definitions"} {
		if defs, ok := root[k].(map[string]any); ok {
			out := make(map[string]any, len(defs))
			for n, s := range defs {
				out[n] = reduce(s)
			}
			reduced[k] = out
		}
	}
	c := jsonschema.NewCompiler()
	const loc = "sezzlee:input.json"
	if err := c.AddResource(loc, reduced); err != nil {
		inv.opts.Logger.Warn("invoke: input schema does not compile; types are not checked", "tool", t.Name)
		return nil
	}
	s, err := c.Compile(loc)
	if err != nil {
		inv.opts.Logger.Warn("invoke: input schema does not compile; types are not checked", "tool", t.Name)
		return nil
	}
	return s
}

// reduce keeps the keywords that decide a value's JSON type.
func reduce(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		if b, ok := v.(bool); ok {
			return b
		}
		return true
	}
	out := make(map[string]any, 4)
	for k, x := range m {
		switch k {
		case "type":
			out[k] = x
		case "$ref":
			if s, ok := x.(string); ok && strings.HasPrefix(s, "#/") {
				out[k] = s
			}
		case "properties":
			if in, ok := x.(map[string]any); ok {
				props := make(map[string]any, len(in))
				for n, s := range in {
					props[n] = reduce(s)
				}
				out[k] = props
			}
		case "items", "additionalProperties":
			if _, ok := x.(map[string]any); ok {
				out[k] = reduce(x)
			}
		case "prefixItems", "allOf":
			if in, ok := x.([]any); ok {
				list := make([]any, len(in))
				for i, s := range in {
					list[i] = reduce(s)
				}
				out[k] = list
			}
		}
	}
	// OpenAPI 3.0's nullable, should a description keep it, widens the type.
	if n, _ := m["nullable"].(bool); n {
		if t, ok := out["type"].(string); ok {
			out["type"] = []any{t, "null"}
		}
	}
	return out
}
