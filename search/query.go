package search

import "strings"

// phrasalVerbs are English verbs of two or three words, each with the one
// word an API would use for it. Their words apart say something else
// ("get rid of" is not a get, "call off" not a call), so a query is read
// with the phrase replaced. The table is general English, not the wording
// of particular tasks.
var phrasalVerbs = [][2]string{
	{"get rid of", "remove"},
	{"do away with", "remove"},
	{"throw away", "discard"},
	{"take down", "remove"},
	{"take off", "remove"},
	{"wipe out", "erase"},
	{"clean up", "purge"},
	{"call off", "cancel"},
	{"back out", "cancel"},
	{"set up", "create"},
	{"put together", "create"},
	{"come up with", "generate"},
	{"sign up", "register"},
	{"sign in", "login"},
	{"log in", "login"},
	{"sign out", "logout"},
	{"log out", "logout"},
	{"turn on", "enable"},
	{"switch on", "enable"},
	{"turn off", "disable"},
	{"switch off", "disable"},
	{"shut down", "stop"},
	{"hang up", "hangup"},
	{"look up", "lookup"},
	{"find out", "get"},
	{"fill in", "update"},
	{"bring back", "restore"},
	{"put back", "restore"},
	{"hand over", "transfer"},
	{"pass on", "forward"},
	{"send out", "send"},
	{"kick out", "remove"},
}

// eventPhrases say that a task waits for something to happen ("call my
// server whenever a file changes", "notify me every time someone
// pushes"). An HTTP API does that through a webhook or event subscription,
// a word the task itself seldom uses, so the phrase becomes it.
var eventPhrases = [][2]string{
	{"whenever", "webhook"},
	{"every time", "webhook"},
	{"each time", "webhook"},
}

// normalizeQuery rewrites what a task says in a way the index cannot
// match: phrasal verbs become their one-word verb, a phrase that waits for
// an event becomes "webhook", and a value that shows
// its kind (an email address, a URL) becomes the kind's name, the word an
// API uses for the argument it goes in.
func normalizeQuery(text string) string {
	fields := strings.Fields(strings.ToLower(text))
	changed := false
	for i, f := range fields {
		switch {
		case isEmailLike(f):
			fields[i], changed = "email", true
		case strings.HasPrefix(f, "http://") || strings.HasPrefix(f, "https://") || strings.HasPrefix(f, "www."):
			fields[i], changed = "url", true
		}
	}
	s := " " + strings.Join(fields, " ") + " "
	for _, table := range [...][][2]string{phrasalVerbs, eventPhrases} {
		for _, p := range table {
			if strings.Contains(s, " "+p[0]+" ") {
				s = strings.ReplaceAll(s, " "+p[0]+" ", " "+p[1]+" ")
				changed = true
			}
		}
	}
	if !changed {
		return text
	}
	return strings.TrimSpace(s)
}

// isEmailLike reports whether a word is shaped like an email address:
// something, an @, and a domain with a dot.
func isEmailLike(w string) bool {
	w = strings.TrimRight(w, ".,;:!?)'\"")
	at := strings.IndexByte(w, '@')
	return at > 0 && strings.LastIndexByte(w, '.') > at+1 && !strings.HasSuffix(w, ".")
}
