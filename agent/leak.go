package agent

import (
	"regexp"
	"strings"
)

// leakRule is one kind of detail a server must not hand to an agent.
type leakRule struct {
	kind string
	re   *regexp.Regexp
}

// leakRules are deliberately independent of sezzlee's own leak filter: a
// client uses them to catch a server whose filter is broken. They look for
// shapes, not for any one framework's exact text, and they are tuned so that
// ordinary validation prose ("must be at least 12 characters", "the Bearer
// scheme", "password is required") does not trip them.
var leakRules = []leakRule{
	// Stack frames.
	{"stack frame", regexp.MustCompile(`(?m)^\s*at [\w$.<>\[\]` + "`" + `]+\(.*\)`)},                                       // Java, .NET, Node named
	{"stack frame", regexp.MustCompile(`\bat [\w$.<>]+ \(?[^\s()]+:\d+(:\d+)?\)?`)},                                        // Node
	{"stack frame", regexp.MustCompile(`\bin \S+\.(cs|vb|fs):line \d+`)},                                                   // .NET
	{"stack frame", regexp.MustCompile(`File "[^"]+", line \d+`)},                                                          // Python
	{"stack frame", regexp.MustCompile(`Traceback \(most recent call last\)`)},                                             // Python
	{"stack frame", regexp.MustCompile(`\bgoroutine \d+ \[\w+`)},                                                           // Go
	{"stack frame", regexp.MustCompile(`\S+\.go:\d+ \+0x[0-9a-f]+`)},                                                       // Go
	{"stack frame", regexp.MustCompile(`\S+\.(rb|ex|exs|erl):\d+:in\b`)},                                                   // Ruby, Elixir
	{"stack frame", regexp.MustCompile(`(?m)^\s*#\d+ \S+\.php\(\d+\)`)},                                                    // PHP
	{"stack frame", regexp.MustCompile(`\bpanicked at \S+\.rs:\d+`)},                                                       // Rust
	{"stack frame", regexp.MustCompile(`\b[\w$.]+\.(java|kt|scala|groovy):\d+\)`)},                                         // JVM frame suffix
	{"stack frame", regexp.MustCompile(`\(\S+\.(js|mjs|cjs|ts):\d+:\d+\)`)},                                                // Node location
	{"stack frame", regexp.MustCompile(`\bat file:///\S+:\d+`)},                                                            // Deno, browsers
	{"stack frame", regexp.MustCompile(`(?m)^\s*#\d+ \[internal function\]`)},                                              // PHP
	{"stack frame", regexp.MustCompile(`\b[\w./-]+\.(?:go|py|rb|rs|ex|exs|erl|java|kt|scala|cs|php|js|mjs|cjs|ts):\d+\b`)}, // file:line
	{"exception type", regexp.MustCompile(`\*\* \([A-Z][\w.]*\)`)},                                                         // Elixir, Erlang
	{"exception type", regexp.MustCompile(`\b(?:[a-z_][\w]*\.)+[A-Z]\w*(?:Exception|Error)\b`)},                            // java.lang.X, System.X
	{"exception type", regexp.MustCompile(`\b(?:[A-Z][\w]*\.)+[A-Z]\w*Exception\b`)},                                       // System.InvalidOperationException
	{"exception type", regexp.MustCompile(`\b[A-Z][A-Za-z0-9]*Exception\b`)},                                               // NullReferenceException
	{"exception type", regexp.MustCompile(`\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)*Error\b(?::|\s*\()`)},                        // TypeError: / KeyError(
	{"exception type", regexp.MustCompile(`\b(?:[a-z_]\w*\.)+(?:errors|exceptions|exc)\.[A-Z]\w+`)},                        // psycopg2.errors.X
	{"exception type", regexp.MustCompile(`\b[A-Z]\w*(?:::[A-Z]\w*)+\b`)},                                                  // Ruby, PHP, Rust paths
	{"file path", regexp.MustCompile(`(?:^|[\s"'(=:,\[])(/(?:[\w.@-]+/)+[\w.@-]+\.(?:go|py|pyc|java|class|jar|kt|scala|cs|vb|fs|dll|exe|js|mjs|cjs|ts|tsx|rb|erb|php|rs|ex|exs|erl|c|h|cc|cpp|hpp|so|sh|pl|conf|cfg|ini|yaml|yml|json|xml|env|log|sql|pem|key|properties|config|toml))\b`)},
	{"file path", regexp.MustCompile(`(?:^|[\s"'(=:,\[])(/(?:home|root|usr|var|etc|opt|srv|tmp|app|src|proc|mnt|workspace|Users)/[\w.@/-]+)`)},
	{"file path", regexp.MustCompile(`\b[A-Za-z]:\\(?:[^\\\s"'<>|]+\\)*[^\\\s"'<>|]*`)},
	{"file path", regexp.MustCompile(`\\\\[\w.-]+\\[\w$.-]+`)},
	{"connection string", regexp.MustCompile(`(?i)\b(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|redis(?:s)?|rediss|amqps?|mssql|sqlserver|oracle|clickhouse|cockroachdb|nats|kafka)://[^\s'"]+`)},
	{"connection string", regexp.MustCompile(`(?i)\bjdbc:[a-z0-9]+:[^\s'"]+`)},
	{"connection string", regexp.MustCompile(`(?i)\b(?:server|data source|host|address|addr)\s*=\s*[^;\s]+;[^\n]*?(?:database|initial catalog|user id|uid|password|pwd)\s*=`)},
	{"connection string", regexp.MustCompile(`(?i)\b[a-z][a-z0-9+.-]*://[^\s:/@'"]+:[^\s@/'"]+@[^\s'"]+`)},
	{"connection string", regexp.MustCompile(`(?i)\b(?:DefaultEndpointsProtocol|AccountKey|SharedAccessKey(?:Name)?)=`)},
	{"connection string", regexp.MustCompile(`\bsb://[^\s;'"]+`)},
	{"credential", regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`)},
	{"credential", regexp.MustCompile(`\bgh[pousr]_[A-Za-z0-9]{30,}\b`)},
	{"credential", regexp.MustCompile(`\bgithub_pat_[A-Za-z0-9_]{30,}\b`)},
	{"credential", regexp.MustCompile(`\bglpat-[A-Za-z0-9_-]{20,}\b`)},
	{"credential", regexp.MustCompile(`\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}\b`)},
	{"credential", regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}\b`)},
	{"credential", regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}\b`)},
	{"credential", regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`)},
	{"credential", regexp.MustCompile(`\bwhsec_[A-Za-z0-9]{20,}`)},                                                                                      // Stripe webhook
	{"credential", regexp.MustCompile(`\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}`)},                                                                        // OpenAI, Anthropic
	{"credential", regexp.MustCompile(`\bSG\.[\w-]{16,}\.[\w-]{16,}`)},                                                                                  // SendGrid
	{"credential", regexp.MustCompile(`\bnpm_[A-Za-z0-9]{30,}`)},                                                                                        // npm
	{"credential", regexp.MustCompile(`\b(?:SK|AC)[0-9a-f]{32}\b`)},                                                                                     // Twilio
	{"credential", regexp.MustCompile(`\b[A-Za-z0-9]{3}\dQ~[A-Za-z0-9_.~-]{30,}`)},                                                                      // Azure AD client secret
	{"credential", regexp.MustCompile(`hooks\.slack\.com/services/\S+`)},                                                                                // Slack webhook
	{"credential", regexp.MustCompile(`[?&](?:sig|signature|X-Amz-Signature|token|access_token)=[^&\s]{10,}`)},                                          // signed URLs
	{"credential", regexp.MustCompile(`\b[A-Z][A-Z0-9]*_(?:[A-Z0-9]+_)*(?:SECRET|PASSWORD|PASSWD|TOKEN|KEY)(?:_[A-Z0-9]+)*\s*[=:]\s*['"]?[^\s'"]{6,}`)}, // ENV_STYLE=...
	{"credential", regexp.MustCompile(`(?i)\b(?:key|sessionid|session|sid|sig|signature|cookie)=[A-Za-z0-9+/_%-]{20,}=*`)},                              // high-entropy key=value
	{"credential", regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY-----`)},
	{"credential", regexp.MustCompile(`(?i)\b(?:bearer|token)\s+[A-Za-z0-9._~+/-]*[0-9][A-Za-z0-9._~+/-]*[A-Za-z][A-Za-z0-9._~+/=-]{10,}`)},
	{"credential", regexp.MustCompile(`(?i)\bbasic\s+[A-Za-z0-9+/]{12,}={0,2}(?:\s|$)`)},
	{"credential", regexp.MustCompile(`(?i)\b(?:password|passwd|pwd|secret|client[_-]?secret|api[_-]?key|apikey|access[_-]?key|auth[_-]?token|access[_-]?token|token|private[_-]?key)["']?\s*[=:]\s*["']?([^\s"';,&]*[0-9][^\s"';,&]*[A-Za-z][^\s"';,&]*|[^\s"';,&]*[A-Za-z][^\s"';,&]*[0-9][^\s"';,&]*)`)},
	{"internal address", regexp.MustCompile(`\b(?:10\.\d{1,3}|127\.\d{1,3}|192\.168|169\.254|172\.(?:1[6-9]|2\d|3[01])|100\.(?:6[4-9]|[7-9]\d|1[01]\d|12[0-7]))\.\d{1,3}\.\d{1,3}\b`)},
	{"internal address", regexp.MustCompile(`(?i)(?:^|[\s\[(/@])(?:fd[0-9a-f]{2}|fe80):[0-9a-f:]*`)},
	{"internal address", regexp.MustCompile(`\[::1\](?::\d+)?`)},
	{"internal address", regexp.MustCompile(`(?i)\blocalhost:\d+`)},
	{"internal address", regexp.MustCompile(`(?i)\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:internal|local|localdomain|lan|corp|intranet|consul|svc\.cluster\.local)\b`)},
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
