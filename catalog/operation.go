package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"mime"
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
	if l.version == 2 {
		body = l.swaggerBody(op, all)
	} else {
		body = l.requestBody(op)
	}
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

// bodyShape is the request body as arguments.
type bodyShape struct {
	mediaType    string
	required     bool
	whole        bool
	props        []bodyProp
	notInvocable string
}

type bodyProp struct {
	name string
	node *yaml.Node
	doc  *document
	at   *loc
	b    ArgBinding
}

// Media kinds, in order of preference.
const (
	kindJSON = iota
	kindForm
	kindMultipart
	kindBinary
	kindText
	kindUnsupported
)

func mediaKind(mt string) int {
	base, _, err := mime.ParseMediaType(mt)
	if err != nil {
		base = strings.ToLower(strings.TrimSpace(strings.Split(mt, ";")[0]))
	}
	switch {
	case base == "application/json" || strings.HasSuffix(base, "+json") || base == "text/json":
		return kindJSON
	case base == "application/x-www-form-urlencoded":
		return kindForm
	case base == "multipart/form-data":
		return kindMultipart
	case strings.HasSuffix(base, "/xml") || strings.HasSuffix(base, "+xml") || strings.HasPrefix(base, "multipart/"):
		return kindUnsupported
	case strings.HasPrefix(base, "text/"):
		return kindText
	case base == "application/octet-stream" || base == "*/*" || strings.HasPrefix(base, "image/") ||
		strings.HasPrefix(base, "audio/") || strings.HasPrefix(base, "video/") || strings.HasPrefix(base, "application/"):
		return kindBinary
	}
	return kindUnsupported
}

// requestBody reads an OpenAPI 3 requestBody.
func (l *loader) requestBody(op *operation) *bodyShape {
	rb := get(op.node, "requestBody")
	if rb == nil {
		return nil
	}
	at := op.at.child("requestBody")
	doc := l.rootDoc
	if r := get(rb, "$ref"); r != nil {
		ref, _ := str(r)
		t, err := l.resolve(doc, ref)
		if err != nil {
			l.warn(at.child("$ref"), r, "requestBody $ref not followed: "+err.Error()+"; the body is left out")
			return nil
		}
		rb, doc, at = t.node, t.doc, &loc{doc: t.doc, ptr: t.ptr}
	}
	content := get(rb, "content")
	best, bestKind := "", kindUnsupported+1
	var media *yaml.Node
	pairs(content, func(mt string, _, m *yaml.Node) bool {
		if k := mediaKind(mt); k < bestKind {
			best, bestKind, media = mt, k, m
		}
		return true
	})
	if best == "" {
		return nil
	}
	body := &bodyShape{mediaType: best, required: boolOf(rb, "required")}
	if bestKind == kindUnsupported {
		body.notInvocable = fmt.Sprintf("the request body is sent only as %s, which sezzlee cannot compose", best)
		return body
	}
	ma := at.child("content").child(best)
	schema := get(media, "schema")
	sat := ma.child("schema")
	encoding := get(media, "encoding")
	l.shapeBody(body, bestKind, schema, doc, sat, func(name string) *yaml.Node { return get(encoding, name) })
	return body
}

// shapeBody fills body from its schema: the properties of an object, or
// the whole body as one argument.
func (l *loader) shapeBody(body *bodyShape, kind int, schema *yaml.Node, doc *document, at *loc, encoding func(string) *yaml.Node) {
	whole := func() {
		body.whole = true
		p := bodyProp{name: WholeBodyArgument, node: schema, doc: doc, at: at, b: ArgBinding{In: InWholeBody, Required: body.required}}
		switch {
		case kind == kindBinary:
			p.b.File = true
		case schema == nil:
			p.node = &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
				{Kind: yaml.ScalarNode, Tag: "!!str", Value: "type"}, {Kind: yaml.ScalarNode, Tag: "!!str", Value: "string"}}}
		}
		body.props = []bodyProp{p}
	}
	if kind == kindBinary || kind == kindText || schema == nil {
		whole()
		return
	}
	props, ok := l.objectShape(schema, doc, at, 0)
	if !ok {
		whole()
		return
	}
	for _, p := range props {
		bp := bodyProp{name: p.name, node: p.node, doc: p.doc, at: p.at, b: ArgBinding{In: InBody, Required: p.required}}
		bp.b.Deferred = l.deferred[p.name] || boolOf(p.node, "x-sezzlee-deferred")
		if kind == kindForm || kind == kindMultipart {
			bp.b.Style, bp.b.Explode = "form", true
			if enc := encoding(p.name); isMap(enc) {
				if s, ok := str(get(enc, "style")); ok {
					bp.b.Style = s
					bp.b.Explode = s == "form"
				}
				if b, ok := boolean(get(enc, "explode")); ok {
					bp.b.Explode = b
				}
				bp.b.AllowReserved = boolOf(enc, "allowReserved")
				if kind == kindMultipart {
					bp.b.ContentType = strOf(enc, "contentType")
				}
			}
			if kind == kindMultipart && l.isFile(p.node, p.doc) {
				bp.b.File = true
			}
		}
		body.props = append(body.props, bp)
	}
}

