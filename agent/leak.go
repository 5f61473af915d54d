package agent

import (
	"regexp"
	"strings"
)

// leakRule is one kind of detail a server must not hand to an agent.
type leakRule struct {
	kind string
	re   *regexp.Regexp
	// need, when set, lists substrings of which at least one must occur
	// for re to match: a cheap test that spares the costly expressions.
	need []string
}

// leakRules are deliberately independent of sezzlee's own leak filter: a
// client uses them to catch a server whose filter is broken. They look for
// shapes, not for any one framework's exact text, and they are tuned so that
// ordinary validation prose ("must be at least 12 characters", "the Bearer
// scheme", "password is required") does not trip them.
var leakRules = []leakRule{
	// Stack frames.
	{"stack frame", regexp.MustCompile(`(?m)^\s*at [\w$.<>\[\]` + "`" + `]+\(.*\)`), nil},                                       // Java, .NET, Node named
	{"stack frame", regexp.MustCompile(`\bat [\w$.<>]+ \(?[^\s()]+:\d+(:\d+)?\)?`), nil},                                        // Node
	{"stack frame", regexp.MustCompile(`\bin \S+\.(cs|vb|fs):line \d+`), nil},                                                   // .NET
	{"stack frame", regexp.MustCompile(`File "[^"]+", line \d+`), nil},                                                          // Python
	{"stack frame", regexp.MustCompile(`Traceback \(most recent call last\)`), nil},                                             // Python
	{"stack frame", regexp.MustCompile(`\bgoroutine \d+ \[\w+`), nil},                                                           // Go
	{"stack frame", regexp.MustCompile(`\S+\.go:\d+ \+0x[0-9a-f]+`), nil},                                                       // Go
	{"stack frame", regexp.MustCompile(`\S+\.(rb|ex|exs|erl):\d+:in\b`), nil},                                                   // Ruby, Elixir
	{"stack frame", regexp.MustCompile(`(?m)^\s*#\d+ \S+\.php\(\d+\)`), nil},                                                    // PHP
	{"stack frame", regexp.MustCompile(`\bpanicked at \S+\.rs:\d+`), nil},                                                       // Rust
	{"stack frame", regexp.MustCompile(`\b[\w$.]+\.(java|kt|scala|groovy):\d+\)`), nil},                                         // JVM frame suffix
	{"stack frame", regexp.MustCompile(`\(\S+\.(js|mjs|cjs|ts):\d+:\d+\)`), nil},                                                // Node location
	{"stack frame", regexp.MustCompile(`\bat file:///\S+:\d+`), nil},                                                            // Deno, browsers
	{"stack frame", regexp.MustCompile(`(?m)^\s*#\d+ \[internal function\]`), nil},                                              // PHP
	{"stack frame", regexp.MustCompile(`\b[\w./-]+\.(?:go|py|rb|rs|ex|exs|erl|java|kt|scala|cs|php|js|mjs|cjs|ts):\d+\b`), nil}, // file:line
	{"exception type", regexp.MustCompile(`\*\* \([A-Z][\w.]*\)`), nil},                                                         // Elixir, Erlang
	{"exception type", regexp.MustCompile(`\b(?:[a-z_][\w]*\.)+[A-Z]\w*(?:Exception|Error)\b`), nil},                            // java.lang.X, System.X
	{"exception type", regexp.MustCompile(`\b(?:[A-Z][\w]*\.)+[A-Z]\w*Exception\b`), nil},                                       // System.InvalidOperationException
	{"exception type", regexp.MustCompile(`\b[A-Z][A-Za-z0-9]*Exception\b`), nil},                                               // NullReferenceException
	{"exception type", regexp.MustCompile(`\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)*Error\b(?::|\s*\()`), nil},                        // TypeError: / KeyError(
	{"exception type", regexp.MustCompile(`\b(?:[a-z_]\w*\.)+(?:errors|exceptions|exc)\.[A-Z]\w+`), nil},                        // psycopg2.errors.X
	{"exception type", regexp.MustCompile(`\b[A-Z]\w*(?:::[A-Z]\w*)+\b`), nil},                                                  // Ruby, PHP, Rust paths
	{"file path", regexp.MustCompile(`(?:^|[\s"'(=:,\[])(/(?:[\w.@-]+/)+[\w.@-]+\.(?:go|py|pyc|java|class|jar|kt|scala|cs|vb|fs|dll|exe|js|mjs|cjs|ts|tsx|rb|erb|php|rs|ex|exs|erl|c|h|cc|cpp|hpp|so|sh|pl|conf|cfg|ini|yaml|yml|json|xml|env|log|sql|pem|key|properties|config|toml))\b`), nil},
	{"file path", regexp.MustCompile(`(?:^|[\s"'(=:,\[])(/(?:home|root|usr|var|etc|opt|srv|tmp|app|src|proc|mnt|workspace|Users)/[\w.@/-]+)`), nil},
	{"file path", regexp.MustCompile(`\b[A-Za-z]:\\(?:[^\\\s"'<>|]+\\)*[^\\\s"'<>|]*`), nil},
	{"file path", regexp.MustCompile(`\\\\[\w.-]+\\[\w$.-]+`), nil},
	{"connection string", regexp.MustCompile(`(?i)\b(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|redis(?:s)?|rediss|amqps?|mssql|sqlserver|oracle|clickhouse|cockroachdb|nats|kafka)://[^\s'"]+`), []string{"://"}},
	{"connection string", regexp.MustCompile(`(?i)\bjdbc:[a-z0-9]+:[^\s'"]+`), nil},
	{"connection string", regexp.MustCompile(`(?i)\b(?:server|data source|host|address|addr)\s*=\s*[^;\s]+;[^\n]*?(?:database|initial catalog|user id|uid|password|pwd)\s*=`), nil},
	{"connection string", regexp.MustCompile(`(?i)\b[a-z][a-z0-9+.-]*://[^\s:/@'"]+:[^\s@/'"]+@[^\s'"]+`), []string{"://"}},
	{"connection string", regexp.MustCompile(`(?i)\b(?:DefaultEndpointsProtocol|AccountKey|SharedAccessKey(?:Name)?)=`), nil},
	{"connection string", regexp.MustCompile(`\bsb://[^\s;'"]+`), nil},
	{"credential", regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`), nil},
	{"credential", regexp.MustCompile(`\bgh[pousr]_[A-Za-z0-9]{30,}\b`), nil},
	{"credential", regexp.MustCompile(`\bgithub_pat_[A-Za-z0-9_]{30,}\b`), nil},
	{"credential", regexp.MustCompile(`\bglpat-[A-Za-z0-9_-]{20,}\b`), nil},
	{"credential", regexp.MustCompile(`\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}\b`), nil},
	{"credential", regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}\b`), nil},
	{"credential", regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}\b`), nil},
	{"credential", regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`), nil},
	{"credential", regexp.MustCompile(`\bwhsec_[A-Za-z0-9]{20,}`), nil},                                                                                      // Stripe webhook
	{"credential", regexp.MustCompile(`\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}`), nil},                                                                        // OpenAI, Anthropic
	{"credential", regexp.MustCompile(`\bSG\.[\w-]{16,}\.[\w-]{16,}`), nil},                                                                                  // SendGrid
	{"credential", regexp.MustCompile(`\bnpm_[A-Za-z0-9]{30,}`), nil},                                                                                        // npm
	{"credential", regexp.MustCompile(`\b(?:SK|AC)[0-9a-f]{32}\b`), []string{"SK", "AC"}},                                                                    // Twilio
	{"credential", regexp.MustCompile(`\b[A-Za-z0-9]{3}\dQ~[A-Za-z0-9_.~-]{30,}`), nil},                                                                      // Azure AD client secret
	{"credential", regexp.MustCompile(`hooks\.slack\.com/services/\S+`), nil},                                                                                // Slack webhook
	{"credential", regexp.MustCompile(`[?&](?:sig|signature|X-Amz-Signature|token|access_token)=[^&\s]{10,}`), nil},                                          // signed URLs
	{"credential", regexp.MustCompile(`\b[A-Z][A-Z0-9]*_(?:[A-Z0-9]+_)*(?:SECRET|PASSWORD|PASSWD|TOKEN|KEY)(?:_[A-Z0-9]+)*\s*[=:]\s*['"]?[^\s'"]{6,}`), nil}, // ENV_STYLE=...
	{"credential", regexp.MustCompile(`(?i)\b(?:key|sessionid|session|sid|sig|signature|cookie)=[A-Za-z0-9+/_%-]{20,}=*`), nil},                              // high-entropy key=value
	{"credential", regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY-----`), nil},
	{"credential", regexp.MustCompile(`(?i)\b(?:bearer|token)\s+[A-Za-z0-9._~+/-]*[0-9][A-Za-z0-9._~+/-]*[A-Za-z][A-Za-z0-9._~+/=-]{10,}`), nil},
	{"credential", regexp.MustCompile(`(?i)\bbasic\s+[A-Za-z0-9+/]{12,}={0,2}(?:\s|$)`), nil},
	{"credential", regexp.MustCompile(`(?i)\b(?:password|passwd|pwd|secret|client[_-]?secret|api[_-]?key|apikey|access[_-]?key|auth[_-]?token|access[_-]?token|token|private[_-]?key)["']?\s*[=:]\s*["']?([^\s"';,&]*[0-9][^\s"';,&]*[A-Za-z][^\s"';,&]*|[^\s"';,&]*[A-Za-z][^\s"';,&]*[0-9][^\s"';,&]*)`), nil},
	{"internal address", regexp.MustCompile(`\b(?:10\.\d{1,3}|127\.\d{1,3}|192\.168|169\.254|172\.(?:1[6-9]|2\d|3[01])|100\.(?:6[4-9]|[7-9]\d|1[01]\d|12[0-7]))\.\d{1,3}\.\d{1,3}\b`), []string{"10.", "127.", "192.168.", "169.254.", "172.", "100."}},
	{"internal address", regexp.MustCompile(`(?i)(?:^|[\s\[(/@])(?:fd[0-9a-f]{2}|fe80):[0-9a-f:]*`), nil},
	{"internal address", regexp.MustCompile(`\[::1\](?::\d+)?`), nil},
	{"internal address", regexp.MustCompile(`(?i)\blocalhost:\d+`), nil},
	{"internal address", regexp.MustCompile(`(?i)\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:internal|local|localdomain|lan|corp|intranet|consul|svc\.cluster\.local)\b`), nil},
}

// CheckNoLeak looks for details a server must never hand an agent (stack
// frames, exception type names, file paths, connection strings,
// credential-shaped values and internal network addresses) and returns one line per finding, naming its
// kind and a shortened excerpt. The excerpt keeps only the first few
// characters of the match, so that reporting a leaked secret does not leak
// it again. An empty result means nothing was found.
func CheckNoLeak(text string) []string {
	if text == "" {
		return nil
	}
	var found []string
	seen := map[string]bool{}
	for _, r := range leakRules {
		if !mayMatch(text, r.need) {
			continue
		}
		for _, m := range r.re.FindAllString(text, 4) {
			line := r.kind + " (" + excerpt(strings.TrimLeft(m, " \t\r\n\"'(=:,[")) + ")"
			if !seen[line] {
				seen[line] = true
				found = append(found, line)
			}
		}
	}
	return found
}

func mayMatch(text string, need []string) bool {
	if len(need) == 0 {
		return true
	}
	for _, n := range need {
		if strings.Contains(text, n) {
			return true
		}
	}
	return false
}

// excerpt keeps the first 6 characters of a match.
func excerpt(m string) string {
	r := []rune(m)
	if len(r) <= 6 {
		return string(r) + "…"
	}
	return string(r[:6]) + "…"
}

// Leaks runs CheckNoLeak over every text in the envelope that carries a
// server's or backend's words: the message, each field message and the
// reference. The success body is the backend's data, not error text, and is
// not checked.
func (e *Envelope) Leaks() []string {
	var found []string
	found = append(found, CheckNoLeak(e.Message)...)
	for _, f := range e.Fields {
		found = append(found, CheckNoLeak(f.Message)...)
	}
	found = append(found, CheckNoLeak(e.Reference)...)
	return found
}
