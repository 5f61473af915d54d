package catalog

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// obj is a JSON object that keeps its keys in insertion order, so that
// emitted schemas read in the order the description wrote them and the same
// description always gives the same bytes.
type obj []kv

type kv struct {
	k string
	v any
}

// get returns the value under k.
func (o obj) get(k string) (any, bool) {
	for _, e := range o {
		if e.k == k {
			return e.v, true
		}
	}
	return nil, false
}

// set replaces the value under k, or appends it.
func (o obj) set(k string, v any) obj {
	for i := range o {
		if o[i].k == k {
			o[i].v = v
			return o
		}
	}
	return append(o, kv{k, v})
}

// del removes k.
func (o obj) del(k string) obj {
	for i := range o {
		if o[i].k == k {
			return append(o[:i:i], o[i+1:]...)
		}
	}
	return o
}

// MarshalJSON encodes o with its keys in order.
func (o obj) MarshalJSON() ([]byte, error) { return appendJSON(nil, o), nil }

// appendJSON appends the JSON encoding of v, one of the values the loader
// builds: nil, bool, string, number, json.RawMessage, obj, []any, []string.
func appendJSON(b []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, v)
	case string:
		return appendString(b, v)
	case number:
		return append(b, v...)
	case int:
		return strconv.AppendInt(b, int64(v), 10)
	case json.RawMessage:
		return append(b, v...)
	case obj:
		b = append(b, '{')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, e.k)
			b = append(b, ':')
			b = appendJSON(b, e.v)
		}
		return append(b, '}')
	case []any:
		return appendList(b, v, appendJSON)
	case []string:
		return appendList(b, v, appendString)
	}
	return append(b, "null"...) // unreachable: the loader builds only the types above
}

// appendList appends a JSON array whose elements appendElem encodes.
func appendList[T any](b []byte, list []T, appendElem func([]byte, T) []byte) []byte {
	b = append(b, '[')
	for i, e := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendElem(b, e)
	}
	return append(b, ']')
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string, replacing invalid UTF-8. Unlike
// encoding/json it leaves <, > and & alone: schemas are read by models and
// people, not embedded in HTML.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}
