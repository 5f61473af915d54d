package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Bounds on the text a tool carries.
const (
	maxSummary     = 300
	maxDescription = 2000
)

// param is one parameter after references are followed.
type param struct {
	name string
	in   Location
	node *yaml.Node
	doc  *document
	at   *loc
}

// arg is one argument being built: its schema and its binding.
type arg struct {
	b      ArgBinding
	schema any
	desc   string
	deprec bool
}

var locationOrder = map[Location]int{InPath: 0, InQuery: 1, InHeader: 2, InCookie: 3}

// tool builds the tool for op, or returns nil and the reason it cannot.
func (l *loader) tool(op *operation, docSecurity []SecurityRequirement) (*Tool, string) {
	if !isMap(op.node) {
		return nil, "the operation is not an object"
	}
	n := op.node
	t := &Tool{
		Name:        op.name,
		OperationID: op.id,
		Method:      op.method,
		PathKey:     op.pathKey,
		Tags:        op.tags,
		Deprecated:  boolOf(n, "deprecated"),
	}
	summary, description := strOf(n, "summary"), strOf(n, "description")
	if summary == "" && description == "" {
		summary, description = strOf(op.item, "summary"), strOf(op.item, "description")
	}
	t.Summary = bound(summary, maxSummary)
	t.Description = joinDescription(summary, description)

	t.Security = docSecurity
	if s := get(n, "security"); s != nil {
		t.Security = l.security(s, op.at.child("security"))
	}
	if len(t.Security) == 0 {
		t.Security = nil
	}
	t.Annotations = annotations(op.method)

	path, fixed := splitPathKey(op.pathKey)
	t.Binding = Binding{Method: op.method, Path: path, FixedQuery: fixed, Servers: serverURLs(get(n, "servers"))}
	if t.Binding.Servers == nil && l.version != 2 {
		t.Binding.Servers = serverURLs(get(op.item, "servers"))
	}

	c := l.newConverter()
	all := l.dropCredentials(l.params(op), t.Security)
	var params []param
	for _, p := range all {
		if _, wire := locationOrder[p.in]; wire {
			params = append(params, p)
		}
	}
	params = l.checkPathParams(op, path, params)

	var args []*arg
	taken := map[string]bool{}
	type pending struct {
		a    *arg
		node *yaml.Node
		doc  *document
		at   *loc
		file bool
	}
	var work []pending
	for _, p := range params {
		a, schema, sdoc, sat := l.paramArg(p)
		name := p.name
		for taken[name] {
			name = string(p.in) + "_" + name
		}
		taken[name] = true
		a.b.Name = name
		args = append(args, a)
		work = append(work, pending{a: a, node: schema, doc: sdoc, at: sat})
	}

	var body *bodyShape
	var bodyParam *param
	if l.version == 2 {
		body = l.swaggerBody(op, all)
		for i := range all {
			if all[i].in == "body" {
				bodyParam = &all[i]
			}
		}
	} else {
		body = l.requestBody(op)
	}
	t.Context = l.context(op, bodyParam)
	if body != nil {
		if body.notInvocable != "" {
			t.NotInvocable = body.notInvocable
		} else {
			t.Binding.Body = &BodyBinding{MediaType: body.mediaType, Required: body.required, Whole: body.whole}
			for _, bp := range body.props {
				a := &arg{b: bp.b}
				a.b.Wire = bp.name
				name := bp.name
				if body.whole {
					name = WholeBodyArgument
				}
				for taken[name] {
					name = ClashPrefix + name
				}
				taken[name] = true
				a.b.Name = name
				args = append(args, a)
				work = append(work, pending{a: a, node: bp.node, doc: bp.doc, at: bp.at, file: bp.b.File})
			}
		}
	}

	// Count reference uses over exactly what will be converted, then convert.
	for _, w := range work {
		if w.node != nil && !w.file {
			c.count(w.node, w.doc)
		}
	}
	for _, w := range work {
		switch {
		case w.file:
			w.a.schema = l.fileArgSchema(w.node, w.doc)
		case w.node == nil:
			w.a.schema = obj{{"type", "string"}}
		default:
			w.a.schema = c.convert(w.node, w.at)
		}
		if c.exhausted() {
			return nil, fmt.Sprintf("its input schema is larger than %d nodes", maxSchemaNodes)
		}
	}

	schemaProps := obj{}
	var required []string
	for _, a := range args {
		s, _ := a.schema.(obj)
		if s != nil && a.desc != "" && descriptionOf(s) == "" {
			s = append(obj{{"description", bound(a.desc, maxSchemaDescription)}}, s...)
		}
		if s != nil && a.deprec {
			s = s.set("deprecated", true)
		}
		if s != nil {
			a.schema = s
		}
		info := typeInfo(a.schema, c.defs)
		a.b.Type, a.b.Nullable, a.b.ItemsType, a.b.Map = info.typ, info.nullable, info.items, info.isMap
		if a.b.Deferred {
			continue
		}
		schemaProps = append(schemaProps, kv{a.b.Name, a.schema})
		if a.b.Required {
			required = append(required, a.b.Name)
		}
		t.Arguments = append(t.Arguments, Argument{
			Name:        a.b.Name,
			In:          a.b.In,
			Required:    a.b.Required,
			Type:        a.b.Type,
			Nullable:    a.b.Nullable,
			Description: bound(firstNonEmpty(descriptionOf(s), a.desc), maxSchemaDescription),
			Enum:        enumStrings(a.schema),
			File:        a.b.File,
			Deprecated:  a.deprec || isDeprecated(a.schema),
			Paging:      isPaging(a.b.Name),
		})
	}
	sort.Slice(t.Arguments, func(i, j int) bool { return t.Arguments[i].Name < t.Arguments[j].Name })
	input := obj{{"type", "object"}, {"properties", schemaProps}}
	if len(required) > 0 {
		input = append(input, kv{"required", required})
	}
	input = append(input, kv{"additionalProperties", false})
	if len(c.defs) > 0 {
		input = append(input, kv{"$defs", c.defs})
	}
	// Encode into the loader's scratch buffer and keep an exact-size copy:
	// growing a fresh buffer per tool would double the garbage.
	l.scratch = appendJSON(l.scratch[:0], input)
	t.InputSchema = append(json.RawMessage(nil), l.scratch...)

	for _, a := range args {
		t.Binding.Args = append(t.Binding.Args, a.b)
	}
	sort.Slice(t.Binding.Args, func(i, j int) bool { return t.Binding.Args[i].Name < t.Binding.Args[j].Name })
	t.Version = version(t)
	return t, ""
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// version hashes what an agent's call depends on: the name, the input
// schema and the binding.
func version(t *Tool) string {
	h := sha256.New()
	h.Write([]byte(t.Name))
	h.Write([]byte{0})
	h.Write(t.InputSchema)
	h.Write([]byte{0})
	b, _ := json.Marshal(t.Binding) // a Binding always marshals
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))[:12]
}