// shapeProp is a property of an object body.
type shapeProp struct {
	name     string
	node     *yaml.Node
	doc      *document
	at       *loc
	required bool
}

// objectShape returns the properties of an object schema reached through
// references and allOf merges of object schemas; ok is false when the
// schema is not such an object (an array, a scalar, a map, a oneOf).
func (l *loader) objectShape(n *yaml.Node, doc *document, at *loc, depth int) ([]shapeProp, bool) {
	if depth > 16 {
		return nil, false
	}
	if r := get(n, "$ref"); r != nil {
		ref, ok := str(r)
		if !ok {
			return nil, false
		}
		t, err := l.resolve(doc, ref)
		if err != nil {
			return nil, false
		}
		return l.objectShape(t.node, t.doc, &loc{doc: t.doc, ptr: t.ptr}, depth+1)
	}
	if !isMap(n) || get(n, "oneOf") != nil || get(n, "anyOf") != nil || get(n, "not") != nil || get(n, "$recursiveRef") != nil {
		return nil, false
	}
	if t := get(n, "type"); t != nil {
		okType := false
		if s, ok := str(t); ok {
			okType = s == "object"
		} else {
			okType = true
			for _, e := range items(t) {
				if s, _ := str(e); s != "object" && s != "null" {
					okType = false
				}
			}
		}
		if !okType {
			return nil, false
		}
	}
	var props []shapeProp
	index := map[string]int{}
	add := func(p shapeProp) {
		if i, ok := index[p.name]; ok {
			p.required = p.required || props[i].required
			props[i] = p
			return
		}
		index[p.name] = len(props)
		props = append(props, p)
	}
	for i, e := range items(get(n, "allOf")) {
		sub, ok := l.objectShape(e, doc, at.child("allOf").child(itoa(i)), depth+1)
		if !ok {
			return nil, false
		}
		for _, p := range sub {
			add(p)
		}
	}
	required := map[string]bool{}
	for _, r := range items(get(n, "required")) {
		if s, ok := str(r); ok {
			required[s] = true
		}
	}
	pa := at.child("properties")
	c := converter{l: l}
	pairs(get(n, "properties"), func(name string, _, p *yaml.Node) bool {
		if c.readOnly(p, doc) {
			return true
		}
		add(shapeProp{name: name, node: p, doc: doc, at: pa.child(name), required: required[name]})
		return true
	})
	for name := range required {
		if i, ok := index[name]; ok {
			props[i].required = true
		}
	}
	if len(props) == 0 && !emptyObject(n) {
		return nil, false
	}
	return props, true
}

// emptyObject reports whether n declares an object with no properties and
// no other keys allowed (Stripe's empty form bodies): it flattens to no
// arguments rather than to one open "body".
func emptyObject(n *yaml.Node) bool {
	p := get(n, "properties")
	if !isMap(p) || len(p.Content) > 0 {
		return false
	}
	ap := get(n, "additionalProperties")
	b, isBool := boolean(ap)
	return ap == nil || (isBool && !b)
}

// follow follows a chain of references from n, at most 8 long, and
// returns where it ends (n itself when it is not a reference).
func (l *loader) follow(n *yaml.Node, doc *document) (*yaml.Node, *document) {
	for i := 0; i < 8; i++ {
		r, ok := str(get(n, "$ref"))
		if !ok {
			break
		}
		t, err := l.resolve(doc, r)
		if err != nil {
			break
		}
		n, doc = t.node, t.doc
	}
	return n, doc
}

// isFile reports whether a multipart property carries a file, or an array
// of files.
func (l *loader) isFile(n *yaml.Node, doc *document) bool { return l.isFileAt(n, doc, true) }

