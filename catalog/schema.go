package catalog

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// maxSchemaDescription bounds each description kept in a schema, in runes.
const maxSchemaDescription = 1000

// maxSchemaNodes bounds the nodes one tool's input schema may visit; a
// description whose aliases or references would blow a schema up past it
// gets the operation skipped rather than the loader stuck.
const maxSchemaNodes = 200000

// converter turns the schemas one tool reaches into JSON Schema 2020-12.
// References used once are inlined; references used twice or more, and
// those that close a cycle, become entries of the tool's own $defs.
type converter struct {
	l       *loader
	uses    map[*yaml.Node]int
	defName map[*yaml.Node]string
	names   map[string]bool
	defs    obj
	open    map[*yaml.Node]bool // targets being inlined right now
	enclose []target            // targets being converted, innermost last
	budget  int
	refs    int // references met so far, to tell which targets are closed
}

// convertTarget converts the schema a reference points at. A target whose
// conversion meets no reference is closed: its result is the same in every
// tool, so the loader keeps it and later tools reuse it. Callers copy the
// top level before changing it.
func (c *converter) convertTarget(t target) any {
	if v, ok := c.l.closed[t.node]; ok {
		return v
	}
	before := c.refs
	c.open[t.node] = true
	c.enclose = append(c.enclose, t)
	v := c.convert(t.node, &loc{doc: t.doc, ptr: t.ptr})
	c.enclose = c.enclose[:len(c.enclose)-1]
	delete(c.open, t.node)
	if c.refs == before && !c.exhausted() {
		c.l.closed[t.node] = v
	}
	return v
}

func (l *loader) newConverter() *converter {
	return &converter{
		l:       l,
		uses:    map[*yaml.Node]int{},
		defName: map[*yaml.Node]string{},
		names:   map[string]bool{},
		open:    map[*yaml.Node]bool{},
		budget:  maxSchemaNodes,
	}
}

// exhausted reports whether the node budget ran out.
func (c *converter) exhausted() bool { return c.budget < 0 }

// count walks a schema the way convert will, counting how often each
// reference target is used, so convert knows which to inline.
func (c *converter) count(n *yaml.Node, doc *document) {
	c.countSeen(n, doc, map[*yaml.Node]bool{})
}

func (c *converter) countSeen(n *yaml.Node, doc *document, seen map[*yaml.Node]bool) {
	n = deref(n)
	if !isMap(n) {
		return
	}
	c.budget--
	if c.budget < 0 {
		return
	}
	if r := get(n, "$ref"); r != nil {
		if _, ok := str(r); !ok {
			return
		}
		t, err := c.l.resolveNode(doc, r)
		if err != nil || t.node == nil {
			return
		}
		c.uses[t.node]++
		if _, closed := c.l.closed[t.node]; seen[t.node] || closed {
			return
		}
		seen[t.node] = true
		c.enclose = append(c.enclose, t)
		c.countSeen(t.node, t.doc, seen)
		c.enclose = c.enclose[:len(c.enclose)-1]
		return
	}
	if r, ok := str(get(n, "$recursiveRef")); ok && r == "#" && len(c.enclose) > 0 {
		c.uses[c.enclose[len(c.enclose)-1].node] += 2
		return
	}
	pairs(n, func(k string, _, v *yaml.Node) bool {
		switch k {
		case "properties", "patternProperties", "dependentSchemas":
			pairs(v, func(_ string, _, p *yaml.Node) bool {
				if k == "properties" && c.readOnly(p, doc) {
					return true
				}
				c.countSeen(p, doc, seen)
				return true
			})
		case "allOf", "anyOf", "oneOf", "prefixItems":
			for _, e := range items(v) {
				c.countSeen(e, doc, seen)
			}
		case "items":
			if isSeq(v) {
				for _, e := range items(v) {
					c.countSeen(e, doc, seen)
				}
			} else {
				c.countSeen(v, doc, seen)
			}
		case "additionalProperties", "unevaluatedProperties", "not", "contains", "propertyNames",
			"if", "then", "else", "unevaluatedItems", "additionalItems":
			c.countSeen(v, doc, seen)
		}
		return true
	})
}

// readOnly reports whether a property schema, or what its reference
// points at, is marked readOnly; such properties are left out of requests.
func (c *converter) readOnly(p *yaml.Node, doc *document) bool {
	if boolOf(p, "readOnly") {
		return true
	}
	t, _ := c.l.follow(p, doc)
	return boolOf(t, "readOnly")
}

