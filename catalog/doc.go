// Package catalog turns an OpenAPI description (Swagger 2.0, OpenAPI 3.0 or
// 3.1) into an immutable set of agent tools, one per operation.
//
// A Tool carries everything the layers above need and nothing they would
// have to re-derive from the description: a name every major LLM API
// accepts, a bounded description, a flat JSON Schema 2020-12 input schema,
// the Binding that tells invoke where each argument goes on the wire, the
// security schemes the host must satisfy, annotations, the prose the
// description puts around the operation (Context: tag, path, body and
// response descriptions) for search to read, and a Version that changes
// exactly when the name, input schema or binding changes.
//
// # Loading
//
// The loader reads YAML or JSON into yaml.Node trees and walks Swagger 2.0,
// OpenAPI 3.0 and 3.1 itself, converting each schema an operation's request
// reaches straight into JSON Schema 2020-12. Nothing of the trees is kept:
// a tool holds its input schema as compact JSON and its binding. Swagger
// 2.0 is converted on the way (host, basePath and schemes become Servers; a
// body parameter becomes the request body; formData parameters become an
// urlencoded body, or multipart when one is a file or consumes asks for it;
// collectionFormat becomes style and explode).
//
// Descriptions are untrusted input. Size (Options.MaxBytes) and nesting
// (Options.MaxDepth) are bounded; references to other files must stay
// inside the description's folder (no ../ escapes, no symlinks out);
// http(s) fetches go through the ssrf policy with a size limit and a
// timeout. What can be repaired is repaired and reported in
// Catalog.Warnings with a JSON pointer, line and column: a $ref that YAML
// read as null becomes an open schema, a keyword of the wrong type is
// dropped, a path variable without a parameter becomes a string argument.
// An operation that cannot be made usable is listed in Catalog.Skipped;
// the rest loads. Only a source that is not a description at all fails,
// with one *LoadError.
//
// # Arguments
//
// Arguments are flat. Every parameter keeps its exact OpenAPI name, and the
// properties of an object request body (including those merged through
// allOf of object schemas) sit beside them at the top level. A body that is
// not such an object (an array, a scalar, raw bytes, a oneOf of objects)
// is the single argument WholeBodyArgument and the binding marks it Whole.
// The body's required list makes properties required whether or not the
// requestBody itself says required, since a body sent without them would
// fail anyway.
//
// Two rules resolve name collisions, and ArgBinding.Wire keeps the real
// name on the wire:
//   - a body property named like a parameter becomes ClashPrefix+name
//     (repeated until unique); the parameter keeps its name;
//   - the same name in two parameter locations goes to the first in the
//     order path, query, header, cookie; the other becomes "<in>_<name>"
//     (a header and a query parameter both called id give id and header_id).
//
// Credentials are never arguments: a parameter matching an apiKey scheme
// of the operation's security is left to the host, as are Accept,
// Content-Type and Authorization headers. Deferred values (Options.Deferred,
// or x-sezzlee-deferred: true on a parameter or property) stay in the
// binding, marked Deferred, and out of the input schema.
//
// A file argument (a binary string in a multipart body, Swagger 2.0 type:
// file, or a binary whole body) takes either a URI string (a data: URI or a
// location the host can read) or an object {content (base64, required),
// name, contentType}. An array of files is an array of those; its binding
// has File set and Type "array".
//
// The request media type is chosen in this order: JSON (application/json
// or any +json), urlencoded form, multipart form, binary (a file), text.
// A body offered only as XML or another type leaves the tool listed with
// NotInvocable saying why.
//
// Argument.Paging marks arguments that narrow a response, judged by name:
// once lower-cased and stripped of '_', '-', '$', '.' and "[]", a name such
// as limit, perpage, page, pagesize, pagetoken, cursor, offset,
// startingafter, endingbefore, fields, select, q, query, since, until,
// before, after, top, skip, maxresults, expand or include, or one that
// starts or ends with "filter".
//
// # Schemas
//
// Conversion follows 2020-12: 3.0 nullable becomes a type union with
// "null" (and null joins an enum); example becomes examples; boolean
// exclusiveMinimum and exclusiveMaximum become numbers; readOnly
// properties leave request schemas and their required lists; x-
// extensions, discriminator, xml and externalDocs are dropped; patterns
// the validator would refuse are dropped with a warning; descriptions are
// bounded. A reference used once is inlined; one used twice or more in a
// tool, or one that closes a cycle, goes to the tool's own $defs, so a
// recursive schema stays recursive. References by $id and $anchor resolve,
// and $recursiveRef "#" refers to the enclosing named schema.
//
// # Names
//
// A tool's name is its operationId made safe for ^[a-zA-Z0-9_-]{1,64}$
// (other characters become '_', runs of '_' collapse, ends are trimmed, and
// a name too long keeps a prefix plus '_' and 8 hex digits of a hash of the
// full id). Without an operationId, it is the method and the path's words:
// GET /user/{userId}/settings is get_user_userId_settings, and the words of
// a #fragment or ?query suffix are appended. Operations are named in sorted
// (path key, method) order; a name already taken gets the first free
// suffix _2, _3, ... So a description always yields the same names, and
// filters never change them: Catalog.Excluded answers for the names a
// filter removed.
//
// A built Catalog is never mutated: a reload builds a new one.
package catalog
