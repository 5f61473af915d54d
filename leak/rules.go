package leak

import (
	"encoding/base64"
	"math"
	"net/netip"
	"regexp"
	"strings"
)

// The rules are compiled once, at package initialisation: the filter runs
// on every error a backend returns.

// pemBlock is a private key, whole or cut short.
var pemBlock = regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----(?s:.*?)(?:-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|$)`)

// goroutineHeader starts a Go goroutine dump; every line up to the next
// blank line belongs to it.
var goroutineHeader = regexp.MustCompile(`(?:^|\s)goroutine \d+ \[[^\]]*\]:?\s*$`)

// pythonFrame is a Python traceback frame; the more indented line after it
// is the source line it points at.
var pythonFrame = regexp.MustCompile(`^\s*File "[^"]*", line \d+`)

// frameLines are whole lines of a stack trace, by stack, each with the
// hints that gate it.
var frameLines = []rule{
	// Java, Kotlin, Scala, .NET, Node: "at pkg.Type.method(", "at Object.<anonymous> (".
	{regexp.MustCompile(`^\s*at\s+(?:async\s+)?\S*\.\S*\s?\(`), []string{"at "}},
	// A frame of an unqualified function: "at lambda_method5(Closure , Object )".
	{regexp.MustCompile("^\\s*at\\s+[\\w$<>`]+\\("), []string{"at "}},
	// Dart: "#0      OrderRepository.find (package:orders/src/x.dart:57:9)".
	{regexp.MustCompile(`(?:^|\s)#\d+\s+\S.*\((?:package|file|dart):[^)]*\)\s*$`), []string{"#"}},
	// Node, Rust and anything else ending in file:line:column.
	{regexp.MustCompile(`^\s*at\s+(?:.*\s)?\(?\S*:\d+:\d+\)?\s*$`), []string{"at "}},
	{regexp.MustCompile(`^\s*at\s+.*\((?:native|<anonymous>|index \d+)\)\s*$`), []string{"at "}},
	{regexp.MustCompile(`^\s*\.\.\.\s*\d+\s+(?:more|common frames omitted)\s*$`), []string{"..."}},
	{regexp.MustCompile(`^\s*Exception in thread "`), []string{"exception in thread"}},
	{regexp.MustCompile(`(?i)^\s*-{3}.*(?:stack trace|inner exception).*-{3}\s*$`), []string{"---"}},
	// Python.
	{regexp.MustCompile(`^\s*Traceback \(most recent call last\):?\s*$`), []string{"traceback"}},
	{regexp.MustCompile(`^\s*(?:During handling of the above exception|The above exception was the direct cause)`), []string{"during handling", "the above exception"}},
	{regexp.MustCompile(`^\s*[\^~]+\s*$`), []string{"^", "~"}},
	// Go.
	{regexp.MustCompile(`^\s*\S+\.go:\d+(?:\s+\+0x[0-9a-fA-F]+)?\s*$`), []string{".go:"}},
	{regexp.MustCompile(`^\s*created by \S+`), []string{"created by"}},
	{regexp.MustCompile(`^\s*panic: `), []string{"panic: "}},
	{regexp.MustCompile(`^\s*\[signal [A-Z]+`), []string{"[signal"}},
	// Ruby.
	{regexp.MustCompile(`^\s*(?:from\s+)?\S+\.(?:rb|erb|rake|ru):\d+:in\b`), []string{".rb:", ".erb:", ".rake:", ".ru:"}},
	// PHP.
	{regexp.MustCompile(`(?:^|\s)#\d+\s+(?:\S.*\(\d+\):|\[internal function\]|\{main\})`), []string{"#"}},
	{regexp.MustCompile(`^\s*(?:PHP\s+)?Stack trace:\s*$`), []string{"stack trace:"}},
	{regexp.MustCompile(`^\s*PHP\s+\d+\.\s`), []string{"php"}},
	// Rust.
	{regexp.MustCompile(`(?:^|\s)thread '[^']*' panicked at`), []string{"panicked at"}},
	{regexp.MustCompile("^\\s*note: run with `?RUST_BACKTRACE"), []string{"rust_backtrace"}},
	{regexp.MustCompile(`^\s*stack backtrace:\s*$`), []string{"stack backtrace"}},
	{regexp.MustCompile(`^\s*\d+:\s+(?:0x[0-9a-fA-F]+ - )?[\w<>{}]+(?:::[\w<>{}]+)+`), []string{"::"}},
	// Elixir and Erlang.
	{regexp.MustCompile(`^\s*\(\w+ [\d.]+\) \S+:\d+:`), []string{".ex:", ".exs:", ".erl:"}},
	{regexp.MustCompile(`^\s*\S+\.(?:ex|exs|erl):\d+:\s`), []string{".ex:", ".exs:", ".erl:"}},
	{regexp.MustCompile(`^\s*\*\* \(\w[\w.]*\)`), []string{"** ("}},
	{regexp.MustCompile(`^\s*in function\s+\S+:\S+/\d+`), []string{"in function"}},
	{regexp.MustCompile(`\(\S+\.(?:erl|hrl|ex|exs), line \d+\)`), []string{", line "}},
}

