package catalog

import (
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// params returns the operation's parameters: path-level ones merged with
// operation-level ones (the operation wins on name and location), in the
// order path, query, header, cookie, then declaration order.
func (l *loader) params(op *operation) []param {
	var out []param
	index := map[string]int{}
	read := func(list *yaml.Node, at *loc) {
		la := at.child("parameters")
		for i, p := range items(list) {
			pa := la.child(itoa(i))
			doc := l.rootDoc
			if r := get(p, "$ref"); r != nil {
				ref, ok := str(r)
				if !ok {
					l.warn(pa.child("$ref"), r, "parameter $ref is empty; parameter dropped")
					continue
				}
				t, err := l.resolve(doc, ref)
				if err != nil {
					l.warn(pa.child("$ref"), r, "parameter $ref not followed: "+err.Error()+"; parameter dropped")
					continue
				}
				p, doc, pa = t.node, t.doc, &loc{doc: t.doc, ptr: t.ptr}
			}
			name, _ := str(get(p, "name"))
			in, _ := str(get(p, "in"))
			if name == "" {
				l.warn(pa, p, "parameter without a name; dropped")
				continue
			}
			switch in {
			case "path", "query", "header", "cookie":
			case "body", "formData":
				if l.version != 2 {
					l.warn(pa, p, fmt.Sprintf("parameter location %q exists only in Swagger 2.0; dropped", in))
					continue
				}
			default:
				l.warn(pa, p, fmt.Sprintf("parameter %q has an unknown location %q; dropped", name, in))
				continue
			}
			if in == "header" {
				switch strings.ToLower(name) {
				case "accept", "content-type", "authorization":
					continue // OpenAPI says these are ignored: the request's own machinery sets them
				}
			}
			k := in + "\x00" + name
			if in == "header" {
				k = in + "\x00" + strings.ToLower(name)
			}
			np := param{name: name, in: Location(in), node: p, doc: doc, at: pa}
			if i, ok := index[k]; ok {
				out[i] = np
				continue
			}
			index[k] = len(out)
			out = append(out, np)
		}
	}
	read(get(op.item, "parameters"), op.at.parent)
	read(get(op.node, "parameters"), op.at)
	sort.SliceStable(out, func(i, j int) bool {
		return locRank(out[i].in) < locRank(out[j].in)
	})
	return out
}

func locRank(in Location) int {
	if r, ok := locationOrder[in]; ok {
		return r
	}
	return 4 // body and formData (Swagger 2.0) come last
}

// dropCredentials removes parameters that carry an apiKey credential of the
// operation's security: the host supplies those, never the agent.
func (l *loader) dropCredentials(params []param, security []SecurityRequirement) []param {
	creds := map[string]bool{}
	for _, req := range security {
		for _, u := range req {
			if u.Scheme != nil && u.Scheme.Type == "apiKey" {
				creds[u.Scheme.In+"\x00"+strings.ToLower(u.Scheme.ParamName)] = true
			}
		}
	}
	if len(creds) == 0 {
		return params
	}
	out := params[:0:0]
	for _, p := range params {
		if !creds[string(p.in)+"\x00"+strings.ToLower(p.name)] {
			out = append(out, p)
		}
	}
	return out
}

// checkPathParams makes the path parameters match the template: a
// template variable without a parameter gets a string one, and a path
// parameter the template does not use is dropped.
func (l *loader) checkPathParams(op *operation, path string, params []param) []param {
	vars := templateVars(path)
	want := map[string]bool{}
	for _, v := range vars {
		want[v] = true
	}
	have := map[string]bool{}
	out := params[:0:0]
	for _, p := range params {
		if p.in == InPath {
			if !want[p.name] {
				l.warn(p.at, p.node, fmt.Sprintf("path parameter %q is not in the path template; dropped", p.name))
				continue
			}
			have[p.name] = true
		}
		out = append(out, p)
	}
	var added []param
	for _, v := range vars {
		if !have[v] {
			have[v] = true
			l.warn(op.at, op.node, fmt.Sprintf("path variable {%s} has no parameter; added as a required string", v))
			added = append(added, param{name: v, in: InPath, at: op.at})
		}
	}
	return append(added, out...)
}

func templateVars(path string) []string {
	var vars []string
	for {
		i := strings.IndexByte(path, '{')
		if i < 0 {
			return vars
		}
		j := strings.IndexByte(path[i:], '}')
		if j < 0 {
			return vars
		}
		vars = append(vars, path[i+1:i+j])
		path = path[i+j+1:]
	}
}

// paramArg starts the argument of parameter p and returns the schema node
// to convert (nil for an implicit string).
func (l *loader) paramArg(p param) (*arg, *yaml.Node, *document, *loc) {
	a := &arg{b: ArgBinding{In: p.in, Wire: p.name}}
	if p.node == nil { // an implicit path parameter
		a.b.Required = true
		a.b.Style = "simple"
		return a, nil, p.doc, p.at
	}
	n := p.node
	req, _ := boolean(get(n, "required"))
	a.b.Required = req || p.in == InPath
	a.desc = strOf(n, "description")
	a.deprec = boolOf(n, "deprecated")
	a.b.Deferred = l.deferred[p.name] || boolOf(n, "x-sezzlee-deferred")
	a.b.AllowReserved = boolOf(n, "allowReserved")
	var schema *yaml.Node
	at := p.at
	if l.version == 2 {
		schema = paramSchemaNode(n)
		a.b.Style, a.b.Explode = collectionFormat(l, p, n)
		if strOf(n, "type") == "file" {
			a.b.File = true
		}
	} else {
		schema = get(n, "schema")
		at = p.at.child("schema")
		if schema == nil {
			if content := get(n, "content"); isMap(content) {
				pairs(content, func(mt string, _, m *yaml.Node) bool {
					a.b.MediaType = mt
					schema = get(m, "schema")
					at = p.at.child("content").child(mt).child("schema")
					return false
				})
			}
		}
		if schema == nil {
			l.warn(p.at, n, fmt.Sprintf("parameter %q has no schema; read as a string", p.name))
		}
		if a.b.MediaType == "" {
			a.b.Style, a.b.Explode = styleOf(p.in, n)
		}
	}
	if ex := get(n, "example"); ex != nil && schema != nil && get(schema, "example") == nil && get(schema, "examples") == nil && get(schema, "$ref") == nil {
		schema = withKey(schema, "example", ex)
	}
	return a, schema, p.doc, at
}

// withKey returns a shallow copy of mapping n with key set to v.
func withKey(n *yaml.Node, key string, v *yaml.Node) *yaml.Node {
	c := *n
	c.Content = append(append([]*yaml.Node(nil), n.Content...), &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, v)
	return &c
}

// paramSchemaNode returns a Swagger 2.0 parameter read as a schema: the
// parameter's own keywords minus those that describe the parameter.
func paramSchemaNode(n *yaml.Node) *yaml.Node {
	c := *n
	c.Content = nil
	for i := 0; i+1 < len(n.Content); i += 2 {
		switch n.Content[i].Value {
		case "name", "in", "required", "collectionFormat", "allowEmptyValue", "description", "deprecated":
			continue
		}
		c.Content = append(c.Content, n.Content[i], n.Content[i+1])
	}
	return &c
}

// styleOf returns a 3.x parameter's style and explode with defaults applied.
func styleOf(in Location, n *yaml.Node) (string, bool) {
	style, _ := str(get(n, "style"))
	if style == "" {
		switch in {
		case InPath, InHeader:
			style = "simple"
		default:
			style = "form"
		}
	}
	explode := style == "form"
	if b, ok := boolean(get(n, "explode")); ok {
		explode = b
	}
	return style, explode
}

// collectionFormat maps a Swagger 2.0 collectionFormat to style and explode.
func collectionFormat(l *loader, p param, n *yaml.Node) (string, bool) {
	form := "form"
	if p.in == InPath || p.in == InHeader {
		form = "simple"
	}
	cf, _ := str(get(n, "collectionFormat"))
	switch cf {
	case "", "csv":
		return form, false
	case "ssv":
		return "spaceDelimited", false
	case "pipes":
		return "pipeDelimited", false
	case "multi":
		return "form", true
	case "tsv":
		l.warn(p.at.child("collectionFormat"), get(n, "collectionFormat"), "collectionFormat tsv has no OpenAPI 3 style; sent as csv")
		return form, false
	}
	l.warn(p.at.child("collectionFormat"), get(n, "collectionFormat"), fmt.Sprintf("unknown collectionFormat %q; sent as csv", cf))
	return form, false
}
