package invoke

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"mime"
	"mime/multipart"
	"net/textproto"
	"strings"

	"github.com/sezzlee/sezzlee/catalog"
	"github.com/sezzlee/sezzlee/envelope"
)

// body serialises the request body in the binding's media type. It returns
// nil when the request has no body.
func (b *builder) body() ([]byte, string) {
	bb := b.tool.Binding.Body
	if bb == nil {
		return nil, ""
	}
	media := strings.ToLower(bb.MediaType)
	if m, _, err := mime.ParseMediaType(media); err == nil {
		media = m
	}
	if bb.Whole {
		return b.wholeBody(bb, media)
	}
	var props []*catalog.ArgBinding
	for i := range b.tool.Binding.Args {
		ab := &b.tool.Binding.Args[i]
		if ab.In != catalog.InBody {
			continue
		}
		if _, ok := b.value(ab); ok && !b.bad[ab.Name] {
			props = append(props, ab)
		}
	}
	if len(props) == 0 && !bb.Required {
		return nil, ""
	}
	switch {
	case media == "application/x-www-form-urlencoded":
		var q []byte
		for _, ab := range props {
			if v, _ := b.value(ab); v != nil {
				q = b.appendFormProperty(q, ab, v)
			}
		}
		return q, media
	case media == "multipart/form-data":
		return b.multipart(props)
	default: // JSON, and any other structured type the catalog let through
		obj := make(map[string]any, len(props))
		for _, ab := range props {
			v, _ := b.value(ab)
			if fs := b.files[ab.Name]; fs != nil {
				v = fileJSON(fs, v)
			}
			obj[ab.Wire] = v
		}
		j, err := json.Marshal(obj)
		if err != nil {
			b.fail(envelope.InvalidType, "", "The arguments cannot be encoded as JSON.")
			return nil, ""
		}
		if !isJSON(media) {
			media = "application/json"
		}
		return j, media
	}
}

// appendFormProperty writes one property of a urlencoded body. Its style
// comes from the encoding object; nested objects and arrays under
// deepObject are written as Stripe reads them (a[b]=1&a[c][0]=x).
func (b *builder) appendFormProperty(q []byte, ab *catalog.ArgBinding, v any) []byte {
	if fs := b.files[ab.Name]; fs != nil {
		return appendPair(q, ab.Wire, string(fs[0].Content), false)
	}
	if ab.Style == "deepObject" {
		return appendDeep(q, ab.Wire, v)
	}
	return appendQuery(q, ab, v)
}

func (b *builder) wholeBody(bb *catalog.BodyBinding, media string) ([]byte, string) {
	v, ok := b.args[catalog.WholeBodyArgument]
	if !ok || b.bad[catalog.WholeBodyArgument] {
		if bb.Required {
			if isJSON(media) {
				return nil, "" // the backend judges the missing body
			}
		}
		return nil, ""
	}
	if fs := b.files[catalog.WholeBodyArgument]; fs != nil {
		f := fs[0]
		ct := bb.MediaType
		if strings.Contains(ct, "*") || ct == "" {
			ct = f.ContentType
			if ct == "" {
				ct = "application/octet-stream"
			}
		}
		return f.Content, ct
	}
	if isJSON(media) {
		j, err := json.Marshal(v)
		if err != nil {
			b.fail(envelope.InvalidType, catalog.WholeBodyArgument, "Argument 'body' cannot be encoded as JSON.")
			return nil, ""
		}
		return j, bb.MediaType
	}
	if s, ok := v.(string); ok {
		return []byte(s), bb.MediaType
	}
	b.fail(envelope.InvalidType, catalog.WholeBodyArgument, "Argument 'body' must be a string for a %s body.", media)
	return nil, ""
}

func isJSON(media string) bool {
	return media == "application/json" || strings.HasSuffix(media, "+json")
}

// fileJSON puts a file into a JSON body as base64 text.
func fileJSON(fs []*File, v any) any {
	if _, many := v.([]any); many {
		out := make([]any, len(fs))
		for i, f := range fs {
			out[i] = base64.StdEncoding.EncodeToString(f.Content)
		}
		return out
	}
	return base64.StdEncoding.EncodeToString(fs[0].Content)
}

// multipart writes a multipart/form-data body: a part per scalar, one part
// per item of an array, objects as JSON parts, files with their names and
// media types. A part's media type comes from the encoding object when it
// names one.
func (b *builder) multipart(props []*catalog.ArgBinding) ([]byte, string) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	part := func(ab *catalog.ArgBinding, filename, ct string, data []byte) {
		h := make(textproto.MIMEHeader, 2)
		disp := `form-data; name="` + quote(ab.Wire) + `"`
		if filename != "" || ab.File {
			disp += `; filename="` + quote(filename) + `"`
		}
		h.Set("Content-Disposition", disp)
		if ct != "" {
			h.Set("Content-Type", ct)
		}
		pw, _ := w.CreatePart(h) // writes to a bytes.Buffer cannot fail
		pw.Write(data)
	}
	for _, ab := range props {
		if unsafeHeader(ab.Wire) {
			b.fail(envelope.HeaderInjection, ab.Name, "The part name for argument '%s' contains a line break.", ab.Name)
			continue
		}
		v, _ := b.value(ab)
		if fs := b.files[ab.Name]; fs != nil {
			for _, f := range fs {
				ct := f.ContentType
				if ct == "" {
					ct = ab.ContentType
				}
				if ct == "" || strings.Contains(ct, "*") || strings.Contains(ct, ",") {
					ct = "application/octet-stream"
				}
				part(ab, f.Name, ct, f.Content)
			}
			continue
		}
		items := []any{v}
		if list, ok := v.([]any); ok {
			items = list
		}
		for _, it := range items {
			switch x := it.(type) {
			case nil:
			case map[string]any, []any:
				j, _ := json.Marshal(x)
				ct := ab.ContentType
				if ct == "" {
					ct = "application/json"
				}
				part(ab, "", ct, j)
			default:
				part(ab, "", ab.ContentType, []byte(scalar(x)))
			}
		}
	}
	w.Close()
	return buf.Bytes(), w.FormDataContentType()
}

var quoter = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

func quote(s string) string { return quoter.Replace(s) }