// rule is a pattern with the literal hints (lower case) that any match
// contains: a text holding none of them skips the pattern, which keeps the
// filter cheap on ordinary prose.
type rule struct {
	re    *regexp.Regexp
	hints []string
}

// may reports whether lower, a lower-cased text, can hold a match.
func (r rule) may(lower string) bool {
	for _, h := range r.hints {
		if strings.Contains(lower, h) {
			return true
		}
	}
	return len(r.hints) == 0
}

// plainSpans are withheld whole wherever they appear.
var plainSpans = []rule{
	// Connection strings and URLs carrying credentials.
	{regexp.MustCompile(`(?i)\b(?:postgres(?:ql)?|mysql|mysqlx|mariadb|mongodb(?:\+srv)?|rediss?|amqps?|mssql|sqlserver|oracle|clickhouse|cockroachdb|couchdb|couchbase|neo4j(?:\+s)?|bolt|nats|kafka|memcached?|ldaps?|cassandra|influxdb|elasticsearch|sqlite3?)://[^\s"'<>]+`), []string{"://"}},
	{regexp.MustCompile(`(?i)\bjdbc:[a-z0-9]+:[^\s"'<>]+`), []string{"jdbc:"}},
	// Go's MySQL driver DSN: user:password@tcp(host:port)/db.
	{regexp.MustCompile(`[^\s:@/"'(]+:[^\s@/"']*@(?:tcp|tcp6|udp|unix)\([^)]*\)/[^\s"'<>]*`), []string{"@tcp(", "@tcp6(", "@udp(", "@unix("}},
	{regexp.MustCompile(`(?i)\b[a-z][a-z0-9+.-]*://[^\s/@"'<>]+:[^\s/@"'<>]*@[^\s"'<>]+`), []string{"://"}},
	{regexp.MustCompile(`https://hooks\.slack\.com/services/\S+`), []string{"hooks.slack.com"}},
	// Provider credentials.
	{regexp.MustCompile(`\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA|ABIA|ACCA)[A-Z0-9]{16}\b`), []string{"akia", "asia", "agpa", "aida", "aroa", "anpa", "anva", "aipa", "abia", "acca"}},
	{regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`), []string{"aiza"}},
	{regexp.MustCompile(`\bya29\.[0-9A-Za-z_-]{20,}`), []string{"ya29."}},
	{regexp.MustCompile(`\bgh[pousr]_[A-Za-z0-9]{30,}`), []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}},
	{regexp.MustCompile(`\bgithub_pat_[A-Za-z0-9_]{20,}`), []string{"github_pat_"}},
	{regexp.MustCompile(`\bgl(?:pat|dt|rt|ptt|cbt|oas|sa)-[A-Za-z0-9_-]{20,}`), []string{"gl"}},
	{regexp.MustCompile(`\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,}`), []string{"_live_", "_test_"}},
	{regexp.MustCompile(`\bwhsec_[A-Za-z0-9]{20,}`), []string{"whsec_"}},
	{regexp.MustCompile(`\bxox[abposre]-[A-Za-z0-9-]{10,}`), []string{"xox"}},
	{regexp.MustCompile(`\bsk-(?:proj-|ant-[a-z0-9]+-)?[A-Za-z0-9_-]{20,}`), []string{"sk-"}},
	{regexp.MustCompile(`\bnpm_[A-Za-z0-9]{36}\b`), []string{"npm_"}},
	{regexp.MustCompile(`\bSG\.[\w-]{16,}\.[\w-]{16,}`), []string{"sg."}},
	{regexp.MustCompile(`\bSK[0-9a-fA-F]{32}\b`), []string{"sk"}},
	{regexp.MustCompile(`\b[\w~.-]{3}\dQ~[\w~.-]{31,}`), []string{"q~"}},
	{regexp.MustCompile(`(?i)\b(?:AccountKey|SharedAccessKey|sig)=[A-Za-z0-9%+/=]{16,}`), []string{"accountkey=", "sharedaccesskey=", "sig="}},
	// JSON Web Tokens.
	{regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*`), []string{"eyj"}},
}

