package catalog

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// loader holds the state of one Load or Parse. Nothing of it outlives the
// build: the catalog keeps compact JSON and bindings, not the node trees.
type loader struct {
	ctx        context.Context
	opts       Options
	client     *http.Client
	rootDir    string // folder sibling-file references must stay inside
	noExternal bool   // Parse: refuse references to other files

	rootDoc  *document
	docs     map[string]*document
	refs     map[refKey]target
	byNode   map[*yaml.Node]refResult
	ids      map[string]target
	version  int // 2, 30 or 31
	deferred map[string]bool
	schemes  map[string]*SecurityScheme
	tagDesc  map[string]string // top-level tag name -> description

	warnings []Warning
	warned   map[string]bool
	scratch  []byte             // reused to encode each tool's input schema
	closed   map[*yaml.Node]any // converted reference targets that hold no reference
}

func newLoader(ctx context.Context, o Options) *loader {
	l := &loader{
		ctx:      ctx,
		opts:     o,
		docs:     map[string]*document{},
		refs:     map[refKey]target{},
		ids:      map[string]target{},
		deferred: map[string]bool{},
		warned:   map[string]bool{},
		closed:   map[*yaml.Node]any{},
		byNode:   map[*yaml.Node]refResult{},
	}
	for _, d := range o.Deferred {
		l.deferred[d] = true
	}
	return l
}

// warn records a repair at a, positioned at node n when known. The same
// repair reached from several tools is reported once.
func (l *loader) warn(a *loc, n *yaml.Node, msg string) {
	w := Warning{Location: a.pointer(), Message: msg}
	if n != nil {
		w.Line, w.Column = n.Line, n.Column
	}
	key := w.Location + "\x00" + msg
	if l.warned[key] {
		return
	}
	l.warned[key] = true
	l.warnings = append(l.warnings, w)
}

var methods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// operation is one (path key, method) pair found under paths.
type operation struct {
	method  string // upper case
	pathKey string
	item    *yaml.Node // the path item
	node    *yaml.Node // the operation object
	at      *loc
	id      string // operationId
	name    string
	tags    []string
}

func (l *loader) build(source, base string, data []byte) (c *Catalog, err error) {
	defer func() {
		// A bug of the loader must not take the host down with it: the
		// description is reported as unloadable instead.
		if r := recover(); r != nil {
			c, err = nil, &LoadError{Code: CodeInternal, Source: source, Message: fmt.Sprintf("the loader failed on this description (%v); please report it", r)}
		}
	}()
	return l.buildCatalog(source, base, data)
}

