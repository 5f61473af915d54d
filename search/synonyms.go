package search

import "slices"

// synonymGroups are words an agent and an API use for the same thing. A
// query term from a group also searches for the group's other words, with
// a lower weight than the literal term (Options.SynonymWeight), so an
// operation that uses the agent's own word still ranks first.
//
// Each group is general API vocabulary, not the wording of one query: the
// commit log records the dev-set queries each group was added for and what
// it did to the figures.
var synonymGroups = [][]string{
	// The verbs of the CRUD operations and their everyday wording.
	{"create", "add", "new", "make", "register", "insert", "generate", "produce"},
	{"delete", "remove", "destroy", "erase", "discard", "purge", "revoke", "unregister"},
	{"list", "all", "every", "browse", "enumerate"},
	{"search", "find", "lookup", "query", "look"},
	{"get", "fetch", "retrieve", "show", "read", "view", "see", "info", "detail", "describe", "inspect"},
	{"update", "edit", "modify", "change", "patch", "set", "alter", "fix", "correct", "rename"},
	{"send", "post", "deliver", "publish", "submit", "write", "notify"},
	// Lifecycle of jobs, calls and sessions.
	{"cancel", "abort", "stop", "halt", "terminate", "interrupt"},
	{"start", "begin", "launch", "trigger", "run"},
	{"end", "finish", "complete", "close", "hangup", "disconnect"},
	{"pause", "suspend", "mute", "snooze", "silence", "disable"},
	{"resume", "unpause", "unmute", "enable", "reactivate"},
	{"approve", "accept", "confirm"},
	{"reject", "decline", "deny", "refuse"},
	// Moving things around.
	{"upload", "attach", "import"},
	{"download", "export", "archive", "zip", "bundle"},
	{"copy", "duplicate", "clone"},
	{"move", "transfer", "relocate"},
	{"share", "link", "permalink", "url"},
	{"restore", "revert", "undo", "rollback", "promote"},
	// Checking and counting.
	{"test", "check", "verify", "validate", "valid"},
	{"count", "total", "number", "many", "quantity", "amount"},
	{"cost", "usage", "spend", "spent", "bill", "billing", "money", "price", "balance"},
	{"limit", "quota", "allowance", "allow", "remain", "remaining"},
	{"status", "state", "progress", "availability", "available"},
	{"recent", "latest", "newest", "history", "last"},
	// People, groups and access.
	{"user", "member", "person", "people", "account", "coworker", "colleague", "teammate", "employee", "collaborator"},
	{"team", "group", "org", "organization", "company", "workspace"},
	{"permission", "access", "collaboration", "grant", "role", "privilege"},
	{"invite", "invitation", "join"},
	{"current", "self", "myself", "whoami", "authenticated"},
	{"token", "auth", "credential", "identity", "login", "session"},
	// Messages and content.
	{"message", "chat", "note", "text", "sms"},
	{"comment", "remark", "reply", "response", "feedback", "annotation"},
	{"reaction", "emoji", "react"},
	{"pin", "star", "bookmark", "favorite"},
	{"notification", "alert", "webhook", "callback", "event", "subscription"},
	{"log", "event", "audit", "activity", "trail"},
	{"file", "document", "attachment", "pdf"},
	{"image", "picture", "photo", "thumbnail", "preview"},
	{"audio", "voice", "speech", "sound", "speak"},
	{"transcribe", "transcription", "transcript", "dictation"},
	{"embed", "embedding", "vector"},
	{"moderate", "moderation", "harmful", "abuse", "toxic", "offensive"},
	{"problem", "issue", "bug", "report"},
	{"similar", "like", "recommendation", "related"},
	// Commerce.
	{"buy", "purchase", "order", "checkout"},
	{"sell", "sale", "sold"},
	{"refund", "reimburse", "return"},
	{"pay", "payment", "charge"},
}

// expansion maps a term to the terms it also searches for.
type expansion map[string][]string

// buildExpansion stems the groups with a and links every pair of words in
// the same group.
func buildExpansion(a *analyzer, groups [][]string) expansion {
	e := make(expansion)
	for _, g := range groups {
		stems := make([]string, 0, len(g))
		for _, w := range g {
			stems = append(stems, a.stem(w))
		}
		for _, s := range stems {
			for _, o := range stems {
				if o != s && !slices.Contains(e[s], o) {
					e[s] = append(e[s], o)
				}
			}
		}
	}
	return e
}