// convert returns the JSON Schema for node n found at a.
func (c *converter) convert(n *yaml.Node, a *loc) any {
	n = deref(n)
	if n == nil {
		return obj{}
	}
	c.budget--
	if c.budget < 0 {
		return obj{}
	}
	if n.Kind == yaml.ScalarNode && c.l.version >= 31 {
		if b, ok := boolean(n); ok {
			return b
		}
	}
	if !isMap(n) {
		c.l.warn(a, n, "a schema must be an object; replaced by an open schema")
		return obj{}
	}
	if r := get(n, "$ref"); r != nil {
		c.refs++
		return c.convertRef(n, r, a)
	}
	if r := get(n, "$recursiveRef"); r != nil {
		c.refs++
		if s, _ := str(r); s == "#" && len(c.enclose) > 0 {
			return obj{{"$ref", "#/$defs/" + c.def(c.enclose[len(c.enclose)-1])}}
		}
		c.l.warn(a.child("$recursiveRef"), r, "$recursiveRef outside a named schema is not supported; replaced by an open schema")
		return obj{}
	}
	return c.keywords(n, a)
}

func (c *converter) convertRef(n, r *yaml.Node, a *loc) any {
	if _, ok := str(r); !ok {
		c.l.warn(a.child("$ref"), r, "$ref is empty (an unquoted '#' starts a YAML comment); replaced by an open schema")
		return obj{}
	}
	t, err := c.l.resolveNode(a.doc, r)
	if err != nil {
		c.l.warn(a.child("$ref"), r, "$ref not followed: "+err.Error()+"; replaced by an open schema")
		return obj{}
	}
	var s obj
	if c.uses[t.node] >= 2 || c.open[t.node] {
		s = obj{{"$ref", "#/$defs/" + c.def(t)}}
	} else {
		switch v := c.convertTarget(t).(type) {
		case obj:
			s = append(obj(nil), v...)
		case bool:
			if !v {
				return false
			}
			s = obj{}
		}
	}
	// Annotations beside a $ref apply to the use site.
	pairs(n, func(k string, _, v *yaml.Node) bool {
		switch k {
		case "description", "title":
			if d, ok := str(v); ok && strings.TrimSpace(d) != "" {
				s = s.set(k, bound(d, maxSchemaDescription))
			}
		case "default":
			if x, ok := value(v, &c.budget); ok {
				s = s.set(k, x)
			}
		case "example":
			if x, ok := value(v, &c.budget); ok {
				s = s.set("examples", []any{x})
			}
		case "deprecated":
			if b, _ := boolean(v); b {
				s = s.set(k, true)
			}
		}
		return true
	})
	if boolOf(n, "nullable") || boolOf(n, "x-nullable") {
		return obj{{"anyOf", []any{s, obj{{"type", "null"}}}}}
	}
	return s
}

// def returns the $defs key of target t, converting it on first use.
func (c *converter) def(t target) string {
	if name, ok := c.defName[t.node]; ok {
		return name
	}
	name := safeDefName(t.name)
	for i := 2; c.names[name]; i++ {
		name = fmt.Sprintf("%s_%d", safeDefName(t.name), i)
	}
	c.names[name] = true
	c.defName[t.node] = name
	c.defs = append(c.defs, kv{name, obj{}})
	at := len(c.defs) - 1
	c.defs[at].v = c.convertTarget(t)
	return name
}

// safeDefName keeps letters, digits, '_', '-' and '.' of a component name.
func safeDefName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < utf8.RuneSelf && (isWordByte(byte(r)) || r == '.') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "schema"
	}
	return b.String()
}

var validTypes = map[string]bool{"string": true, "number": true, "integer": true, "boolean": true, "array": true, "object": true, "null": true}

