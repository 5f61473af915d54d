package catalog

import (
	"reflect"
	"strings"
	"testing"
)

func TestNames(t *testing.T) {
	c := loadFixture(t, "names-oas30.yaml", nil)
	tests := []struct{ method, pathKey, want string }{
		{"GET", "/user/{userId}/settings", "get_user_userId_settings"},
		{"PUT", "/files/{file_id}#add_shared_link", "put_files_file_id_add_shared_link"},
		{"PUT", "/files/{file_id}#remove_shared_link", "put_files_file_id_remove_shared_link"},
		{"POST", "/threads?beta=true", "post_threads_beta_true"},
		{"GET", "/a", "list_things_all_v2"},
		{"POST", "/a", "dup"},
		{"POST", "/b", "dup_3"}, // dup_2 is the operationId of POST /c
		{"POST", "/c", "dup_2"},
		{"GET", "/d", "aVeryLongOperationIdentifierThatGoesOnAndOnBeyondTheSix_0e41d070"},
		{"GET", "/e", "get_e"}, // an operationId with nothing usable left
	}
	byKey := map[string]string{}
	for _, tool := range c.Tools() {
		byKey[tool.Method+" "+tool.PathKey] = tool.Name
		if !namePattern.MatchString(tool.Name) {
			t.Errorf("name %q does not match %s", tool.Name, namePattern)
		}
	}
	for _, tt := range tests {
		if got := byKey[tt.method+" "+tt.pathKey]; got != tt.want {
			t.Errorf("%s %s: name %q, want %q", tt.method, tt.pathKey, got, tt.want)
		}
	}
	if len(byKey) != len(tests) {
		t.Errorf("got %d tools, want %d", len(byKey), len(tests))
	}
	if !hasWarning(c, "/paths/~1b/post/operationId", `operationId "dup" is taken by another operation; this one is named dup_3`) {
		t.Errorf("no warning for the repeated operationId: %v", c.Warnings)
	}
	thread := mustTool(t, c, "post_threads_beta_true")
	if got := thread.Binding.FixedQuery; !reflect.DeepEqual(got, []QueryPair{{"beta", "true"}}) || thread.Binding.Path != "/threads" {
		t.Errorf("?beta=true: path %q, fixed query %v; want /threads and beta=true", thread.Binding.Path, got)
	}
	if p := mustTool(t, c, "put_files_file_id_add_shared_link").Binding.Path; p != "/files/{file_id}" {
		t.Errorf("#fragment: binding path %q, want /files/{file_id}", p)
	}
}

