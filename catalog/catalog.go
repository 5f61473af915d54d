package catalog

import (
	"encoding/json"
	"sort"
)

// Catalog is the immutable result of loading one description.
// It is safe for concurrent use.
type Catalog struct {
	// Title and APIVersion come from the description's info object.
	Title      string
	APIVersion string
	// OpenAPI is the version the description declares ("2.0", "3.0.3", "3.1.0").
	OpenAPI string
	// Servers are the base URLs the description declares, in order,
	// after Swagger 2.0 host/basePath/schemes are folded into URLs.
	// Server variables are substituted with their defaults.
	Servers []string
	// SecuritySchemes are the schemes the description declares, by name.
	SecuritySchemes map[string]*SecurityScheme
	// Warnings lists every repair the loader made, each once, in the order
	// the loader met them (operations in document order).
	Warnings []Warning
	// Skipped lists the operations that did not become tools.
	Skipped []Skipped

	tools    []*Tool // sorted by Name
	byName   map[string]*Tool
	excluded map[string]string // tool name -> why it is not in the catalog
}

// Excluded reports whether name is the name an operation of the
// description would have had as a tool, had a filter not removed it or
// had it not been skipped, and why. Invoke uses it to answer not_invocable
// rather than unknown_tool.
func (c *Catalog) Excluded(name string) (reason string, ok bool) {
	reason, ok = c.excluded[name]
	return reason, ok
}

// newCatalog indexes tools, which must have unique names.
func newCatalog(c *Catalog, tools []*Tool) *Catalog {
	sort.Slice(tools, func(i, j int) bool { return tools[i].Name < tools[j].Name })
	c.tools = tools
	c.byName = make(map[string]*Tool, len(tools))
	for _, t := range tools {
		c.byName[t.Name] = t
	}
	return c
}

// Tools returns the catalog's tools sorted by name. The slice is shared:
// callers must not modify it.
func (c *Catalog) Tools() []*Tool { return c.tools }

// Tool returns the tool with the given name.
func (c *Catalog) Tool(name string) (*Tool, bool) {
	t, ok := c.byName[name]
	return t, ok
}

// Len reports the number of tools.
func (c *Catalog) Len() int { return len(c.tools) }

// Tool is one operation made callable by an agent. Tools are immutable.
type Tool struct {
	// Name matches ^[a-zA-Z0-9_-]{1,64}$, is unique within its catalog and
	// is the same on every load of the same description.
	Name string
	// OperationID is the description's operationId, empty when it has none.
	OperationID string
	// Method is the HTTP method in upper case.
	Method string
	// PathKey is the key under paths exactly as the description writes it,
	// including a #fragment or ?query suffix.
	PathKey string
	// Summary is the operation's summary, trimmed and bounded (may be empty).
	Summary string
	// Description is the summary and description joined, trimmed and bounded.
	Description string
	// Tags are the operation's tags, in description order.
	Tags []string
	// Deprecated is true when the operation is marked deprecated.
	Deprecated bool
	// InputSchema is the agent's input schema: a JSON Schema 2020-12 object
	// schema whose properties are the flat arguments. Deferred arguments and
	// credentials are not in it.
	InputSchema json.RawMessage
	// Arguments describes each agent argument, sorted by name; it is the
	// structured view of InputSchema that search and invoke use.
	Arguments []Argument
	// Binding says how arguments become an HTTP request.
	Binding Binding
	// Security lists the alternative requirements that satisfy the
	// operation; any one of them will do. Empty means no credentials.
	Security []SecurityRequirement
	// Annotations are behaviour hints derived from the method.
	Annotations Annotations
	// Version is a short content hash of Name, InputSchema and Binding.
	Version string
	// NotInvocable, when not empty, says why the tool is listed but cannot be
	// called (for example an unsupported request media type).
	NotInvocable string
	// Context is what the description says around the operation, for
	// search to find it by. It is in neither InputSchema nor Binding, so it
	// does not change Version.
	Context Context
}

