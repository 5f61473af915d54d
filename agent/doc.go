// Package agent is the agent's side of sezzlee: it reads the envelope every
// invoke_tool call returns and decides what to do next, and it runs the
// scenarios that prove a sezzlee server answers the way an agent relies on.
//
// The loop an agent runs is search_tools, load_tool, invoke_tool. Each
// result is JSON in one text content block; Parse turns an invoke_tool result
// into an Envelope, and Client does the calling and parsing over any MCP
// session. An Envelope is then read in this order:
//
//   - No Code: success. Status is the backend's 2xx or 3xx and Body its answer.
//   - IsSDKSide (the JSON has no status): sezzlee refused the call before the
//     backend saw it, or refused to forward what came back. For argument codes
//     (unknown_argument, invalid_type, invalid_path_type, ...) the arguments do
//     not match the schema the agent holds: call load_tool again and rebuild
//     them with Schema.Conform. tool_changed means the pinned version is gone:
//     load again and retry with the new one. response_too_large names in Fields
//     the arguments that narrow the answer.
//   - A status: the backend answered and sezzlee mapped it. validation_failed
//     lists in Fields every rule each argument broke (a name repeats once per
//     rule); Schema.Repair builds corrected arguments from those names and the
//     schema's constraints alone, never from the prose Message.
//
// Retrying is decided by Retryable and nothing else: CanRetry is true only
// when the envelope says so (a 408, 429, 502, 503 or 504, or invoke_timeout),
// RetryAfter gives the bounded wait, and RetryPolicy.Do replays a call on
// those terms. retryable false means the identical call would fail the same
// way; a repaired call is a different call and is fine to send.
//
// CheckNoLeak is a detector of stack frames, exception type names, file
// paths, connection strings and credential-shaped values, written
// independently of sezzlee's own leak filter so that a client can catch a
// server whose filter is broken.
//
// Scenarios returns the example client's scenarios; `sezzlee agent` runs
// them against a server and prints a report of each call, envelope and check.
package agent