func (l *loader) buildCatalog(source, base string, data []byte) (*Catalog, error) {
	root, lerr := l.parseDoc(source, data)
	if lerr != nil {
		return nil, lerr
	}
	doc := &document{base: base, root: root}
	l.rootDoc = doc
	if base != "" {
		l.docs[base] = doc
	}
	notDesc := func(n *yaml.Node, msg string) error {
		return &LoadError{Code: CodeNotDescription, Source: source, Line: n.Line, Column: n.Column, Message: msg}
	}
	if !isMap(root) {
		return nil, notDesc(root, "not an OpenAPI description: the top level is not an object")
	}
	c := &Catalog{}
	if v := get(root, "openapi"); v != nil {
		s, _ := str(v)
		switch {
		case strings.HasPrefix(s, "3.0"):
			l.version = 30
		case strings.HasPrefix(s, "3."):
			l.version = 31
		default:
			return nil, notDesc(v, fmt.Sprintf("unsupported OpenAPI version %q (want 3.0 or 3.1)", s))
		}
		c.OpenAPI = s
	} else if v := get(root, "swagger"); v != nil {
		s, _ := str(v)
		if s != "2.0" {
			return nil, notDesc(v, fmt.Sprintf("unsupported Swagger version %q (want 2.0)", s))
		}
		l.version = 2
		c.OpenAPI = s
	} else {
		return nil, notDesc(root, "not an OpenAPI description: there is no openapi or swagger key")
	}
	paths := get(root, "paths")
	if paths != nil && !isMap(paths) && !isNull(paths) {
		return nil, notDesc(paths, "not an OpenAPI description: paths is not an object")
	}
	top := &loc{doc: doc}
	info := get(root, "info")
	c.Title = bound(strOf(info, "title"), 200)
	c.APIVersion = bound(strOf(info, "version"), 100)
	c.Servers = l.servers(root, source)
	c.SecuritySchemes = l.securitySchemes(root, top)
	if l.version >= 31 && (bytes.Contains(data, []byte("$id")) || bytes.Contains(data, []byte("$anchor"))) {
		l.indexIDs(doc)
	}
	docSecurity := l.security(get(root, "security"), top.child("security"))
	l.tagDesc = tagDescriptions(root)

	ops := l.operations(paths, top.child("paths"))
	assignNames(ops)
	for _, op := range ops {
		if op.id != "" && safeName(op.id) == "" {
			l.warn(op.at.child("operationId"), get(op.node, "operationId"), fmt.Sprintf("operationId %q has no character a tool name may use; named %s from the method and path", op.id, op.name))
		} else if op.id != "" && op.name != safeName(op.id) {
			l.warn(op.at.child("operationId"), get(op.node, "operationId"), fmt.Sprintf("operationId %q is taken by another operation; this one is named %s", op.id, op.name))
		}
	}

	var tools []*Tool
	excluded := map[string]string{}
	for _, op := range ops {
		if reason, drop := l.opts.Filter.drops(op); drop {
			excluded[op.name] = reason
			continue
		}
		t, reason := l.tool(op, docSecurity)
		if t == nil {
			c.Skipped = append(c.Skipped, Skipped{Method: op.method, PathKey: op.pathKey, Reason: reason, Name: op.name})
			excluded[op.name] = "skipped when loading: " + reason
			l.warn(op.at, op.node, "operation skipped: "+reason)
			continue
		}
		tools = append(tools, t)
	}
	c.Warnings = l.warnings
	c.excluded = excluded
	return newCatalog(c, tools), nil
}

// operations lists the operations under paths in document order.
func (l *loader) operations(paths *yaml.Node, at *loc) []*operation {
	var ops []*operation
	pairs(paths, func(key string, kn, item *yaml.Node) bool {
		ia := at.child(key)
		if !strings.HasPrefix(key, "/") {
			if !strings.HasPrefix(key, "x-") {
				l.warn(ia, kn, "a path key must start with '/'; ignored")
			}
			return true
		}
		if r, ok := str(get(item, "$ref")); ok {
			t, err := l.resolve(l.rootDoc, r)
			if err != nil {
				l.warn(ia.child("$ref"), get(item, "$ref"), "path item $ref not followed: "+err.Error())
				return true
			}
			item = t.node
		}
		if !isMap(item) {
			if !isNull(item) {
				l.warn(ia, item, "a path item must be an object; ignored")
			}
			return true
		}
		for _, m := range methods {
			n := get(item, m)
			if n == nil {
				continue
			}
			op := &operation{method: strings.ToUpper(m), pathKey: key, item: item, node: n, at: ia.child(m)}
			if isMap(n) {
				op.id = strings.TrimSpace(strOf(n, "operationId"))
				for _, t := range items(get(n, "tags")) {
					if s, ok := str(t); ok {
						op.tags = append(op.tags, s)
					}
				}
			}
			ops = append(ops, op)
		}
		return true
	})
	return ops
}