// keywords converts a schema object that is not a reference.
func (c *converter) keywords(n *yaml.Node, a *loc) any {
	l := c.l
	out := make(obj, 0, len(n.Content)/2+1)
	var types []string
	var nullable, file, exMin, exMax bool
	var readOnly map[string]bool
	var exMinNode, exMaxNode *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i].Value
		v := deref(n.Content[i+1])
		if v == nil || repeatedKey(n, i) {
			continue
		}
		wrong := func(want string) { l.warn(a.child(k), v, fmt.Sprintf("%s must be %s; dropped", k, want)) }
		switch k {
		case "type":
			if s, ok := str(v); ok {
				switch {
				case validTypes[s]:
					types = appendUnique(types, s)
				case s == "file" && l.version == 2:
					file = true
				default:
					l.warn(a.child(k), v, fmt.Sprintf("unknown type %q; dropped", s))
				}
			} else if isSeq(v) {
				if l.version < 31 {
					l.warn(a.child(k), v, "a list of types is not allowed before OpenAPI 3.1; read as a JSON Schema type list")
				}
				for _, e := range items(v) {
					if s, ok := str(e); ok && validTypes[s] {
						types = appendUnique(types, s)
					} else {
						l.warn(a.child(k), e, "unknown type in a type list; dropped")
					}
				}
			} else {
				wrong("a string")
			}
		case "nullable", "x-nullable":
			if b, ok := boolean(v); ok {
				nullable = nullable || b
			} else {
				wrong("a boolean")
			}
		case "description":
			if s, ok := str(v); ok {
				if s = strings.TrimSpace(s); s != "" {
					out = append(out, kv{k, bound(s, maxSchemaDescription)})
				}
			} else {
				wrong("a string")
			}
		case "title", "format", "contentEncoding", "contentMediaType":
			if s, ok := str(v); ok {
				out = append(out, kv{k, s})
			} else {
				wrong("a string")
			}
		case "pattern":
			if s, ok := str(v); !ok {
				wrong("a string")
			} else if _, err := regexp.Compile(s); err != nil {
				l.warn(a.child(k), v, "pattern is not a regular expression this validator accepts; dropped")
			} else {
				out = append(out, kv{k, s})
			}
		case "default", "const":
			if x, ok := value(v, &c.budget); ok {
				out = append(out, kv{k, x})
			}
		case "enum":
			if !isSeq(v) || len(v.Content) == 0 {
				wrong("a non-empty list")
				continue
			}
			if x, ok := value(v, &c.budget); ok {
				out = append(out, kv{k, x})
			}
		case "example":
			if isSeq(get(n, "examples")) {
				continue
			}
			if x, ok := value(v, &c.budget); ok {
				out = append(out, kv{"examples", []any{x}})
			}
		case "examples":
			if !isSeq(v) {
				continue // 3.0 writers sometimes put an Example Object map here
			}
			if x, ok := value(v, &c.budget); ok {
				out = append(out, kv{k, x})
			}
		case "minimum", "maximum", "multipleOf":
			if x, ok := numberOf(v); ok {
				out = append(out, kv{k, x})
			} else {
				wrong("a number")
			}
		case "exclusiveMinimum", "exclusiveMaximum":
			if b, ok := boolean(v); ok {
				if k == "exclusiveMinimum" {
					exMin, exMinNode = b, v
				} else {
					exMax, exMaxNode = b, v
				}
			} else if x, ok := numberOf(v); ok {
				out = append(out, kv{k, x})
			} else {
				wrong("a number")
			}
		case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minContains", "maxContains":
			if x, ok := numberOf(v); ok && v.ShortTag() == "!!int" && !strings.HasPrefix(v.Value, "-") {
				out = append(out, kv{k, x})
			} else {
				wrong("a non-negative integer")
			}
		case "uniqueItems":
			if b, ok := boolean(v); ok {
				out = append(out, kv{k, b})
			} else {
				wrong("a boolean")
			}
		case "deprecated":
			if b, ok := boolean(v); !ok {
				wrong("a boolean")
			} else if b {
				out = append(out, kv{k, true})
			}
		case "required":
			if !isSeq(v) {
				wrong("a list of property names")
				continue
			}
			var req []string
			for _, e := range items(v) {
				if s, ok := str(e); ok {
					req = appendUnique(req, s)
				}
			}
			out = append(out, kv{k, req})
		case "properties", "patternProperties", "dependentSchemas":
			if !isMap(v) {
				wrong("an object")
				continue
			}
			props := make(obj, 0, len(v.Content)/2)
			pa := a.child(k)
			pairs(v, func(name string, kn, p *yaml.Node) bool {
				if _, dup := props.get(name); dup {
					return true // JSON allows repeated keys; the first one counts
				}
				if k == "properties" && c.readOnly(p, a.doc) {
					if readOnly == nil {
						readOnly = map[string]bool{}
					}
					readOnly[name] = true
					return true
				}
				if k == "patternProperties" {
					if _, err := regexp.Compile(name); err != nil {
						l.warn(pa.child(name), kn, "pattern is not a regular expression this validator accepts; dropped")
						return true
					}
				}
				props = append(props, kv{name, c.convert(p, pa.child(name))})
				return true
			})
			out = append(out, kv{k, props})
		case "allOf", "anyOf", "oneOf", "prefixItems":
			if !isSeq(v) || len(v.Content) == 0 {
				wrong("a non-empty list of schemas")
				continue
			}
			ea := a.child(k)
			list := make([]any, 0, len(v.Content))
			for j, e := range items(v) {
				list = append(list, c.convert(e, ea.child(itoa(j))))
			}
			out = append(out, kv{k, list})
		case "items":
			if isSeq(v) {
				if len(v.Content) == 0 {
					continue
				}
				ea := a.child(k)
				list := make([]any, 0, len(v.Content))
				for j, e := range items(v) {
					list = append(list, c.convert(e, ea.child(itoa(j))))
				}
				out = append(out, kv{"prefixItems", list})
				continue
			}
			out = append(out, kv{k, c.subschema(v, a.child(k))})
		case "additionalProperties", "unevaluatedProperties", "not", "contains", "propertyNames",
			"if", "then", "else", "unevaluatedItems":
			out = append(out, kv{k, c.subschema(v, a.child(k))})
		case "dependentRequired":
			if x, ok := value(v, &c.budget); ok && isMap(v) {
				out = append(out, kv{k, x})
			}
		}
	}
	if file {
		return fileSchema(descriptionOf(out))
	}
	if exMin {
		if m, ok := out.get("minimum"); ok {
			out = out.del("minimum").set("exclusiveMinimum", m)
		} else {
			l.warn(a.child("exclusiveMinimum"), exMinNode, "exclusiveMinimum without minimum; dropped")
		}
	}
	if exMax {
		if m, ok := out.get("maximum"); ok {
			out = out.del("maximum").set("exclusiveMaximum", m)
		} else {
			l.warn(a.child("exclusiveMaximum"), exMaxNode, "exclusiveMaximum without maximum; dropped")
		}
	}
	if readOnly != nil {
		if r, ok := out.get("required"); ok {
			var keep []string
			for _, name := range r.([]string) {
				if !readOnly[name] {
					keep = append(keep, name)
				}
			}
			if len(keep) == 0 {
				out = out.del("required")
			} else {
				out = out.set("required", keep)
			}
		}
	}
	if nullable && len(types) > 0 {
		types = appendUnique(types, "null")
		if e, ok := out.get("enum"); ok {
			if list, ok := e.([]any); ok && !containsNil(list) {
				out = out.set("enum", append(list, nil))
			}
		}
	}
	switch len(types) {
	case 0:
	case 1:
		out = append(obj{{"type", types[0]}}, out...)
	default:
		list := make([]any, len(types))
		for i, t := range types {
			list[i] = t
		}
		out = append(obj{{"type", list}}, out...)
	}
	if nullable && len(types) == 0 {
		if _, comp := out.get("allOf"); comp {
			return obj{{"anyOf", []any{out, obj{{"type", "null"}}}}}
		}
	}
	return out
}

