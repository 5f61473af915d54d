package search

// synonymGroups are words an agent and an API use for the same thing. A
// query term from a group also searches for the group's other words, with
// a lower weight than the literal term (Options.SynonymWeight), so an
// operation that uses the agent's own word still ranks first.
//
// Each group is general API vocabulary, not the wording of one query: the
// commit log records the dev-set queries each group was added for and what
// it did to the figures.
var synonymGroups = [][]string{
	// Verbs of the CRUD operations and their everyday wording.
	{"create", "add", "new", "make", "register", "insert", "open", "start", "begin"},
	{"delete", "remove", "destroy", "erase", "drop", "discard", "purge", "withdraw", "revoke"},
	{"list", "all", "every", "browse", "enumerate", "index"},
	{"search", "find", "lookup", "query", "look"},
	{"get", "fetch", "retrieve", "show", "read", "view", "see", "info", "detail", "describe", "inspect"},
	{"update", "edit", "modify", "change", "patch", "set", "alter", "fix", "correct"},
	{"send", "post", "deliver", "publish", "submit", "say", "write"},
	{"cancel", "abort", "stop", "halt", "terminate"},
	{"upload", "attach", "share", "put"},
	{"download", "export", "archive", "zip"},
	{"copy", "duplicate", "clone"},
	{"move", "transfer", "relocate"},
	{"test", "check", "verify", "validate"},
	{"count", "total", "number", "many", "much", "quantity"},
	// Nouns that APIs name differently.
	{"user", "member", "person", "people", "account", "coworker", "teammate", "employee"},
	{"team", "group", "org", "organization", "company"},
	{"image", "picture", "photo", "thumbnail", "preview"},
	{"file", "document", "attachment", "pdf"},
	{"message", "chat", "note", "post"},
	{"comment", "remark", "reply", "note"},
	{"invite", "invitation"},
	{"permission", "access", "collaboration", "grant", "role"},
	{"log", "event", "history", "activity", "audit"},
	{"cost", "usage", "spend", "spent", "bill", "billing", "money", "price"},
	{"schedule", "later", "tomorrow", "remind", "reminder"},
	{"similar", "like", "recommendation", "related"},
	{"trending", "popular", "buzzing"},
	{"problem", "issue", "bug", "broken"},
	{"version", "revision"},
	{"token", "auth", "credential", "identity"},
	{"me", "current", "self", "myself"},
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
				if o != s && !contains(e[s], o) {
					e[s] = append(e[s], o)
				}
			}
		}
	}
	return e
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