// Context is the prose a description offers about an operation beyond its
// own summary and description. Each text is trimmed and bounded; an empty
// one means the description has nothing there.
type Context struct {
	// TagDescriptions are the descriptions the top-level tags list gives
	// the operation's tags, in the operation's tag order; tags without one
	// are left out.
	TagDescriptions []string
	// PathItem is the path item's summary and description, when the
	// operation has its own (otherwise they are already its Summary and
	// Description).
	PathItem string
	// Body is the request body's description, its schema's title and
	// description, and the name of the component schema it references
	// ("CreateSpeechRequest"), one per line.
	Body string
	// Response is the same for the first success (2xx) response.
	Response string
}

// Argument is the structured description of one agent argument.
type Argument struct {
	// Name is the argument's name in the input schema.
	Name string
	// In is where the argument goes on the wire.
	In Location
	// Required is true when the argument appears in the schema's required list.
	Required bool
	// Type is the JSON Schema type when it is decided ("string", "integer",
	// "number", "boolean", "array", "object"); empty when composition
	// (anyOf, oneOf, type arrays, no type) leaves it open.
	Type string
	// Nullable is true when null is an allowed value.
	Nullable bool
	// Description is the parameter's or property's description, bounded.
	Description string
	// Enum holds the allowed values rendered as strings, when the schema has an enum.
	Enum []string
	// File is true for a file argument (binary string in a form body, a
	// binary whole body, or Swagger 2.0 type: file). With Type "array" it is
	// an array of files.
	File bool
	// Deprecated is true when the parameter or property is deprecated.
	Deprecated bool
	// Paging is true when the argument narrows a response: paging, limits,
	// field selection and filters. Guards name these to the agent.
	Paging bool
}

// Location is where an argument is placed in the HTTP request.
type Location string

// The argument locations.
const (
	InPath   Location = "path"
	InQuery  Location = "query"
	InHeader Location = "header"
	InCookie Location = "cookie"
	// InBody is a property of an object body (JSON, form or multipart).
	InBody Location = "body"
	// InWholeBody is the single argument "body" when the body is not an object.
	InWholeBody Location = "wholeBody"
)

// Binding is the wire mapping invoke uses to compose a request.
type Binding struct {
	// Method is the HTTP method in upper case.
	Method string `json:"method"`
	// Path is the path template, without the #fragment or ?query of the key.
	Path string `json:"path"`
	// FixedQuery holds query parameters the path key fixes (?beta=true), in order.
	FixedQuery []QueryPair `json:"fixedQuery,omitempty"`
	// Servers, when not empty, are the base URLs the operation or its path
	// item declares (uploads served from another host, for example); they
	// replace Catalog.Servers for this tool. Variables take their defaults.
	Servers []string `json:"servers,omitempty"`
	// Args maps every argument, agent or deferred, to its wire position;
	// sorted by Name.
	Args []ArgBinding `json:"args,omitempty"`
	// Body describes the request body; nil when the operation takes none.
	Body *BodyBinding `json:"body,omitempty"`
}

// QueryPair is one fixed query parameter.
type QueryPair struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// ArgBinding places one argument.
type ArgBinding struct {
	// Name is the argument name (the agent's, or the deferred value's).
	Name string `json:"name"`
	// In is the location.
	In Location `json:"in"`
	// Wire is the name on the wire: the parameter name or the body property
	// name. It differs from Name only when a body property was renamed to
	// resolve a clash with a parameter (see ClashPrefix).
	Wire string `json:"wire"`
	// Style and Explode are the OpenAPI serialisation, with defaults applied
	// (path and header: simple, explode false; query and cookie: form,
	// explode true; body properties: from the encoding object).
	Style   string `json:"style,omitempty"`
	Explode bool   `json:"explode,omitempty"`
	// AllowReserved keeps RFC 3986 reserved characters unencoded in a query value.
	AllowReserved bool `json:"allowReserved,omitempty"`
	// Required is true when the argument must be present.
	Required bool `json:"required,omitempty"`
	// Type is the decided JSON type, empty when undecided.
	Type string `json:"type,omitempty"`
	// Nullable is true when null is allowed.
	Nullable bool `json:"nullable,omitempty"`
	// File is true for a file argument; with Type "array", an array of
	// files. The agent's value is a URI string or an object {content
	// (base64), name, contentType} (see the package doc).
	File bool `json:"file,omitempty"`
	// ContentType is the encoding's contentType for a multipart part.
	ContentType string `json:"contentType,omitempty"`
	// Deferred is true when the host, not the agent, supplies the value.
	Deferred bool `json:"deferred,omitempty"`
	// ItemsType is the decided JSON type of an array's items, empty when
	// the argument is not an array or its items are undecided.
	ItemsType string `json:"itemsType,omitempty"`
	// Map is true for an object whose keys are free (additionalProperties
	// and no properties), so each key is data rather than a known field.
	Map bool `json:"map,omitempty"`
	// MediaType is set for a parameter described by content rather than a
	// schema: the value is serialised in this media type (usually JSON)
	// and Style is empty.
	MediaType string `json:"mediaType,omitempty"`
}

