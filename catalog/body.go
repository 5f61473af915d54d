package catalog

import (
	"fmt"
	"mime"
	"strings"

	"go.yaml.in/yaml/v3"
)

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
		r := get(n, "$ref")
		if _, ok := str(r); !ok {
			break
		}
		t, err := l.resolveNode(doc, r)
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
