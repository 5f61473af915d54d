package catalog

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// maxContext bounds each text of a Context.
const maxContext = 600

// tagDescriptions maps each tag of the top-level tags list to its
// description.
func tagDescriptions(root *yaml.Node) map[string]string {
	var m map[string]string
	for _, t := range items(get(root, "tags")) {
		name, desc := strOf(t, "name"), strings.TrimSpace(strOf(t, "description"))
		if name == "" || desc == "" {
			continue
		}
		if m == nil {
			m = map[string]string{}
		}
		if _, dup := m[name]; !dup {
			m[name] = bound(desc, maxContext)
		}
	}
	return m
}

// context gathers the prose around op. bodyParam is Swagger 2.0's body
// parameter, nil for OpenAPI 3 or when there is none. It only reads: a
// reference it cannot follow within the description's own file is passed
// over without a warning, since nothing callable depends on it.
func (l *loader) context(op *operation, bodyParam *param) Context {
	var c Context
	for _, tag := range op.tags {
		if d := l.tagDesc[tag]; d != "" {
			c.TagDescriptions = append(c.TagDescriptions, d)
		}
	}
	if strOf(op.node, "summary") != "" || strOf(op.node, "description") != "" {
		c.PathItem = joinLines(strOf(op.item, "summary"), strOf(op.item, "description"))
	}
	if l.version == 2 {
		if bodyParam != nil {
			c.Body = joinLines(strOf(bodyParam.node, "description"), l.schemaText(get(bodyParam.node, "schema")))
		}
		if r := l.local(successResponse(get(op.node, "responses"))); r != nil {
			c.Response = joinLines(strOf(r, "description"), l.schemaText(get(r, "schema")))
		}
		return c
	}
	if rb := l.local(get(op.node, "requestBody")); rb != nil {
		c.Body = joinLines(strOf(rb, "description"), l.schemaText(mediaSchema(get(rb, "content"))))
	}
	if r := l.local(successResponse(get(op.node, "responses"))); r != nil {
		c.Response = joinLines(strOf(r, "description"), l.schemaText(mediaSchema(get(r, "content"))))
	}
	return c
}

// successResponse returns the first 2xx response of responses, in
// document order.
func successResponse(responses *yaml.Node) *yaml.Node {
	var out *yaml.Node
	pairs(responses, func(code string, _, r *yaml.Node) bool {
		if strings.HasPrefix(code, "2") {
			out = r
			return false
		}
		return true
	})
	return out
}

// mediaSchema returns the schema of the JSON media type of content, or of
// its first media type.
func mediaSchema(content *yaml.Node) *yaml.Node {
	var first *yaml.Node
	pairs(content, func(mt string, _, m *yaml.Node) bool {
		if first == nil {
			first = m
		}
		if mediaKind(mt) == kindJSON {
			first = m
			return false
		}
		return true
	})
	return get(first, "schema")
}

// schemaText is a schema's title and description and the name of the
// component it references; for an array, its items'.
func (l *loader) schemaText(s *yaml.Node) string {
	name := ""
	if r, ok := str(get(s, "$ref")); ok {
		name = lastSegment(r)
		s = l.local(s)
	}
	if s == nil {
		return name
	}
	text := joinLines(name, strOf(s, "title"), strOf(s, "description"))
	if name == "" && text == "" {
		if it := get(s, "items"); it != nil && get(it, "items") == nil {
			return l.schemaText(it)
		}
	}
	return text
}

// local follows n's $ref when it points into the description's own file,
// and returns nil when it points elsewhere or nowhere.
func (l *loader) local(n *yaml.Node) *yaml.Node {
	r, ok := str(get(n, "$ref"))
	if !ok {
		return n
	}
	if !strings.HasPrefix(r, "#/") {
		return nil
	}
	t, err := l.resolve(l.rootDoc, r)
	if err != nil || !isMap(t.node) {
		return nil
	}
	return t.node
}

// joinLines joins the texts that are not empty, one per line, bounded.
func joinLines(texts ...string) string {
	var b strings.Builder
	for _, s := range texts {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s)
	}
	return bound(b.String(), maxContext)
}
