package search

import "strings"

// intent is the kind of action a task asks for or an operation performs,
// as a bit set: a task word may allow more than one kind ("cancel" may
// delete a thing or change its state).
type intent uint8

const (
	intentRead   intent = 1 << iota // look at something: GET
	intentWrite                     // create, change or act: POST, PUT, PATCH
	intentDelete                    // take something away: DELETE
)

// intentWords are the verbs by which tasks and operation summaries state
// their action, with the kinds each allows. They are the common verbs of
// API operations, not the wording of particular queries; a word missing
// here simply leaves the ranking alone.
var intentWords = map[string]intent{}

func init() {
	groups := []struct {
		kind  intent
		words string
	}{
		{intentRead, "get list show see find search view fetch retrieve look lookup browse count return check describe inspect query download export"},
		{intentWrite, "create add new make post send give open start begin upload invite submit generate register schedule set update edit modify change rename mark move replace put patch approve reject accept decline enable disable pause resume follow request report publish share assign grant attach import run trigger execute upsert save store write reply react transfer copy duplicate restore merge lock unlock confirm complete capture verify mute unmute"},
		{intentDelete, "delete remove destroy erase purge unregister uninstall detach unassign unfollow unpin unstar discard"},
		{intentWrite | intentDelete, "cancel stop end close revoke archive clear reset void"},
	}
	a := newAnalyzer()
	for _, g := range groups {
		for _, w := range strings.Fields(g.words) {
			intentWords[a.stem(w)] = g.kind
		}
	}
}

// questionWords ask about something; a task that starts with one and names
// no action reads.
var questionWords = setOf("who", "which", "what", "how", "whose", "is", "are", "was", "were", "does", "do", "did", "has", "have", "can")

// maxIntentWords bounds how far into a task its action is looked for:
// agents state the action first ("remind me to submit ..." acts by
// reminding, not by submitting).
const maxIntentWords = 3

// queryIntent returns the kinds of action a task asks for, 0 when its
// first words name none.
//
// The verbs that read are few and the table holds them; the verbs that
// act are many ("withdraw", "ring", "kick"). So a task that leads with a
// word the table does not know, and that unnamed (nil for none) reports
// names nothing of the API (it is then not a keyword query's subject,
// "organization audit logs"), asks for an action: write or delete. An
// adverb ("manually trigger ...") is passed over, since the verb follows.
func queryIntent(text string, unnamed func(term string) bool) intent {
	words := splitWords(normalizeQuery(text), nil)
	seen := 0
	question := false
	for _, w := range words {
		if seen == 0 && questionWords[w] {
			question = true
		}
		if len(w) < 2 || (stopwords[w] && !questionWords[w]) {
			continue
		}
		st := stem(w)
		if k, ok := intentWords[st]; ok {
			return k
		}
		if isAdverb(w) {
			continue
		}
		if seen == 0 && !question && unnamed != nil && unnamed(st) {
			return intentWrite | intentDelete
		}
		if seen++; seen == maxIntentWords {
			break
		}
	}
	if question {
		return intentRead
	}
	return 0
}

// isAdverb reports whether w reads as an -ly adverb (manually, quickly).
// Known action words are looked up first, so "reply" in the
// table is not taken for one.
func isAdverb(w string) bool {
	return len(w) > 4 && strings.HasSuffix(w, "ly")
}

// docIntent returns the kind of action an operation performs: the verb its
// summary or name leads with when it is a known one, else the first known
// verb of its name (bulk_delete_messages), else its method.
func docIntent(method string, leads [2]string, name []string) intent {
	for _, t := range leads {
		if k, ok := intentWords[t]; ok && k&(k-1) == 0 {
			return k
		}
	}
	for _, t := range name {
		if k, ok := intentWords[t]; ok && k&(k-1) == 0 {
			return k
		}
	}
	switch method {
	case "GET", "HEAD":
		return intentRead
	case "POST", "PUT", "PATCH":
		return intentWrite
	case "DELETE":
		return intentDelete
	}
	return 0
}
