package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/sezzlee/sezzlee/config"
)

// fences returns the bodies of the fenced blocks of one language in a
// Markdown file.
func fences(t *testing.T, path, lang string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile("(?ms)^```" + lang + "\n(.*?)^```")
	var out []string
	for _, m := range re.FindAllStringSubmatch(string(data), -1) {
		out = append(out, m[1])
	}
	if len(out) == 0 {
		t.Fatalf("%s has no %s blocks", path, lang)
	}
	return out
}

// TestDocsConfig parses every YAML example of the docs with the real
// configuration parser.
func TestDocsConfig(t *testing.T) {
	for _, block := range fences(t, "../docs/configuration.md", "yaml") {
		if _, err := config.Parse([]byte(block)); err != nil {
			t.Errorf("docs/configuration.md example does not parse: %v\n%s", err, block)
		}
	}
}

// TestDocsCommands runs every command line the docs show with -h appended:
// every flag before it must exist, so the command exits 0.
func TestDocsCommands(t *testing.T) {
	for _, doc := range []string{"../docs/configuration.md", "../docs/deployment.md"} {
		for _, block := range fences(t, doc, "sh") {
			for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
				args := strings.Fields(line)
				if len(args) < 2 || args[0] != "sezzlee" {
					t.Errorf("%s: %q is not a sezzlee command line", doc, line)
					continue
				}
				cmd := exec.Command(bin, append(args[1:], "-h")...)
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				if err := cmd.Run(); err != nil {
					t.Errorf("%s: %q: %v\n%s", doc, line, err, stderr.String())
				}
			}
		}
	}
}

// TestDocsFlagTable checks the flag table and the defaults the docs state
// against the commands' own help.
func TestDocsFlagTable(t *testing.T) {
	help := func(command string) string {
		cmd := exec.Command(bin, command, "-h")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		_ = cmd.Run()
		return stderr.String()
	}
	serve, demo := help("serve"), help("demo")
	data, err := os.ReadFile("../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := regexp.MustCompile("(?m)^\\| `--([a-z-]+)").FindAllStringSubmatch(string(data), -1)
	if len(rows) < 10 {
		t.Fatalf("found %d flag rows in docs/configuration.md, want the whole table", len(rows))
	}
	for _, r := range rows {
		if !strings.Contains(serve, "  -"+r[1]) {
			t.Errorf("docs/configuration.md lists --%s, which sezzlee serve does not have", r[1])
		}
	}
	for _, f := range regexp.MustCompile(`(?m)^  -([a-z-]+)`).FindAllStringSubmatch(serve, -1) {
		if !strings.Contains(string(data), "`--"+f[1]) {
			t.Errorf("sezzlee serve has -%s, which docs/configuration.md does not list", f[1])
		}
	}
	if !strings.Contains(serve, "127.0.0.1:8080") {
		t.Error("docs say serve listens on 127.0.0.1:8080 by default; its help does not")
	}
	if !strings.Contains(demo, "127.0.0.1:8931") {
		t.Error("docs say demo listens on 127.0.0.1:8931 by default; its help does not")
	}
}