func (l *loader) isFileAt(n *yaml.Node, doc *document, arrayOK bool) bool {
	n, doc = l.follow(n, doc)
	typ := strOf(n, "type")
	switch strOf(n, "format") {
	case "binary", "base64":
		if typ == "string" || typ == "" {
			return true
		}
	}
	if typ == "file" {
		return true
	}
	switch strOf(n, "contentEncoding") {
	case "binary", "base64":
		return true
	}
	if mt := strOf(n, "contentMediaType"); mt != "" && mediaKind(mt) == kindBinary {
		return true
	}
	return typ == "array" && arrayOK && l.isFileAt(get(n, "items"), doc, false)
}

// fileArgSchema is the schema of a file argument, keeping the description
// the property or parameter had; an array of files is an array of them.
func (l *loader) fileArgSchema(n *yaml.Node, doc *document) obj {
	desc := bound(strOf(n, "description"), maxSchemaDescription)
	n, _ = l.follow(n, doc)
	if desc == "" {
		desc = bound(strOf(n, "description"), maxSchemaDescription)
	}
	if strOf(n, "type") == "array" {
		return obj{{"type", "array"}, {"description", firstNonEmpty(desc, "The files to send.")}, {"items", fileSchema(strOf(get(n, "items"), "description"))}}
	}
	return fileSchema(desc)
}

// swaggerBody reads a Swagger 2.0 body or formData parameters.
func (l *loader) swaggerBody(op *operation, params []param) *bodyShape {
	consumes := items(get(op.node, "consumes"))
	if consumes == nil {
		consumes = items(get(l.rootDoc.root, "consumes"))
	}
	var types []string
	for _, c := range consumes {
		if s, ok := str(c); ok {
			types = append(types, s)
		}
	}
	var bodyParam *param
	var form []param
	for i := range params {
		switch params[i].in {
		case "body":
			bodyParam = &params[i]
		case "formData":
			form = append(form, params[i])
		}
	}
	switch {
	case bodyParam != nil:
		mt := pickMedia(types, "application/json")
		body := &bodyShape{mediaType: mt, required: boolOf(bodyParam.node, "required")}
		kind := mediaKind(mt)
		if kind == kindUnsupported {
			body.notInvocable = fmt.Sprintf("the request body is sent only as %s, which sezzlee cannot compose", mt)
			return body
		}
		l.shapeBody(body, kind, get(bodyParam.node, "schema"), bodyParam.doc, bodyParam.at.child("schema"), func(string) *yaml.Node { return nil })
		if body.whole && bodyParam.name != "" {
			body.props[0].b.Required = body.required
		}
		return body
	case len(form) > 0:
		mt := "application/x-www-form-urlencoded"
		hasFile := false
		for _, p := range form {
			if strOf(p.node, "type") == "file" {
				hasFile = true
			}
		}
		hasForm, hasMultipart := false, false
		for _, t := range types {
			switch mediaKind(t) {
			case kindForm:
				hasForm = true
			case kindMultipart:
				hasMultipart = true
			}
		}
		if hasFile || (hasMultipart && !hasForm) {
			mt = "multipart/form-data"
		}
		body := &bodyShape{mediaType: mt}
		for _, p := range form {
			req, _ := boolean(get(p.node, "required"))
			if req {
				body.required = true
			}
			style, explode := collectionFormat(l, param{in: InQuery, at: p.at}, p.node)
			bp := bodyProp{name: p.name, node: paramSchemaNode(p.node), doc: p.doc, at: p.at,
				b: ArgBinding{In: InBody, Required: req, Style: style, Explode: explode}}
			if d := strOf(p.node, "description"); d != "" {
				bp.node = withKey(bp.node, "description", get(p.node, "description"))
			}
			bp.b.Deferred = l.deferred[p.name] || boolOf(p.node, "x-sezzlee-deferred")
			if strOf(p.node, "type") == "file" {
				bp.b.File = true
			}
			body.props = append(body.props, bp)
		}
		return body
	}
	return nil
}

// pickMedia chooses from a Swagger 2.0 consumes list by preference.
func pickMedia(types []string, fallback string) string {
	best, bestKind := "", kindUnsupported+1
	for _, t := range types {
		if k := mediaKind(t); k < bestKind {
			best, bestKind = t, k
		}
	}
	if best == "" {
		return fallback
	}
	return best
}
