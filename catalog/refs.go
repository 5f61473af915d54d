package catalog

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// document is one parsed file or URL of a description.
type document struct {
	// name is how warnings name the document: "" for the root, otherwise
	// the path relative to the root's folder, or the URL.
	name string
	// base is the absolute path or URL references resolve against; "" for
	// a description given as bytes.
	base string
	root *yaml.Node
}

// loc is a position in a document, as a chain of JSON pointer segments
// built only when a warning needs it.
type loc struct {
	doc    *document
	parent *loc
	seg    string
	// ptr, when set, is the whole pointer and parent and seg are unused.
	ptr string
}

func (a *loc) child(seg string) *loc { return &loc{doc: a.doc, parent: a, seg: seg} }

// pointer renders the location as "#/a/b", prefixed by the document name
// when it is not the root document.
func (a *loc) pointer() string {
	var segs []string
	p := a
	for ; p != nil && p.ptr == "" && p.parent != nil; p = p.parent {
		segs = append(segs, pointerEscape(p.seg))
	}
	var b strings.Builder
	if a.doc != nil {
		b.WriteString(a.doc.name)
	}
	b.WriteString("#")
	if p != nil {
		b.WriteString(p.ptr)
	}
	for i := len(segs) - 1; i >= 0; i-- {
		b.WriteByte('/')
		b.WriteString(segs[i])
	}
	return b.String()
}

// target is what a reference resolves to.
type target struct {
	doc  *document
	node *yaml.Node
	ptr  string // JSON pointer of node within doc
	name string // a readable name: the last segment of the reference
}

type refKey struct {
	doc *document
	ref string
}

// idBase is the base URI $id values and references by $id resolve against.
var idBase = &url.URL{Scheme: "https", Host: "sezzlee.invalid", Path: "/"}

// maxDocuments bounds how many files and URLs one description may pull in.
const maxDocuments = 64

// refResult is a resolved reference, or why it did not resolve.
type refResult struct {
	t   target
	err error
}

// resolveNode resolves the reference whose $ref value is node r, written
// in document from. It is resolve with a cache keyed by the node, which
// the schema walks hit for every reference of every tool.
func (l *loader) resolveNode(from *document, r *yaml.Node) (target, error) {
	if res, ok := l.byNode[r]; ok {
		return res.t, res.err
	}
	ref, _ := str(r)
	t, err := l.resolve(from, ref)
	l.byNode[r] = refResult{t, err}
	return t, err
}

// resolve returns the target of reference ref written in document from.
func (l *loader) resolve(from *document, ref string) (target, error) {
	k := refKey{from, ref}
	if t, ok := l.refs[k]; ok {
		return t, nil
	}
	t, err := l.resolveUncached(from, ref)
	if err != nil {
		return t, err
	}
	l.refs[k] = t
	return t, nil
}

func (l *loader) resolveUncached(from *document, ref string) (target, error) {
	file, frag, _ := strings.Cut(ref, "#")
	doc := from
	if file != "" {
		if t, ok := l.byID(ref); ok {
			return t, nil
		}
		if t, ok := l.byID(file); ok {
			if frag == "" {
				return t, nil
			}
			if !strings.HasPrefix(frag, "/") {
				return target{}, fmt.Errorf("anchor %q is not defined", frag)
			}
			n := pointer(t.node, frag)
			if n == nil {
				return target{}, fmt.Errorf("%q does not resolve", ref)
			}
			return target{doc: t.doc, node: n, ptr: t.ptr + frag, name: lastSegment(frag)}, nil
		}
		d, err := l.external(from, file)
		if err != nil {
			return target{}, err
		}
		doc = d
	}
	switch {
	case frag == "" || frag == "/":
		return target{doc: doc, node: doc.root, ptr: "", name: strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))}, nil
	case strings.HasPrefix(frag, "/"):
		p, err := url.PathUnescape(frag)
		if err != nil {
			p = frag
		}
		n := pointer(doc.root, p)
		if n == nil {
			return target{}, fmt.Errorf("%q does not resolve", ref)
		}
		return target{doc: doc, node: n, ptr: p, name: lastSegment(p)}, nil
	default:
		if t, ok := l.byID("#" + frag); ok && doc == l.rootDoc {
			return t, nil
		}
		return target{}, fmt.Errorf("anchor %q is not defined", frag)
	}
}

func lastSegment(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return pointerUnescape(p[i+1:])
	}
	return p
}

// byID looks a reference up among the $id and $anchor values of the
// description's schemas (OpenAPI 3.1).
func (l *loader) byID(ref string) (target, bool) {
	if len(l.ids) == 0 {
		return target{}, false
	}
	u, err := url.Parse(ref)
	if err != nil {
		return target{}, false
	}
	t, ok := l.ids[idBase.ResolveReference(u).String()]
	return t, ok
}