// connKeyValues is a run of ADO.NET-style key=value; pairs, withheld when
// one key names a server, a user or a secret.
var connKeyValues = regexp.MustCompile(`(?i)(?:\b(?:server|data source|host|addr|address|network address|database|initial catalog|user id|uid|user|username|password|pwd|port|accountname|accountkey|defaultendpointsprotocol|endpointsuffix|sharedaccesskeyname|sharedaccesskey|endpoint|integrated security|trusted_connection|encrypt|trustservercertificate|ssl ?mode|timeout|pooling)\s*=\s*[^;\n"']*(?:;\s*|$)){2,}`)

var connSecretKey = regexp.MustCompile(`(?i)\b(?:password|pwd|accountkey|sharedaccesskey|user id|uid|server|data source)\s*=`)

// bearer and basic are HTTP credentials; the word alone is prose.
var (
	bearer = regexp.MustCompile(`(?i)\bbearer\s+([A-Za-z0-9._~+/=-]{8,})`)
	basic  = regexp.MustCompile(`(?i)\bbasic\s+([A-Za-z0-9+/]{6,}={0,2})`)
)

// secretKeyValue is a key naming a secret, its separator and its value.
var secretKeyValue = regexp.MustCompile(`(?i)\b([\w.-]*(?:secret|passw(?:or)?d|pwd|pass|token|api[_-]?key|apikey|access[_-]?key|auth[_-]?key|private[_-]?key|credential|session[_-]?id|sessionid|signature)[\w.-]*)("?[ \t]*[=:][ \t]*)(\[withheld\]|"[^"\n]*"|'[^'\n]*'|[^\s"',;&)}\]]+)`)

// entropyValue is any key=value whose value may be random enough to be a key.
var entropyValue = regexp.MustCompile(`\b([A-Za-z_][\w.-]{0,40})=([A-Za-z0-9+/_-]{20,}={0,2})`)

// exceptionName is a type name an exception carries, with the colon that
// may follow it: a module path of three or more parts opening a line
// (orders.models.Order.DoesNotExist:), qualified with a telling suffix
// (java.lang.X, System.X), namespaced (A::B, A\B), or unqualified but
// unmistakable (FooException, FooError:).
var exceptionName = regexp.MustCompile(`(?m)^[ \t]*[a-z_]\w*(?:\.\w+)+\.[A-Z]\w*:[ \t]*` +
	`|\b(?:[A-Za-z_][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error|Violation|Fault)\b:?[ \t]*` +
	`|\b\w+(?:::\w+)+\b:?[ \t]*` +
	`|\b(?:[A-Z]\w*\\)+[A-Z]\w*\b:?[ \t]*` +
	`|\b[A-Z][A-Za-z0-9]*Exception\b:?[ \t]*` +
	`|\b[A-Z][A-Za-z0-9]+Error:[ \t]*`)

// errorInParens is Ruby's "(NoMethodError)" after a message.
var errorInParens = regexp.MustCompile(`\([A-Z][A-Za-z0-9]+Error\)`)

// sourceExt names files that belong to a program or its configuration.
const sourceExt = `(?:py|pyc|js|mjs|cjs|ts|tsx|jsx|go|rb|erb|php|java|class|jar|war|kt|kts|scala|groovy|cs|vb|fs|dll|exe|so|rs|ex|exs|erl|hrl|c|h|cc|cpp|hpp|swift|pl|pm|lua|sh|bash|sql|env|pem|key|crt|p12|pfx|ini|conf|cfg|config|yml|yaml|toml|json|xml|properties|log|db|sqlite|sqlite3|lock|twig|vue|svelte|dart|clj)`