func TestSafeName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"getPet", "getPet"},
		{"repos/get-content", "repos_get-content"},
		{"  a  b  ", "a_b"},
		{"__x__", "x"},
		{"é", ""},
		{"a.b.c", "a_b_c"},
		{strings.Repeat("a", 64), strings.Repeat("a", 64)},
	}
	for _, tt := range tests {
		if got := safeName(tt.in); got != tt.want {
			t.Errorf("safeName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	long := safeName(strings.Repeat("b", 100))
	if len(long) != 64 || !namePattern.MatchString(long) || long == safeName(strings.Repeat("b", 101)) {
		t.Errorf("long names: %q (len %d) must be 64 long, valid and distinct per id", long, len(long))
	}
}

func TestCredentialsAreNotArguments(t *testing.T) {
	c := loadFixture(t, "names-oas30.yaml", nil)
	tool := mustTool(t, c, "get_user_userId_settings")
	if p := props(t, tool); len(p) != 1 || p["userId"] == nil {
		t.Errorf("properties = %v; want only userId (X-API-KEY and connect.sid are credentials)", p)
	}
	if len(tool.Binding.Args) != 1 {
		t.Errorf("binding args = %+v; credentials must not be bound", tool.Binding.Args)
	}
	if len(tool.Security) != 2 || tool.Security[0][0].Name != "cookieAuth" || tool.Security[0][0].Scheme.In != "cookie" {
		t.Errorf("security = %+v; want cookieAuth OR apiKey, resolved", tool.Security)
	}
}

func TestClashAndDuplicateRules(t *testing.T) {
	c := loadFixture(t, "clash-oas30.yaml", nil)
	tool := mustTool(t, c, "patchItem")
	tests := []struct {
		name string
		in   Location
		wire string
	}{
		{"id", InPath, "id"},
		{"header_id", InHeader, "id"},
		{"body_id", InQuery, "body_id"},
		{"body_body_id", InBody, "id"},
		{"kind", InBody, "kind"}, // reached through allOf
		{"name", InBody, "name"},
		{"trace", InHeader, "trace"}, // path-level parameter
	}
	for _, tt := range tests {
		b := argBinding(t, tool, tt.name)
		if b.In != tt.in || b.Wire != tt.wire {
			t.Errorf("%s: in %s wire %s; want in %s wire %s", tt.name, b.In, b.Wire, tt.in, tt.wire)
		}
	}
	p := props(t, tool)
	if got := compact(p["id"]); got != `{"description":"operation-level wins","type":"integer"}` {
		t.Errorf("operation-level parameter must override the path-level one: id = %s", got)
	}
	if _, ok := p["Accept"]; ok {
		t.Errorf("an Accept header parameter became an argument")
	}
	if r := requiredOf(t, tool); !reflect.DeepEqual(r, []string{"id", "body_body_id"}) {
		t.Errorf("required = %v, want [id body_body_id]", r)
	}
	for _, a := range tool.Arguments {
		if a.Paging != (a.Name == "limit") {
			t.Errorf("argument %s: Paging = %v", a.Name, a.Paging)
		}
	}
	orphan := mustTool(t, c, "orphan")
	if b := argBinding(t, orphan, "a"); b.In != InPath || !b.Required || b.Type != "string" {
		t.Errorf("a path variable without a parameter: %+v, want a required string path argument", b)
	}
	if !hasWarning(c, "/get/parameters/0", `path parameter "b" is not in the path template`) {
		t.Errorf("no warning for the unused path parameter: %v", c.Warnings)
	}
}

func TestDeferred(t *testing.T) {
	c := loadFixture(t, "clash-oas30.yaml", &Options{Deferred: []string{"owner"}})
	tool := mustTool(t, c, "patchItem")
	p := props(t, tool)
	for _, name := range []string{"owner", "tenant", "audit"} {
		if _, ok := p[name]; ok {
			t.Errorf("deferred %s is in the input schema", name)
		}
		if b := argBinding(t, tool, name); !b.Deferred {
			t.Errorf("binding of %s is not deferred: %+v", name, b)
		}
		for _, a := range tool.Arguments {
			if a.Name == name {
				t.Errorf("deferred %s is in Arguments", name)
			}
		}
	}
	without := mustTool(t, loadFixture(t, "clash-oas30.yaml", nil), "patchItem")
	if _, ok := props(t, without)["owner"]; !ok {
		t.Errorf("owner should be an agent argument when not in Options.Deferred")
	}
	if without.Version == tool.Version {
		t.Errorf("deferring an argument changes the binding, so the version must change")
	}
}

func TestSwaggerForms(t *testing.T) {
	c := loadFixture(t, "swagger20-forms.json", nil)
	if !reflect.DeepEqual(c.Servers, []string{"https://api.example.com/v1"}) {
		t.Errorf("servers = %v", c.Servers)
	}
	up := mustTool(t, c, "files_upload")
	if up.Binding.Body == nil || up.Binding.Body.MediaType != "multipart/form-data" {
		t.Fatalf("files.upload body = %+v, want multipart (it has a file)", up.Binding.Body)
	}
	if b := argBinding(t, up, "file"); !b.File || !b.Required || b.In != InBody {
		t.Errorf("file binding = %+v", b)
	}
	if got := compact(props(t, up)["title"]); got != `{"type":["string","null"]}` {
		t.Errorf("a 2.0 type array is read as a type list: title = %s", got)
	}
	if !hasWarning(c, "/paths/~1files.upload/post/parameters/3/type", "list of types") {
		t.Errorf("no warning for the 2.0 type array: %v", c.Warnings)
	}
	if _, ok := props(t, up)["token"]; ok {
		t.Errorf("the apiKey query parameter token is an argument")
	}
	if !validates(t, up, `{"file":"data:text/plain;base64,aGk="}`) || !validates(t, up, `{"file":{"content":"aGk=","name":"a.txt"}}`) || validates(t, up, `{"file":{"name":"a.txt"}}`) {
		t.Errorf("the file argument must take a URI or {content, name, contentType} with content required")
	}

	chat := mustTool(t, c, "chat_postMessage")
	if chat.Binding.Body.MediaType != "application/x-www-form-urlencoded" {
		t.Errorf("chat body = %+v, want urlencoded", chat.Binding.Body)
	}
	if _, ok := props(t, chat)["token"]; !ok {
		t.Errorf("token is an argument when the operation's security is basic, not the apiKey")
	}
	styles := []struct {
		name, style string
		explode     bool
	}{
		{"ids", "form", true},
		{"tags", "pipeDelimited", false},
		{"words", "spaceDelimited", false},
		{"tabs", "form", false},
		{"token", "form", false},
	}
	for _, s := range styles {
		if b := argBinding(t, chat, s.name); b.Style != s.style || b.Explode != s.explode {
			t.Errorf("%s: style %s explode %v; want %s %v", s.name, b.Style, b.Explode, s.style, s.explode)
		}
	}
	if b := argBinding(t, chat, "level"); !b.Nullable || b.Type != "integer" {
		t.Errorf("x-nullable: level = %+v", b)
	}
	if !hasWarning(c, "parameters/4/collectionFormat", "tsv") {
		t.Errorf("no warning for tsv")
	}
	raw := mustTool(t, c, "putRaw")
	if !strings.Contains(raw.NotInvocable, "application/xml") || raw.Binding.Body != nil {
		t.Errorf("an XML-only body: NotInvocable %q, body %+v", raw.NotInvocable, raw.Binding.Body)
	}
}

func TestBodies(t *testing.T) {
	c := loadFixture(t, "multipart-oas30.yaml", nil)
	up := mustTool(t, c, "upload")
	if up.Binding.Body.MediaType != "multipart/form-data" {
		t.Errorf("multipart is preferred to XML: body %+v", up.Binding.Body)
	}
	tests := []struct {
		name        string
		want        ArgBinding
		schemaStart string
	}{
		{"file", ArgBinding{Name: "file", In: InBody, Wire: "file", Style: "form", Explode: true, Required: true, File: true, ContentType: "image/png"}, `{"anyOf":`},
		{"extra", ArgBinding{Name: "extra", In: InBody, Wire: "extra", Style: "form", Explode: true, Type: "array", File: true}, `{"description":"The files to send.","items":{"anyOf"`},
		{"meta", ArgBinding{Name: "meta", In: InBody, Wire: "meta", Style: "form", Explode: true, Type: "object", ContentType: "application/json"}, `{"properties"`},
		{"note", ArgBinding{Name: "note", In: InBody, Wire: "note", Style: "deepObject", Explode: true, Type: "string"}, `{"type"`},
	}
	p := props(t, up)
	for _, tt := range tests {
		if got := argBinding(t, up, tt.name); got != tt.want {
			t.Errorf("%s binding:\ngot  %+v\nwant %+v", tt.name, got, tt.want)
		}
		if got := compact(p[tt.name]); !strings.HasPrefix(got, tt.schemaStart) {
			t.Errorf("%s schema %s, want it to start %s", tt.name, got, tt.schemaStart)
		}
	}
	wholes := []struct {
		tool, mediaType, typ string
		file                 bool
	}{
		{"putRaw", "application/octet-stream", "", true},
		{"putText", "text/plain", "string", false},
		{"postList", "application/json", "array", false},
		{"postChoice", "application/json", "", false},
	}
	for _, w := range wholes {
		tool := mustTool(t, c, w.tool)
		b := argBinding(t, tool, WholeBodyArgument)
		if tool.Binding.Body == nil || !tool.Binding.Body.Whole || tool.Binding.Body.MediaType != w.mediaType || b.In != InWholeBody || b.Type != w.typ || b.File != w.file {
			t.Errorf("%s: body %+v, arg %+v; want whole %s, type %q, file %v", w.tool, tool.Binding.Body, b, w.mediaType, w.typ, w.file)
		}
	}
	if b := argBinding(t, mustTool(t, c, "postList"), WholeBodyArgument); b.ItemsType != "integer" {
		t.Errorf("postList items type %q, want integer", b.ItemsType)
	}
	if x := mustTool(t, c, "postXML"); x.NotInvocable == "" {
		t.Errorf("postXML should be listed but not invocable")
	}
}

func TestFilters(t *testing.T) {
	all := loadFixture(t, "names-oas30.yaml", nil)
	tests := []struct {
		name   string
		filter Filter
		want   []string
	}{
		{"read-only", Filter{ReadOnly: true}, []string{"aVeryLongOperationIdentifierThatGoesOnAndOnBeyondTheSix_0e41d070", "get_e", "get_user_userId_settings", "list_things_all_v2"}},
		{"methods", Filter{Methods: []string{"put"}}, []string{"put_files_file_id_add_shared_link", "put_files_file_id_remove_shared_link"}},
		{"path prefix", Filter{PathPrefixes: []string{"/files/", "/threads"}}, []string{"post_threads_beta_true", "put_files_file_id_add_shared_link", "put_files_file_id_remove_shared_link"}},
		{"include operation", Filter{IncludeOperations: []string{"dup*"}}, []string{"dup", "dup_2", "dup_3"}},
		{"include by generated name", Filter{IncludeOperations: []string{"get_e"}}, []string{"get_e"}},
		{"exclude operation", Filter{Methods: []string{"POST"}, ExcludeOperations: []string{"dup", "post_*"}}, []string{"dup_2"}}, // POST /b has operationId dup
	}
	for _, tt := range tests {
		c := loadFixture(t, "names-oas30.yaml", &Options{Filter: tt.filter})
		var got []string
		for _, tool := range c.Tools() {
			got = append(got, tool.Name)
			if orig := mustTool(t, all, tool.Name); orig.Version != tool.Version {
				t.Errorf("%s: filtering changed %s's version", tt.name, tool.Name)
			}
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
		for _, tool := range all.Tools() {
			_, kept := c.Tool(tool.Name)
			reason, excluded := c.Excluded(tool.Name)
			if kept == excluded || (excluded && reason == "") {
				t.Errorf("%s: %s kept=%v excluded=%v reason %q", tt.name, tool.Name, kept, excluded, reason)
			}
		}
	}
	if _, ok := all.Excluded("nothing_like_this"); ok {
		t.Errorf("Excluded reports a name no operation has")
	}
}

func TestTagFilters(t *testing.T) {
	c := loadFixture(t, "clash-oas30.yaml", nil)
	if c.Len() != 2 {
		t.Fatalf("got %d tools", c.Len())
	}
	text := `openapi: 3.0.0
info: {title: t, version: '1'}
paths:
  /a: {get: {operationId: a, tags: [pets, admin]}}
  /b: {get: {operationId: b, tags: [pets]}}
  /c: {get: {operationId: c}}
`
	tests := []struct {
		filter Filter
		want   []string
	}{
		{Filter{IncludeTags: []string{"pets"}}, []string{"a", "b"}},
		{Filter{ExcludeTags: []string{"admin"}}, []string{"b", "c"}},
		{Filter{IncludeTags: []string{"pets"}, ExcludeTags: []string{"admin"}}, []string{"b"}},
	}
	for _, tt := range tests {
		var got []string
		for _, tool := range mustParse(t, text, &Options{Filter: tt.filter}).Tools() {
			got = append(got, tool.Name)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%+v: got %v, want %v", tt.filter, got, tt.want)
		}
	}
	if _, err := Parse([]byte(text), &Options{Filter: Filter{IncludeOperations: []string{"["}}}); err == nil {
		t.Errorf("a malformed pattern must be refused")
	}
}

func TestAnnotations(t *testing.T) {
	tests := []struct {
		method string
		want   Annotations
	}{
		{"GET", Annotations{ReadOnly: true, Idempotent: true}},
		{"HEAD", Annotations{ReadOnly: true, Idempotent: true}},
		{"DELETE", Annotations{Destructive: true, Idempotent: true}},
		{"PUT", Annotations{Idempotent: true}},
		{"POST", Annotations{}},
		{"PATCH", Annotations{}},
	}
	for _, tt := range tests {
		if got := annotations(tt.method); got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.method, got, tt.want)
		}
	}
}

func TestPaging(t *testing.T) {
	for _, name := range []string{"limit", "per_page", "page", "page_size", "cursor", "offset", "starting_after", "ending_before", "fields", "select", "filter", "filter[status]", "q", "since", "before", "after", "$top", "pageToken"} {
		if !isPaging(name) {
			t.Errorf("isPaging(%q) = false", name)
		}
	}
	for _, name := range []string{"id", "name", "owner", "status", "body", "pages_url"} {
		if isPaging(name) {
			t.Errorf("isPaging(%q) = true", name)
		}
	}
}

func TestEmptyObjectBody(t *testing.T) {
	c := mustParse(t, `openapi: 3.0.0
info: {title: t, version: '1'}
paths:
  /a/{id}:
    delete:
      operationId: del
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema: {type: object, properties: {}, additionalProperties: false}
  /free:
    post:
      operationId: free
      requestBody:
        content:
          application/json:
            schema: {type: object}
`, nil)
	del := mustTool(t, c, "del")
	if del.Binding.Body == nil || del.Binding.Body.Whole || len(del.Arguments) != 1 {
		t.Errorf("an empty object body should give no body argument: body %+v, arguments %+v", del.Binding.Body, del.Arguments)
	}
	free := mustTool(t, c, "free")
	if b := argBinding(t, free, WholeBodyArgument); b.Type != "object" || !free.Binding.Body.Whole {
		t.Errorf("a free-form object body should be the whole body: %+v", b)
	}
}

func TestOperationServers(t *testing.T) {
	c := mustParse(t, `openapi: 3.0.0
info: {title: t, version: '1'}
servers: [{url: 'https://api.example.com/v1'}]
paths:
  /files:
    servers: [{url: 'https://{host}/v1', variables: {host: {default: upload.example.com}}}]
    post: {operationId: upload}
    get:
      operationId: listFiles
      servers: [{url: 'https://files.example.com'}]
  /other:
    get: {operationId: other}
`, nil)
	tests := []struct {
		name string
		want []string
	}{
		{"upload", []string{"https://upload.example.com/v1"}},
		{"listFiles", []string{"https://files.example.com"}},
		{"other", nil},
	}
	for _, tt := range tests {
		if got := mustTool(t, c, tt.name).Binding.Servers; !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: servers %v, want %v", tt.name, got, tt.want)
		}
	}
	if !reflect.DeepEqual(c.Servers, []string{"https://api.example.com/v1"}) {
		t.Errorf("catalog servers %v", c.Servers)
	}
}
