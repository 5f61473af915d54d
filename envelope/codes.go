package envelope

import "slices"

// Layer says who produced an error envelope.
type Layer string

const (
	// LayerBackend codes map a backend's HTTP status; the envelope carries it.
	LayerBackend Layer = "backend"
	// LayerSDK codes come from sezzlee itself; the envelope never carries a status.
	LayerSDK Layer = "sdk"
)

// Retryability says how an error's retryable flag is set.
type Retryability string

const (
	// RetryNever: replaying the identical call fails the same way.
	RetryNever Retryability = "never"
	// RetryAlways: the same call may succeed later.
	RetryAlways Retryability = "always"
	// RetryByCase: the caller decides for each envelope (file_unresolved,
	// backend_unreachable).
	RetryByCase Retryability = "case"
)

// CodeInfo is one row of the code registry.
type CodeInfo struct {
	// Code is the stable code.
	Code Code
	// Layer says whether the backend or sezzlee produced it.
	Layer Layer
	// Statuses are the HTTP statuses mapped to the code (backend codes);
	// backend_error lists 500 and takes every status no other code lists.
	Statuses []int
	// Retryable is fixed per code, except for RetryByCase codes.
	Retryable Retryability
	// When says when the code is returned.
	When string
	// Action says what the agent should do.
	Action string
	// Message is the fixed text the agent sees first in Message.
	Message string
	// Extension marks a code the product documents do not list.
	Extension bool
}

