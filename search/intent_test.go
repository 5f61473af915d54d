package search

import "testing"

func TestQueryIntent(t *testing.T) {
	tests := []struct {
		query string
		want  intent
	}{
		{"delete a message", intentDelete},
		{"Please create a new pet", intentWrite},
		{"who has starred this repository", intentRead},
		{"how much money is in my account", intentRead},
		{"how do I create a pet", intentWrite},
		{"cancel an order", intentWrite | intentDelete},
		{"remind me to submit the report", intentWrite},
		{"call my server URL whenever a file is changed", 0}, // only the first three words tell
		{"account balance", 0},
		{"withdraw a membership", 0}, // without an index, an unknown word says nothing
		{"was this photo made by a model", intentRead},
		{"", 0},
	}
	for _, tt := range tests {
		if got := queryIntent(tt.query, nil); got != tt.want {
			t.Errorf("queryIntent(%q) = %b, want %b", tt.query, got, tt.want)
		}
	}
}

// TestQueryIntentUnknownVerb checks that a task leading with a word the
// verb table lacks and the API does not name asks for an action, while a
// keyword query that leads with a resource does not.
func TestQueryIntentUnknownVerb(t *testing.T) {
	named := map[string]bool{"organ": true, "invit": true, "audit": true, "log": true} // stems the API's names hold
	unnamed := func(term string) bool { return !named[term] }
	tests := []struct {
		query string
		want  intent
	}{
		{"withdraw an invitation I sent", intentWrite | intentDelete},
		{"ring a customer's phone", intentWrite | intentDelete},
		{"organization audit logs", 0},
		{"audit logs of my organization", 0},
		{"manually trigger a workflow", intentWrite}, // the adverb is passed over
		{"reply to a thread", intentWrite},           // a known verb, not an adverb
		{"which members are pending", intentRead},
		{"withdraw", intentWrite | intentDelete},
	}
	for _, tt := range tests {
		if got := queryIntent(tt.query, unnamed); got != tt.want {
			t.Errorf("queryIntent(%q) = %b, want %b", tt.query, got, tt.want)
		}
	}
}

func TestDocIntent(t *testing.T) {
	a := newAnalyzer()
	lead := func(summary, name string) [2]string {
		var l [2]string
		if s := a.terms(summary, nil); len(s) > 0 {
			l[0] = s[0]
		}
		if n := a.terms(name, nil); len(n) > 0 {
			l[1] = n[0]
		}
		return l
	}
	tests := []struct {
		method, summary, name string
		want                  intent
	}{
		{"POST", "Deletes a message.", "chat.delete", intentDelete},
		{"POST", "Search messages", "searchMessages", intentRead},
		{"PUT", "Add a repository collaborator", "repos/add-collaborator", intentWrite},
		{"GET", "", "stargazers", intentRead},
		{"POST", "", "bulk_delete_messages", intentDelete}, // a verb inside the name
		{"POST", "", "guild_emoji", intentWrite},
		{"DELETE", "", "", intentDelete},
		{"POST", "Cancel a payment", "cancelPayment", intentWrite}, // cancel is ambiguous: the method decides
		{"OPTIONS", "", "", 0},
	}
	for _, tt := range tests {
		if got := docIntent(tt.method, lead(tt.summary, tt.name), a.terms(tt.name, nil)); got != tt.want {
			t.Errorf("docIntent(%s, %q, %q) = %b, want %b", tt.method, tt.summary, tt.name, got, tt.want)
		}
	}
}