// pathSpans are file paths; group 1 is the path, so the character before
// it stays.
var pathSpans = []*regexp.Regexp{
	regexp.MustCompile(`(?i)(\b[a-z]:\\[^\s"'<>|*?:]*(?::line \d+)?)`),
	regexp.MustCompile(`(\\\\[\w.$-]+\\[^\s"'<>|*?]*)`),
	regexp.MustCompile(`(?:^|[\s(\["'=:,@])(/(?:app|usr|var|home|srv|opt|etc|tmp|src|root|lib|lib64|proc|sys|mnt|workspace|node_modules|Users|private|snap|nix|rustc|builds)(?:/[^\s"'<>():,;]*)?)`),
	regexp.MustCompile(`(?:^|[\s(\["'=:,@])((?:/[\w.@+~-]+){2,}\.` + sourceExt + `\b(?::\d+)*)`),
}

// sourceRef is a relative source file with a line number.
var sourceRef = regexp.MustCompile(`\b[\w.@~/\\-]*[\w-]\.` + sourceExt + `(?::\d+)+(?::in\s+[` + "`" + `'][^'` + "`" + `\n]*['` + "`" + `])?`)

// internalTLDs gate internalHost: a match ends in one of them.
var internalTLDs = []string{".internal", ".local", ".lan", ".intranet", ".corp", ".arpa", ".consul", ".svc"}

// internalHost and localhost are names that only resolve inside a network.
var (
	internalHost = regexp.MustCompile(`(?i)\b(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:internal|local|localdomain|lan|intranet|corp|home\.arpa|consul|svc)\b(?::\d{1,5})?`)
	localhost    = regexp.MustCompile(`(?i)\blocalhost\b(?::\d{1,5})?`)
)

// ipv4 and ipv6 find address candidates; internalIP decides.
var (
	ipv4 = regexp.MustCompile(`\b\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?\b`)
	ipv6 = regexp.MustCompile(`\[?[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?:%\w+)?\]?(?::\d{1,5})?`)
)

// placeholderRun is placeholders separated only by punctuation or space.
var placeholderRun = regexp.MustCompile(`\[withheld\](?:[\s,;:/@.]*\[withheld\])+`)

// internalIP withholds an address that is private, loopback, link-local,
// shared (CGNAT) or unspecified, with its port.
func internalIP(m string) string {
	h := m
	if strings.HasPrefix(h, "[") {
		if i := strings.Index(h, "]"); i > 0 {
			h = h[1:i]
		}
	} else if strings.Count(h, ":") == 1 {
		h = h[:strings.Index(h, ":")]
	}
	if i := strings.Index(h, "%"); i >= 0 {
		h = h[:i]
	}
	a, err := netip.ParseAddr(h)
	if err != nil {
		return m
	}
	a = a.Unmap()
	if a.IsPrivate() || a.IsLoopback() || a.IsLinkLocalUnicast() || a.IsUnspecified() || cgnat.Contains(a) {
		return Placeholder
	}
	return m
}

var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// tokenish reports whether v looks like a credential rather than a word:
// long enough and holding a digit or a token symbol, or very long.
func tokenish(v string) bool {
	if len(v) < 8 {
		return false
	}
	if len(v) >= 24 {
		return true
	}
	return strings.ContainsAny(v, "0123456789-._~+/=")
}

// basicCredential reports whether v is base64 of "user:password", or at
// least shaped like encoded bytes rather than a word.
func basicCredential(v string) bool {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding} {
		b, err := enc.DecodeString(v)
		if err != nil {
			continue
		}
		printable := true
		for _, c := range b {
			if c < 0x20 || c > 0x7e {
				printable = false
				break
			}
		}
		if printable && strings.Contains(string(b), ":") {
			return true
		}
	}
	return strings.ContainsAny(v, "0123456789+/=")
}

// highEntropy reports whether v mixes letters and digits with more than
// 3.5 bits of entropy per character, as generated keys do.
func highEntropy(v string) bool {
	var letters, digits bool
	var counts [256]int
	for i := 0; i < len(v); i++ {
		c := v[i]
		counts[c]++
		switch {
		case c >= '0' && c <= '9':
			digits = true
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			letters = true
		}
	}
	if !letters || !digits {
		return false
	}
	h := 0.0
	n := float64(len(v))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h > 3.5
}