// subschema converts a keyword whose value is a schema or a boolean.
func (c *converter) subschema(v *yaml.Node, a *loc) any {
	if b, ok := boolean(v); ok {
		return b
	}
	return c.convert(v, a)
}

func numberOf(v *yaml.Node) (number, bool) {
	if v.Kind != yaml.ScalarNode || (v.ShortTag() != "!!int" && v.ShortTag() != "!!float") {
		return "", false
	}
	x, ok := scalarValue(v).(number)
	return x, ok
}

func containsNil(list []any) bool {
	for _, e := range list {
		if e == nil {
			return true
		}
	}
	return false
}

func appendUnique(list []string, s string) []string {
	for _, e := range list {
		if e == s {
			return list
		}
	}
	return append(list, s)
}

func descriptionOf(s obj) string {
	d, _ := s.get("description")
	str, _ := d.(string)
	return str
}

// fileSchema is the schema of a file argument: a URI the host can read (a
// data: URI included) or the content itself, base64-encoded.
func fileSchema(description string) obj {
	if description == "" {
		description = "The file to send."
	}
	return obj{
		{"description", description},
		{"anyOf", []any{
			obj{{"type", "string"}, {"description", "A URI of the file, such as data:image/png;base64,... or a location the host can read."}},
			obj{
				{"type", "object"},
				{"required", []string{"content"}},
				{"properties", obj{
					{"content", obj{{"type", "string"}, {"contentEncoding", "base64"}}},
					{"name", obj{{"type", "string"}}},
					{"contentType", obj{{"type", "string"}}},
				}},
				{"additionalProperties", false},
			},
		}},
	}
}

// bound trims s and cuts it to at most max runes, marking the cut.
func bound(s string, max int) string {
	s = strings.TrimSpace(s)
	if len(s) <= max {
		return s
	}
	n := 0
	for i := range s {
		if n == max-1 {
			return strings.TrimSpace(s[:i]) + "…"
		}
		n++
	}
	return s
}

// repeatedKey reports whether the key at index i of mapping n appeared
// before it; JSON allows repeated keys, and the first one counts.
func repeatedKey(n *yaml.Node, i int) bool {
	for j := 0; j < i; j += 2 {
		if n.Content[j].Value == n.Content[i].Value {
			return true
		}
	}
	return false
}
