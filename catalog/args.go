package catalog

import (
	"strings"
)

// typeFacts is what the binding records of an argument's schema.
type typeFacts struct {
	typ      string
	nullable bool
	items    string
	isMap    bool
}

// lookDefs follows a "#/$defs/Name" reference into defs.
func lookDefs(s any, defs obj) any {
	for i := 0; i < 8; i++ {
		o, ok := s.(obj)
		if !ok {
			return s
		}
		r, ok := o.get("$ref")
		if !ok {
			return s
		}
		name, _ := r.(string)
		d, ok := defs.get(strings.TrimPrefix(name, "#/$defs/"))
		if !ok {
			return s
		}
		s = d
	}
	return s
}

// typeInfo reads the decided type of a converted schema: a single type, or
// a single type with "null" (nullable). A type left open by composition is
// empty, except that anyOf [X, {type: null}] (a nullable reference) is X.
func typeInfo(s any, defs obj) typeFacts { return typeInfoAt(s, defs, 0) }

// typeInfoAt is typeInfo at a nesting depth; recursive schemas stop it.
func typeInfoAt(s any, defs obj, depth int) typeFacts {
	if depth > 8 {
		return typeFacts{}
	}
	s = lookDefs(s, defs)
	o, ok := s.(obj)
	if !ok {
		return typeFacts{}
	}
	var f typeFacts
	switch t, _ := o.get("type"); t := t.(type) {
	case string:
		f.typ = t
	case []any:
		var non []string
		for _, e := range t {
			if e == "null" {
				f.nullable = true
			} else if s, ok := e.(string); ok {
				non = append(non, s)
			}
		}
		if len(non) == 1 {
			f.typ = non[0]
		}
	case nil:
		if alts, ok := o.get("anyOf"); ok {
			if list, ok := alts.([]any); ok && len(list) == 2 {
				if n, ok := list[1].(obj); ok && len(n) == 1 {
					if t, _ := n.get("type"); t == "null" {
						inner := typeInfoAt(list[0], defs, depth+1)
						inner.nullable = true
						return inner
					}
				}
			}
		}
		if _, ok := o.get("properties"); ok {
			f.typ = "object"
		}
	}
	switch f.typ {
	case "array":
		if it, ok := o.get("items"); ok {
			f.items = typeInfoAt(it, defs, depth+1).typ
		}
	case "object":
		_, props := o.get("properties")
		ap, hasAP := o.get("additionalProperties")
		f.isMap = !props && hasAP && ap != false
	}
	return f
}

// enumStrings renders a schema's enum values as strings.
func enumStrings(s any) []string {
	o, ok := s.(obj)
	if !ok {
		return nil
	}
	e, ok := o.get("enum")
	if !ok {
		return nil
	}
	list, _ := e.([]any)
	out := make([]string, 0, len(list))
	for _, v := range list {
		switch v := v.(type) {
		case string:
			out = append(out, v)
		case nil:
			out = append(out, "null")
		default:
			out = append(out, string(appendJSON(nil, v)))
		}
	}
	return out
}

func isDeprecated(s any) bool {
	o, ok := s.(obj)
	if !ok {
		return false
	}
	d, _ := o.get("deprecated")
	return d == true
}

// pagingNames are the argument names (lower case, without '_', '-', '$'
// and '[]') that narrow a response: page size and position, cursors,
// time windows, field selection and free-text or structured filters.
var pagingNames = map[string]bool{
	"limit": true, "perpage": true, "page": true, "pagesize": true, "pagenumber": true, "pagetoken": true,
	"pagelimit": true, "nextpagetoken": true, "cursor": true, "offset": true, "startingafter": true,
	"endingbefore": true, "fields": true, "field": true, "select": true, "q": true, "query": true,
	"since": true, "until": true, "before": true, "after": true, "top": true, "skip": true, "maxresults": true,
	"count": true, "size": true, "start": true, "marker": true, "continuationtoken": true, "include": true,
	"exclude": true, "expand": true, "search": true, "sinceid": true, "maxid": true,
}

var pagingStrip = strings.NewReplacer("_", "", "-", "", "$", "", "[]", "", ".", "")

// isPaging reports whether an argument narrows a response, judged by its
// name: a name in pagingNames once lower-cased and stripped of '_', '-',
// '$' and '[]', or one that starts with "filter" or ends with "filter".
func isPaging(name string) bool {
	n := pagingStrip.Replace(strings.ToLower(name))
	return pagingNames[n] || strings.HasPrefix(n, "filter") || strings.HasSuffix(n, "filter")
}