// ClashPrefix is prefixed to a body property whose name equals a parameter's:
// the parameter keeps its exact name and the property becomes
// ClashPrefix+name (then ClashPrefix+ClashPrefix+name, and so on, until unique).
const ClashPrefix = "body_"

// WholeBodyArgument is the name of the argument that carries a body that is
// not an object (an array, a scalar, raw bytes).
const WholeBodyArgument = "body"

// BodyBinding describes the request body.
type BodyBinding struct {
	// MediaType is the chosen request media type (application/json,
	// application/x-www-form-urlencoded, multipart/form-data, ...).
	MediaType string `json:"mediaType"`
	// Required is true when the request body is required.
	Required bool `json:"required,omitempty"`
	// Whole is true when the body is the one argument WholeBodyArgument
	// rather than spread into properties.
	Whole bool `json:"whole,omitempty"`
}

// SecurityRequirement is a set of schemes that must all be satisfied.
type SecurityRequirement []SchemeUse

// SchemeUse names a scheme and the scopes an operation needs from it.
type SchemeUse struct {
	Scheme *SecurityScheme `json:"-"`
	Name   string          `json:"name"`
	Scopes []string        `json:"scopes,omitempty"`
}

// SecurityScheme is a declared security scheme.
type SecurityScheme struct {
	// Name is the key under components.securitySchemes (securityDefinitions in 2.0).
	Name string `json:"name"`
	// Type is apiKey, http, oauth2, openIdConnect or mutualTLS.
	Type string `json:"type"`
	// In and ParamName place an apiKey: in header, query or cookie, under ParamName.
	In        string `json:"in,omitempty"`
	ParamName string `json:"paramName,omitempty"`
	// Scheme is the http scheme in lower case (bearer, basic).
	Scheme string `json:"scheme,omitempty"`
}

// Annotations are behaviour hints, as MCP tool annotations express them.
type Annotations struct {
	ReadOnly    bool `json:"readOnlyHint,omitempty"`
	Destructive bool `json:"destructiveHint,omitempty"`
	Idempotent  bool `json:"idempotentHint,omitempty"`
}

// Definition is what load_tool returns for a tool.
type Definition struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Method      string          `json:"method"`
	Path        string          `json:"path"`
	Tags        []string        `json:"tags,omitempty"`
	Deprecated  bool            `json:"deprecated,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema"`
	Version     string          `json:"version"`
	Annotations Annotations     `json:"annotations"`
}

// Definition returns the tool as load_tool presents it.
func (t *Tool) Definition() Definition {
	return Definition{
		Name:        t.Name,
		Description: t.Description,
		Method:      t.Method,
		Path:        t.PathKey,
		Tags:        t.Tags,
		Deprecated:  t.Deprecated,
		InputSchema: t.InputSchema,
		Version:     t.Version,
		Annotations: t.Annotations,
	}
}

// Warning reports one repair or skipped construct. Location is a JSON
// pointer into the description (for example
// "#/paths/~1pets/get/parameters/0"), optionally prefixed by a file name for
// a referenced file; Line and Column are 1-based and zero when unknown.
type Warning struct {
	Location string `json:"location"`
	Line     int    `json:"line,omitempty"`
	Column   int    `json:"column,omitempty"`
	Message  string `json:"message"`
}

// String formats the warning as one line: "location (line:col): message".
func (w Warning) String() string {
	s := w.Location
	if w.Line > 0 {
		s += " (line " + itoa(w.Line) + ", column " + itoa(w.Column) + ")"
	}
	return s + ": " + w.Message
}

// Skipped records an operation that did not become a tool.
type Skipped struct {
	// Name is the name the tool would have had.
	Name    string `json:"name"`
	Method  string `json:"method"`
	PathKey string `json:"path"`
	Reason  string `json:"reason"`
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
