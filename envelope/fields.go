package envelope

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/sezzlee/sezzlee/leak"
)

// maxFields bounds the fields taken from one validation body.
const maxFields = 100

// object is a JSON object that keeps its members in the order the backend
// sent them: a validation body's map of field to messages is in the
// backend's order, and the agent reads the fields in that order.
type object []member

type member struct {
	key string
	val any
}

// get returns the value of the first member named key, or nil.
func (o object) get(key string) any {
	for _, m := range o {
		if m.key == key {
			return m.val
		}
	}
	return nil
}

// errTooDeep stops a body nested deeper than any validation body is.
var errTooDeep = errors.New("envelope: JSON nested too deeply")

// decodeOrdered decodes one JSON value into object, []any, string,
// json.Number, bool or nil.
func decodeOrdered(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("envelope: data after the JSON value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder, depth int) (any, error) {
	if depth > 32 {
		return nil, errTooDeep
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return tok, nil
	}
	switch d {
	case '{':
		o := object{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k, _ := kt.(string)
			v, err := decodeValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			o = append(o, member{k, v})
		}
		_, err := dec.Token()
		return o, err
	case '[':
		a := []any{}
		for dec.More() {
			v, err := decodeValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.Token()
		return a, err
	}
	return nil, errors.New("envelope: unexpected delimiter")
}

// rawField is a field as the backend named it, before mapping.
type rawField struct {
	// raw is the name as sent, when it was one string; an argument may
	// be named exactly that (a query parameter "page[size]").
	raw  string
	path []string
	msg  string
	// prose is set for bodies whose messages omit the field's name
	// (Rails: "must be less than 101"), so the name is put in front.
	prose bool
}

// extractFields finds the field-level failures in a validation body, in
// the backend's order, and maps their names to the agent's arguments.
func extractFields(root any, args []string, bodyRenames map[string]string) []Field {
	var raw []rawField
	switch v := root.(type) {
	case object:
		raw = fieldsOfObject(v)
	case []any:
		raw = fieldsOfItems(v)
	}
	var out []Field
	for _, f := range raw {
		if len(out) == maxFields {
			break
		}
		name, ok := renamedBodyField(f.path, bodyRenames)
		if !ok {
			name, ok = matchArgument(f.raw, args)
		}
		if !ok {
			name = mapName(f.path, args)
		}
		if name == "" || len(name) > 200 {
			continue
		}
		if _, withheld := leak.Filter(name); withheld {
			continue
		}
		// Filter first: the name in front would hide a frame that starts
		// the message from the filter's line rules.
		msg := leak.Clean(strings.TrimSpace(f.msg))
		if msg == "" {
			msg = "is invalid"
		}
		if f.prose && needsName(msg, name) {
			msg = name + " " + msg
		}
		out = append(out, Field{Name: name, Message: msg})
	}
	return out
}

// fieldsOfObject recognises the validation bodies of the frameworks in
// turn. The order matters where two share a key: an "errors" map (ASP.NET,
// Rails, Laravel) before an "errors" list (huma, Spring, express-validator,
// JSON:API), then FastAPI's "detail", NestJS's "message" list, Prism's
// "validation" and the lists other problem bodies use.
func fieldsOfObject(o object) []rawField {
	switch errs := o.get("errors").(type) {
	case object:
		return fieldsOfMap(errs)
	case []any:
		return fieldsOfItems(errs)
	}
	if d, ok := o.get("detail").([]any); ok {
		return fieldsOfItems(d)
	}
	if m, ok := o.get("message").([]any); ok {
		return fieldsOfSentences(m)
	}
	for _, k := range []string{"validation", "violations", "fieldErrors", "invalid-params", "invalid_params", "validationErrors"} {
		if items, ok := o.get(k).([]any); ok {
			return fieldsOfItems(items)
		}
	}
	if m, ok := o.get("error").(object); ok {
		return fieldsOfObject(m)
	}
	if isMessageMap(o) {
		// Rails' default: the model's errors as the whole body.
		return fieldsOfMap(o)
	}
	return nil
}

// isMessageMap reports whether every member of o is a list of strings.
func isMessageMap(o object) bool {
	if len(o) == 0 {
		return false
	}
	for _, m := range o {
		list, ok := m.val.([]any)
		if !ok || len(list) == 0 {
			return false
		}
		for _, v := range list {
			if _, ok := v.(string); !ok {
				return false
			}
		}
	}
	return true
}

// fieldsOfMap reads a map of field to messages (a list of strings, one
// string, or a list of objects with a message).
func fieldsOfMap(o object) []rawField {
	var out []rawField
	for _, m := range o {
		path := splitPath(m.key)
		switch v := m.val.(type) {
		case string:
			out = append(out, rawField{raw: m.key, path: path, msg: v, prose: true})
		case []any:
			for _, item := range v {
				switch it := item.(type) {
				case string:
					out = append(out, rawField{raw: m.key, path: path, msg: it, prose: true})
				case object:
					if msg := firstString(it, messageKeys...); msg != "" {
						out = append(out, rawField{raw: m.key, path: path, msg: msg, prose: true})
					}
				}
			}
		}
	}
	return out
}

// nameKeys and messageKeys are where list items keep a field's name and
// message, by framework.
var (
	nameKeys = []string{
		"path", "param", // express-validator 7, 6
		"field",                    // Spring Boot, many hand-written APIs
		"loc",                      // FastAPI, pydantic
		"location",                 // huma ("body.quantity"), Prism (["body","quantity"])
		"propertyPath",             // Symfony, Zalando problem
		"instancePath", "dataPath", // ajv
		"property", "name", "key", "attribute", "pointer", "parameter",
	}
	messageKeys = []string{"msg", "message", "defaultMessage", "detail", "reason", "title", "description", "error"}
)

// fieldsOfItems reads a list of violation objects.
func fieldsOfItems(items []any) []rawField {
	var out []rawField
	for _, item := range items {
		switch it := item.(type) {
		case object:
			raw, path := itemPath(it)
			msg := firstString(it, messageKeys...)
			if m := requiredProperty.FindStringSubmatch(msg); m != nil && (len(path) == 0 || path[len(path)-1] != m[1]) {
				// ajv and Prism report a missing property at its parent.
				raw, path = "", append(path, m[1])
			}
			if len(path) == 0 || msg == "" {
				continue
			}
			out = append(out, rawField{raw: raw, path: path, msg: msg})
		}
		// A bare string in a list ("errors": ["Not found"]) names no
		// field; it is not taken apart.
	}
	return out
}

// requiredProperty is ajv's message for a missing property.
var requiredProperty = regexp.MustCompile(`^must have required property '([^']+)'$`)

// itemPath finds a violation's field in a list item: the name as sent
// when it was one string, and its path.
func itemPath(it object) (string, []string) {
	if src, ok := it.get("source").(object); ok {
		// JSON:API: a pointer into the document, or a query parameter.
		if p := firstString(src, "pointer", "parameter", "header"); p != "" {
			return p, splitPath(p)
		}
	}
	for _, k := range nameKeys {
		switch v := it.get(k).(type) {
		case string:
			if v == "" && (k == "instancePath" || k == "dataPath") {
				// ajv reports a missing property at the parent.
				if p, ok := it.get("params").(object); ok {
					if m, ok := p.get("missingProperty").(string); ok {
						return m, splitPath(m)
					}
				}
			}
			if strings.TrimSpace(v) != "" {
				return v, splitPath(v)
			}
		case []any:
			var path []string
			for _, seg := range v {
				switch s := seg.(type) {
				case string:
					path = append(path, s)
				case json.Number:
					path = append(path, s.String())
				}
			}
			if len(path) > 0 {
				return "", path
			}
		}
	}
	return "", nil
}

// fieldsOfSentences reads NestJS class-validator messages, each starting
// with the field's name ("quantity must not be greater than 100").
func fieldsOfSentences(list []any) []rawField {
	var out []rawField
	for _, v := range list {
		s, ok := v.(string)
		if !ok {
			continue
		}
		s = strings.TrimSpace(s)
		var name string
		if rest, ok := strings.CutPrefix(s, "property "); ok && strings.HasSuffix(s, " should not exist") {
			// forbidNonWhitelisted names the unknown property second.
			name, _, _ = strings.Cut(rest, " ")
		} else {
			name, _, _ = strings.Cut(s, " ")
		}
		// Property names start in lower case; "Not found" is no field.
		if name == "" || name == s || !identifierish(name) || !unicode.IsLower([]rune(name)[0]) {
			continue
		}
		out = append(out, rawField{raw: name, path: splitPath(name), msg: s})
	}
	return out
}

// identifierish reports whether s can be a field path: letters, digits
// and the path punctuation, starting with a letter.
func identifierish(s string) bool {
	for i, c := range s {
		switch {
		case unicode.IsLetter(c), c == '_':
		case i > 0 && (unicode.IsDigit(c) || strings.ContainsRune(".[]-$", c)):
		default:
			return false
		}
	}
	return true
}

// firstString returns the first non-empty string among o's keys.
func firstString(o object, keys ...string) string {
	for _, k := range keys {
		if s, ok := o.get(k).(string); ok && strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

// splitPath splits a field's name as a backend writes it: a JSON pointer
// (/data/attributes/quantity), a JSONPath ($.items[0].quantity) or a
// dotted path (body.quantity, Items[0].Quantity).
func splitPath(s string) []string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "/") || strings.HasPrefix(s, "#/") {
		s = strings.TrimPrefix(strings.TrimPrefix(s, "#"), "/")
		var out []string
		for _, seg := range strings.Split(s, "/") {
			seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
			if seg != "" {
				out = append(out, seg)
			}
		}
		return out
	}
	s = strings.TrimPrefix(s, "$")
	s = strings.ReplaceAll(s, "[", ".")
	s = strings.ReplaceAll(s, "]", "")
	var out []string
	for _, seg := range strings.Split(s, ".") {
		seg = strings.Trim(seg, `'"`)
		if seg != "" {
			out = append(out, seg)
		}
	}
	return out
}

// containers are path segments that say where a field travelled, not
// which field it is.
var containers = map[string]bool{
	"body": true, "query": true, "path": true, "header": true, "headers": true,
	"cookie": true, "cookies": true, "params": true, "request": true, "requestbody": true,
	"form": true, "formdata": true, "data": true, "attributes": true, "json": true,
	"payload": true, "input": true,
}

// mapName maps a backend's field path to the agent's argument name: the
// first segment, past containers and one wrapper name, matching an argument (exactly, then ignoring case, then
// ignoring snake_case and camelCase differences) becomes that argument and
// the rest of the path follows it; an unmatched path keeps its cleaned
// name, without the containers in front.
func mapName(path []string, args []string) string {
	if len(path) == 0 {
		return ""
	}
	wrapper := false
	for i, seg := range path {
		if a, ok := matchArgument(seg, args); ok {
			return joinPath(a, path[i+1:])
		}
		if containers[strings.ToLower(seg)] {
			continue
		}
		// One wrapper may precede the field (ASP.NET's "order.Quantity",
		// the action's parameter name); past it the path is nested and a
		// top-level argument of the same name would be a different field.
		if wrapper {
			break
		}
		wrapper = true
	}
	for len(path) > 1 && containers[strings.ToLower(path[0])] {
		path = path[1:]
	}
	return joinPath(path[0], path[1:])
}

// bodySegments are the path segments that say a field is in the request body.
var bodySegments = map[string]bool{"body": true, "requestbody": true, "json": true, "form": true, "formdata": true, "payload": true}

// renamedBodyField maps a path that names the request body (body.id,
// /body/id) and then a renamed property to that property's argument.
func renamedBodyField(path []string, renames map[string]string) (string, bool) {
	if len(renames) == 0 || len(path) < 2 || !bodySegments[strings.ToLower(path[0])] {
		return "", false
	}
	a, ok := renames[path[1]]
	if !ok {
		return "", false
	}
	return joinPath(a, path[2:]), true
}

// joinPath writes a path as items[0].quantity.
func joinPath(head string, rest []string) string {
	var b strings.Builder
	b.WriteString(head)
	for _, seg := range rest {
		if _, err := strconv.Atoi(seg); err == nil {
			b.WriteString("[" + seg + "]")
			continue
		}
		b.WriteString("." + seg)
	}
	return b.String()
}

// matchArgument finds the argument a backend's field name stands for.
func matchArgument(name string, args []string) (string, bool) {
	for _, a := range args {
		if a == name {
			return a, true
		}
	}
	for _, a := range args {
		if strings.EqualFold(a, name) {
			return a, true
		}
	}
	n := fold(name)
	for _, a := range args {
		if fold(a) == n {
			return a, true
		}
	}
	return "", false
}

// fold makes unit_price, unitPrice and Unit-Price equal.
func fold(s string) string {
	return strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(s))
}

// needsName reports whether a message reads as a sentence only once its
// field's name is put in front: it starts in lower case and does not
// mention the field.
func needsName(msg, name string) bool {
	if msg == "" {
		return false
	}
	first := []rune(msg)[0]
	if !unicode.IsLower(first) {
		return false
	}
	lower := strings.ToLower(msg)
	base := name
	if i := strings.IndexAny(base, ".["); i > 0 {
		base = base[:i]
	}
	for _, form := range []string{strings.ToLower(base), strings.ReplaceAll(strings.ToLower(base), "_", " "), fold(base)} {
		if strings.Contains(lower, form) {
			return false
		}
	}
	return true
}