// registry is the one table of codes. It is append-only: a code once
// published keeps its meaning, statuses and retryability.
var registry = []CodeInfo{
	{
		Code: ValidationFailed, Layer: LayerBackend, Statuses: []int{400, 422}, Retryable: RetryNever,
		When:    "The backend rejected the request's content (400, 422).",
		Action:  "Repair the arguments named in fields, all of each field's messages, and call again.",
		Message: "The backend rejected one or more arguments. Fix the listed fields and call the operation again.",
	},
	{
		Code: Unauthenticated, Layer: LayerBackend, Statuses: []int{401}, Retryable: RetryNever,
		When:    "The backend did not accept the credentials sent (401).",
		Action:  "Do not retry; the operator must configure valid credentials.",
		Message: "The backend did not accept the credentials. Retrying will not help until the operator fixes them.",
	},
	{
		Code: Forbidden, Layer: LayerBackend, Statuses: []int{403}, Retryable: RetryNever,
		When:    "The credentials are valid but not allowed to do this (403).",
		Action:  "Do not retry; choose another operation or ask for access.",
		Message: "The backend refused this operation for these credentials. Retrying will not help.",
	},
	{
		Code: NotFound, Layer: LayerBackend, Statuses: []int{404, 410}, Retryable: RetryNever,
		When:    "The resource does not exist or no longer exists (404, 410).",
		Action:  "Check the identifiers in the arguments, or search for the resource first.",
		Message: "The backend found no such resource. Check the identifiers you sent.",
	},
	{
		Code: Conflict, Layer: LayerBackend, Statuses: []int{409, 412}, Retryable: RetryNever,
		When:    "The request conflicts with the resource's current state or a precondition failed (409, 412).",
		Action:  "Read the resource's current state, then call again with arguments that fit it.",
		Message: "The request conflicts with the resource's current state. Read it again and adjust the call.",
	},
	{
		Code: RateLimited, Layer: LayerBackend, Statuses: []int{429}, Retryable: RetryAlways,
		When:    "The backend is throttling calls (429).",
		Action:  "Wait retryAfterSeconds when present, otherwise back off, then call again.",
		Message: "The backend is limiting the rate of calls. Wait before calling again.",
	},
	{
		Code: BackendTimeout, Layer: LayerBackend, Statuses: []int{408, 504}, Retryable: RetryAlways,
		When:    "The backend or a gateway in front of it timed out (408, 504).",
		Action:  "Call again, after a short wait.",
		Message: "The backend timed out. The same call may succeed if you try again shortly.",
	},
	{
		Code: BackendUnavailable, Layer: LayerBackend, Statuses: []int{502, 503}, Retryable: RetryAlways,
		When:    "The backend or a gateway in front of it is unavailable (502, 503).",
		Action:  "Wait retryAfterSeconds when present, otherwise back off, then call again.",
		Message: "The backend is temporarily unavailable. Try again later.",
	},
	{
		Code: BackendError, Layer: LayerBackend, Statuses: []int{500}, Retryable: RetryNever,
		When:    "The backend failed (500) or answered any other status of 400 or above that no other code lists.",
		Action:  "Do not replay the same call; try different arguments or another operation, or report the reference.",
		Message: "The backend failed to handle the request.",
	},

	{
		Code: UnknownArgument, Layer: LayerSDK, Retryable: RetryNever,
		When:    "An argument is not in the tool's input schema.",
		Action:  "Remove it; reload the tool with load_tool to see the allowed arguments.",
		Message: "The call has arguments the tool does not accept. Reload the tool to see its arguments.",
	},
	{
		Code: InvalidPathType, Layer: LayerSDK, Retryable: RetryNever,
		When:    "A path parameter's value does not have the type its schema declares.",
		Action:  "Send the value with the declared type.",
		Message: "A path argument has the wrong type. Send it with the type the tool declares.",
	},
	{
		Code: MissingPathParameter, Layer: LayerSDK, Retryable: RetryNever,
		When:    "A path parameter has no value.",
		Action:  "Add the missing argument.",
		Message: "A path argument is missing. Add it and call again.",
	},
	{
		Code: HeaderInjection, Layer: LayerSDK, Retryable: RetryNever,
		When:    "A header argument holds a line break or another byte a header cannot carry.",
		Action:  "Send the value without control characters.",
		Message: "A header argument holds characters a header cannot carry. Remove them and call again.",
	},
	{
		Code: NullNotAllowed, Layer: LayerSDK, Retryable: RetryNever,
		When:    "An argument is null where its schema does not allow null.",
		Action:  "Send a value or leave the argument out.",
		Message: "An argument is null where the tool does not allow it. Send a value or leave it out.",
	},
	{
		Code: InvalidType, Layer: LayerSDK, Retryable: RetryNever,
		When:    "An argument does not match its schema (type, format, enum, bounds).",
		Action:  "Repair the arguments named in fields from the tool's schema.",
		Message: "An argument does not match the tool's schema. Fix the listed fields and call again.",
	},
	{
		Code: DeferredValueMissing, Layer: LayerSDK, Retryable: RetryNever,
		When:    "A value the server supplies at call time (a deferred value) is not available.",
		Action:  "Do not retry; the operator must provide the value.",
		Message: "A value the server must supply for this call is missing. Retrying will not help.",
	},
	{
		Code: DeferredValueInvalid, Layer: LayerSDK, Retryable: RetryNever,
		When:    "A value the server supplies at call time does not fit where it goes.",
		Action:  "Do not retry; the operator must fix the value.",
		Message: "A value the server supplies for this call is invalid. Retrying will not help.",
	},
	{
		Code: InvalidCookieValue, Layer: LayerSDK, Retryable: RetryNever,
		When:    "A cookie argument holds characters a cookie cannot carry.",
		Action:  "Send the value without separators or control characters.",
		Message: "A cookie argument holds characters a cookie cannot carry. Fix it and call again.",
	},
	{
		Code: CookieCarrierCollision, Layer: LayerSDK, Retryable: RetryNever,
		When:    "A cookie argument and a Cookie header argument would both set the Cookie header.",
		Action:  "Send the cookie one way only.",
		Message: "Cookies were given both as cookie arguments and as a Cookie header. Send them one way only.",
	},
	{
		Code: InvalidFileArgument, Layer: LayerSDK, Retryable: RetryNever,
		When:    "A file argument is not a valid file reference or inline content.",
		Action:  "Send the file the way the tool's schema describes.",
		Message: "A file argument is not valid. Send it the way the tool describes.",
	},
	{
		Code: FileTooLarge, Layer: LayerSDK, Retryable: RetryNever,
		When:    "A file argument is larger than the configured limit.",
		Action:  "Send a smaller file.",
		Message: "A file argument is larger than allowed. Send a smaller file.",
	},
	{
		Code: FileUnresolved, Layer: LayerSDK, Retryable: RetryByCase,
		When:    "A file reference could not be resolved; retryable only when the store was unavailable.",
		Action:  "When retryable, call again later; otherwise send a reference that exists.",
		Message: "A file reference could not be resolved.",
	},
	{
		Code: UnknownTool, Layer: LayerSDK, Retryable: RetryNever,
		When:    "No tool has the name given.",
		Action:  "Use search_tools to find the exact name.",
		Message: "No tool has this name. Use search_tools to find the exact name.",
	},
	{
		Code: NotInvocable, Layer: LayerSDK, Retryable: RetryNever,
		When:    "The tool exists but cannot be called (for example a body or security scheme sezzlee cannot send).",
		Action:  "Choose another tool.",
		Message: "This tool cannot be called through sezzlee. Choose another one.",
	},
	{
		Code: ToolChanged, Layer: LayerSDK, Retryable: RetryNever,
		When:    "The call pinned a tool version the server no longer holds; the backend was not reached.",
		Action:  "Load the tool again with load_tool and call with the new version.",
		Message: "The tool changed after it was loaded, so the call was refused before reaching the backend. Load it again and retry.",
	},
	{
		Code: ResponseTooLarge, Layer: LayerSDK, Retryable: RetryNever,
		When:    "The backend answered, but the body is larger than the agent may receive; payload says how large.",
		Action:  "Call again with the arguments in fields to narrow the answer (page size, cursor, field selection, filters).",
		Message: "The backend's answer is too large to return. Call again with the listed arguments to narrow it.",
	},
	{
		Code: InvokeTimeout, Layer: LayerSDK, Retryable: RetryAlways,
		When:    "The call did not finish within sezzlee's time limit.",
		Action:  "Call again, after a short wait; narrow the call if it keeps timing out.",
		Message: "The call did not finish in time. Try again shortly.",
	},
	{
		Code: SearchRankerUnavailable, Layer: LayerSDK, Retryable: RetryAlways,
		When:    "search_tools only: the bound ranker failed and the server is set to refuse rather than fall back.",
		Action:  "Call search_tools again shortly.",
		Message: "Search is temporarily unavailable. Try again shortly.",
	},
	{
		Code: InternalError, Layer: LayerSDK, Retryable: RetryNever,
		When:    "sezzlee itself failed; the cause is logged under reference.",
		Action:  "Do not retry the same call; report the reference.",
		Message: "sezzlee failed while handling the call. Report the reference if it keeps happening.",
	},
	{
		Code: BackendUnreachable, Layer: LayerSDK, Retryable: RetryByCase, Extension: true,
		When:    "A remote backend could not be reached (refused connection, DNS, TLS, reset before a status).",
		Action:  "When retryable, call again later; otherwise the operator must fix the backend's address.",
		Message: "The backend could not be reached.",
	},
}

// Codes returns the code registry in its published order, backend codes
// first. The slice is a copy.
func Codes() []CodeInfo {
	out := make([]CodeInfo, len(registry))
	for i, c := range registry {
		c.Statuses = slices.Clone(c.Statuses)
		out[i] = c
	}
	return out
}

// Lookup returns the registry row of code.
func Lookup(code Code) (CodeInfo, bool) {
	for _, c := range registry {
		if c.Code == code {
			c.Statuses = slices.Clone(c.Statuses)
			return c, true
		}
	}
	return CodeInfo{}, false
}

// ForStatus returns the backend code of an HTTP status of 400 or above:
// the code listing it, otherwise backend_error.
func ForStatus(status int) Code {
	for _, c := range registry {
		if c.Layer == LayerBackend && slices.Contains(c.Statuses, status) {
			return c.Code
		}
	}
	return BackendError
}

// RetryableStatus reports whether a backend status is retryable: only 408,
// 429, 502, 503 and 504 are.
func RetryableStatus(status int) bool {
	switch status {
	case 408, 429, 502, 503, 504:
		return true
	}
	return false
}

// messageOf returns the fixed message of code.
func messageOf(code Code) string {
	if c, ok := Lookup(code); ok {
		return c.Message
	}
	return string(code)
}