// servers returns the base URLs, with Swagger 2.0's host, basePath and
// schemes folded in and server variables replaced by their defaults.
func (l *loader) servers(root *yaml.Node, source string) []string {
	var out []string
	if l.version == 2 {
		host := strOf(root, "host")
		basePath := strOf(root, "basePath")
		if basePath == "/" {
			basePath = ""
		}
		if host == "" {
			if basePath == "" {
				return nil
			}
			return []string{basePath}
		}
		var schemes []string
		for _, s := range items(get(root, "schemes")) {
			if v, ok := str(s); ok && (v == "http" || v == "https") {
				schemes = append(schemes, v)
			}
		}
		if len(schemes) == 0 {
			schemes = []string{"https"}
			if strings.HasPrefix(source, "http://") {
				schemes = []string{"http"}
			}
		}
		for _, s := range schemes {
			out = append(out, s+"://"+host+basePath)
		}
		return out
	}
	return serverURLs(get(root, "servers"))
}

// serverURLs reads a list of Server Objects, replacing each variable with
// its default.
func serverURLs(list *yaml.Node) []string {
	var out []string
	for _, s := range items(list) {
		u, ok := str(get(s, "url"))
		if !ok {
			continue
		}
		pairs(get(s, "variables"), func(name string, _, v *yaml.Node) bool {
			if d, ok := str(get(v, "default")); ok {
				u = strings.ReplaceAll(u, "{"+name+"}", d)
			}
			return true
		})
		out = append(out, u)
	}
	return out
}

// securitySchemes reads components.securitySchemes (securityDefinitions in 2.0).
func (l *loader) securitySchemes(root *yaml.Node, top *loc) map[string]*SecurityScheme {
	out := map[string]*SecurityScheme{}
	var defs *yaml.Node
	var at *loc
	if l.version == 2 {
		defs, at = get(root, "securityDefinitions"), top.child("securityDefinitions")
	} else {
		defs, at = pointer(root, "/components/securitySchemes"), top.child("components").child("securitySchemes")
	}
	pairs(defs, func(name string, _, v *yaml.Node) bool {
		sa := at.child(name)
		if r, ok := str(get(v, "$ref")); ok {
			t, err := l.resolve(l.rootDoc, r)
			if err != nil {
				l.warn(sa, v, "security scheme $ref not followed: "+err.Error())
				return true
			}
			v = t.node
		}
		s := &SecurityScheme{Name: name, Type: strOf(v, "type")}
		switch s.Type {
		case "basic": // Swagger 2.0
			s.Type, s.Scheme = "http", "basic"
		case "apiKey":
			s.In, s.ParamName = strOf(v, "in"), strOf(v, "name")
			if s.ParamName == "" || (s.In != "header" && s.In != "query" && s.In != "cookie") {
				l.warn(sa, v, "an apiKey scheme needs in (header, query or cookie) and name")
			}
		case "http":
			s.Scheme = strings.ToLower(strOf(v, "scheme"))
		case "oauth2", "openIdConnect", "mutualTLS":
		default:
			l.warn(sa, v, fmt.Sprintf("unknown security scheme type %q", s.Type))
		}
		out[name] = s
		return true
	})
	l.schemes = out
	return out
}

// security reads a list of security requirements.
func (l *loader) security(n *yaml.Node, at *loc) []SecurityRequirement {
	var out []SecurityRequirement
	for i, r := range items(n) {
		req := SecurityRequirement{}
		ok := true
		pairs(r, func(name string, kn, scopes *yaml.Node) bool {
			s, found := l.schemes[name]
			if !found {
				l.warn(at.child(itoa(i)).child(name), kn, fmt.Sprintf("security scheme %q is not declared; this alternative is dropped", name))
				ok = false
				return false
			}
			use := SchemeUse{Scheme: s, Name: name}
			for _, sc := range items(scopes) {
				if v, ok := str(sc); ok {
					use.Scopes = append(use.Scopes, v)
				}
			}
			req = append(req, use)
			return true
		})
		if ok {
			sort.Slice(req, func(a, b int) bool { return req[a].Name < req[b].Name })
			out = append(out, req)
		}
	}
	return out
}