// indexIDs records the $id and $anchor of every schema under
// components/schemas, so that references by $id resolve.
func (l *loader) indexIDs(doc *document) {
	schemas := pointer(doc.root, "/components/schemas")
	if !isMap(schemas) {
		return
	}
	var path []string // JSON pointer segments of the node being walked
	ptr := func() string {
		var b strings.Builder
		for _, s := range path {
			b.WriteByte('/')
			b.WriteString(pointerEscape(s))
		}
		return b.String()
	}
	var walk func(n *yaml.Node, base *url.URL, depth int)
	walk = func(n *yaml.Node, base *url.URL, depth int) {
		if depth > l.opts.MaxDepth {
			return
		}
		switch n.Kind {
		case yaml.MappingNode:
			if id, ok := str(get(n, "$id")); ok {
				if u, err := url.Parse(id); err == nil {
					base = base.ResolveReference(u)
					base.Fragment = ""
					l.ids[base.String()] = target{doc: doc, node: n, ptr: ptr(), name: lastSegment(base.Path)}
				}
			}
			if a, ok := str(get(n, "$anchor")); ok {
				u := *base
				u.Fragment = a
				l.ids[u.String()] = target{doc: doc, node: n, ptr: ptr(), name: a}
			}
			for i := 0; i+1 < len(n.Content); i += 2 {
				switch k := n.Content[i].Value; k {
				case "example", "examples", "enum", "const", "default":
				default:
					path = append(path, k)
					walk(n.Content[i+1], base, depth+1)
					path = path[:len(path)-1]
				}
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				path = append(path, strconv.Itoa(i))
				walk(c, base, depth+1)
				path = path[:len(path)-1]
			}
		}
	}
	path = append(path, "components", "schemas", "")
	pairs(schemas, func(k string, _, v *yaml.Node) bool {
		path[2] = k
		walk(v, idBase, 0)
		return true
	})
}

// errExternalRefused explains why a reference to another file was not followed.
var errExternalRefused = errors.New("references to other files are not followed for a description given as bytes")

// external loads the file or URL named by a reference, relative to from.
func (l *loader) external(from *document, file string) (*document, error) {
	if l.noExternal || from.base == "" {
		return nil, errExternalRefused
	}
	var key string
	remote := isURL(from.base) || isURL(file)
	if remote {
		b, err := url.Parse(from.base)
		if err != nil {
			return nil, err
		}
		u, err := url.Parse(file)
		if err != nil {
			return nil, fmt.Errorf("%q is not a valid reference", file)
		}
		r := b.ResolveReference(u)
		if r.Scheme != "http" && r.Scheme != "https" {
			return nil, fmt.Errorf("%q is not an http(s) URL", r.Redacted())
		}
		r.Fragment = ""
		key = r.String()
	} else {
		if strings.Contains(file, "://") || strings.HasPrefix(file, "file:") {
			return nil, fmt.Errorf("%q: only relative file references and http(s) URLs are followed", file)
		}
		p, err := url.PathUnescape(file)
		if err != nil {
			p = file
		}
		p = filepath.FromSlash(p)
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(from.base), p)
		}
		p = filepath.Clean(p)
		if !within(l.rootDir, p) {
			return nil, fmt.Errorf("%q is outside the description's folder", file)
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			return nil, fmt.Errorf("%q cannot be read: %s", file, plainErr(err))
		}
		if !within(l.rootDir, real) {
			return nil, fmt.Errorf("%q links outside the description's folder", file)
		}
		key = real
	}
	if d, ok := l.docs[key]; ok {
		return d, nil
	}
	if len(l.docs) >= maxDocuments {
		return nil, fmt.Errorf("more than %d files referenced", maxDocuments)
	}
	var data []byte
	var err error
	name := key
	if remote {
		data, err = l.fetch(key)
	} else {
		if st, serr := os.Stat(key); serr == nil && !st.Mode().IsRegular() {
			return nil, fmt.Errorf("%q is not a regular file", file)
		}
		data, err = readFile(key, l.opts.MaxBytes)
		if rel, rerr := filepath.Rel(l.rootDir, key); rerr == nil {
			name = filepath.ToSlash(rel)
		}
	}
	if err != nil {
		if errors.Is(err, errTooLarge) {
			return nil, fmt.Errorf("%q is larger than %d bytes", file, l.opts.MaxBytes)
		}
		return nil, fmt.Errorf("%q cannot be read: %s", file, plainErr(err))
	}
	root, lerr := l.parseDoc(name, data)
	if lerr != nil {
		return nil, fmt.Errorf("%q: %s", file, lerr.Error())
	}
	d := &document{name: name, base: key, root: root}
	l.docs[key] = d
	return d, nil
}

// within reports whether path p lies inside folder dir.
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
