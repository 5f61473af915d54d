package catalog

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/sezzlee/sezzlee/ssrf"
	"go.yaml.in/yaml/v3"
)

// LoadError is the one error a source that cannot be read as a description
// gets: unreadable, too large, too deep, not YAML or JSON, or not an
// OpenAPI or Swagger description at all. Everything short of that loads,
// with warnings.
type LoadError struct {
	// Code is a stable identifier of the failure (see the Code constants).
	Code string
	// Source is the file path or URL, "" for Parse.
	Source string
	// Line and Column locate the problem, 1-based; zero when unknown.
	Line, Column int
	// Message says what is wrong, in words for the operator.
	Message string
	// Err is the underlying cause, if any.
	Err error
}

// The LoadError codes. They are stable: tools and tests match on them.
const (
	CodeUnreadable     = "unreadable"      // the file or URL could not be read
	CodeTooLarge       = "too_large"       // larger than Options.MaxBytes
	CodeTooDeep        = "too_deep"        // nests deeper than Options.MaxDepth
	CodeSyntax         = "syntax"          // not YAML or JSON
	CodeNotDescription = "not_description" // YAML or JSON, but not a description
	CodeBadOptions     = "bad_options"     // Options failed validation
	CodeInternal       = "internal"        // the loader itself failed (a bug)
)

// Error formats the error as "source: line L, column C: message".
func (e *LoadError) Error() string {
	var b strings.Builder
	if e.Source != "" {
		b.WriteString(e.Source)
		b.WriteString(": ")
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d", e.Line)
		if e.Column > 0 {
			fmt.Fprintf(&b, ", column %d", e.Column)
		}
		b.WriteString(": ")
	}
	b.WriteString(e.Message)
	return b.String()
}

// Unwrap returns the cause.
func (e *LoadError) Unwrap() error { return e.Err }

// Load reads a description from a file path or an http(s) URL and builds
// its catalog. A nil opts is the zero Options. The only error is a
// *LoadError; everything that can be repaired is reported in
// Catalog.Warnings instead.
func Load(ctx context.Context, source string, opts *Options) (*Catalog, error) {
	o, err := opts.normalized()
	if err != nil {
		return nil, &LoadError{Code: CodeBadOptions, Source: source, Message: err.Error(), Err: err}
	}
	l := newLoader(ctx, o)
	var data []byte
	var base string
	if isURL(source) {
		u, err := url.Parse(source)
		if err != nil {
			return nil, &LoadError{Code: CodeUnreadable, Source: source, Message: "not a valid URL", Err: err}
		}
		data, err = l.fetch(u.String())
		if err != nil {
			return nil, l.readError(source, err)
		}
		base = u.String()
	} else {
		abs, err := filepath.Abs(source)
		if err == nil {
			abs, err = filepath.EvalSymlinks(abs)
		}
		if err != nil {
			return nil, &LoadError{Code: CodeUnreadable, Source: source, Message: "cannot read the file: " + plainErr(err), Err: err}
		}
		data, err = readFile(abs, o.MaxBytes)
		if err != nil {
			return nil, l.readError(source, err)
		}
		base = abs
		l.rootDir = filepath.Dir(abs)
	}
	return l.build(source, base, data)
}

// Parse builds a catalog from the bytes of a description. References to
// other files or URLs are refused with a warning, since there is no folder
// or address to resolve them against. The only error is a *LoadError.
func Parse(data []byte, opts *Options) (*Catalog, error) {
	o, err := opts.normalized()
	if err != nil {
		return nil, &LoadError{Code: CodeBadOptions, Message: err.Error(), Err: err}
	}
	l := newLoader(context.Background(), o)
	l.noExternal = true
	return l.build("", "", data)
}

// normalized returns a copy of o with defaults applied, or an error.
func (o *Options) normalized() (Options, error) {
	var n Options
	if o != nil {
		n = *o
	}
	if n.MaxBytes < 0 || n.MaxDepth < 0 || n.FetchTimeout < 0 {
		return n, errors.New("MaxBytes, MaxDepth and FetchTimeout must not be negative")
	}
	if n.MaxBytes == 0 {
		n.MaxBytes = DefaultMaxBytes
	}
	if n.MaxDepth == 0 {
		n.MaxDepth = DefaultMaxDepth
	}
	if n.FetchTimeout == 0 {
		n.FetchTimeout = DefaultFetchTimeout
	}
	if err := n.Filter.validate(); err != nil {
		return n, err
	}
	return n, nil
}

func isURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

// errTooLarge reports a file or response over Options.MaxBytes.
var errTooLarge = errors.New("larger than the size limit")

func readFile(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimited(f, max)
}

func readLimited(r io.Reader, max int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, errTooLarge
	}
	return data, nil
}

func (l *loader) readError(source string, err error) *LoadError {
	if errors.Is(err, errTooLarge) {
		return &LoadError{Code: CodeTooLarge, Source: source, Message: fmt.Sprintf("the description is larger than %d bytes", l.opts.MaxBytes), Err: err}
	}
	return &LoadError{Code: CodeUnreadable, Source: source, Message: "cannot read the description: " + plainErr(err), Err: err}
}

// plainErr renders err without the Go error chain's package prefixes.
func plainErr(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// fetch GETs an http(s) URL through the SSRF policy, bounded in size and time.
func (l *loader) fetch(rawURL string) ([]byte, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("only http and https URLs can be fetched: %q", rawURL)
	}
	if l.client == nil {
		policy := ssrf.Policy{AllowPrivate: l.opts.AllowPrivateNetworks}
		l.client = &http.Client{
			Transport: policy.Transport(l.opts.FetchTimeout),
			Timeout:   l.opts.FetchTimeout,
			CheckRedirect: func(req *http.Request, via []*http.Request) error {
				if len(via) >= 5 {
					return errors.New("too many redirects")
				}
				if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
					return errors.New("redirect to a non-http(s) URL")
				}
				return nil
			},
		}
	}
	req, err := http.NewRequestWithContext(l.ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/yaml, application/json;q=0.9, */*;q=0.5")
	resp, err := l.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("GET %s: status %s", u.Redacted(), resp.Status)
	}
	if resp.ContentLength > l.opts.MaxBytes {
		return nil, errTooLarge
	}
	return readLimited(resp.Body, l.opts.MaxBytes)
}

var yamlLine = regexp.MustCompile(`line (\d+)`)

// parseDoc parses data into a node tree and checks its size and depth.
func (l *loader) parseDoc(source string, data []byte) (*yaml.Node, *LoadError) {
	if int64(len(data)) > l.opts.MaxBytes {
		return nil, &LoadError{Code: CodeTooLarge, Source: source, Message: fmt.Sprintf("the description is larger than %d bytes", l.opts.MaxBytes)}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(fixSurrogates(data), &doc); err != nil {
		e := &LoadError{Code: CodeSyntax, Source: source, Message: "not YAML or JSON: " + strings.TrimPrefix(err.Error(), "yaml: "), Err: err}
		if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
			e.Line, _ = strconv.Atoi(m[1])
		}
		if strings.Contains(err.Error(), "exceeded max depth") {
			e.Code = CodeTooDeep
		}
		return nil, e
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, &LoadError{Code: CodeNotDescription, Source: source, Line: 1, Column: 1, Message: "the document is empty"}
	}
	if at, deep := depthExceeds(&doc, l.opts.MaxDepth+1); deep {
		return nil, &LoadError{Code: CodeTooDeep, Source: source, Line: at.Line, Column: at.Column, Message: fmt.Sprintf("the document nests deeper than %d levels", l.opts.MaxDepth)}
	}
	return deref(doc.Content[0]), nil
}