func annotations(method string) Annotations {
	switch method {
	case "GET", "HEAD":
		return Annotations{ReadOnly: true, Idempotent: true}
	case "DELETE":
		return Annotations{Destructive: true, Idempotent: true}
	case "PUT":
		return Annotations{Idempotent: true}
	}
	return Annotations{}
}

// joinDescription joins summary and description, dropping a description
// that merely repeats the summary.
func joinDescription(summary, description string) string {
	summary, description = strings.TrimSpace(summary), strings.TrimSpace(description)
	switch {
	case summary == "":
		return bound(description, maxDescription)
	case description == "" || strings.HasPrefix(description, summary):
		return bound(firstNonEmpty(description, summary), maxDescription)
	}
	return bound(summary+"\n\n"+description, maxDescription)
}

// splitPathKey separates a path key into the path template and the fixed
// query pairs of a ?query suffix; a #fragment suffix only tells operations
// apart and is dropped.
func splitPathKey(key string) (string, []QueryPair) {
	path, _, _ := strings.Cut(key, "#")
	path, query, _ := strings.Cut(path, "?")
	var fixed []QueryPair
	for _, kv := range strings.Split(query, "&") {
		if kv == "" {
			continue
		}
		k, v, _ := strings.Cut(kv, "=")
		fixed = append(fixed, QueryPair{Name: k, Value: v})
	}
	return path, fixed
}
