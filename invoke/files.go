package invoke

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/url"
	"os"
	"path"
	"strings"

	"github.com/sezzlee/sezzlee/envelope"
)

// File is a resolved file argument.
type File struct {
	// Name is the file name sent in a multipart part; may be empty.
	Name string
	// ContentType is the file's media type; empty means the binding's or
	// application/octet-stream.
	ContentType string
	// Content is the file's bytes.
	Content []byte
}

// FileResolver resolves a file argument given as a URI. data: URIs never
// reach it: the Invoker decodes them itself.
//
// Resolve must not return more than maxBytes of content: when the file is
// larger it returns an error matching ErrFileTooLarge. An error matching
// ErrStoreUnavailable says the store could not be reached, and the agent is
// told it may retry; any other error means the reference cannot be resolved.
// Error texts are not shown to the agent.
type FileResolver interface {
	Resolve(ctx context.Context, uri string, maxBytes int64) (*File, error)
}

// Errors a FileResolver reports.
var (
	// ErrFileTooLarge reports a file over the size limit (file_too_large).
	ErrFileTooLarge = errors.New("invoke: file too large")
	// ErrStoreUnavailable reports a file store that cannot be reached
	// right now (file_unresolved, retryable).
	ErrStoreUnavailable = errors.New("invoke: file store unavailable")
	// ErrFileNotFound reports a reference to no file (file_unresolved).
	ErrFileNotFound = errors.New("invoke: file not found")
)

// LocalFiles resolves file: URIs and plain relative paths to files under
// Root. A reference is always read relative to Root: "file:report.pdf",
// "file:///report.pdf" and "report.pdf" name the same file. Paths that climb
// out of Root (..), and symbolic links that lead out of it, are refused.
type LocalFiles struct {
	// Root is the directory files are read from. Empty refuses every reference.
	Root string
}

var _ FileResolver = LocalFiles{}

// Resolve reads the named file under Root.
func (l LocalFiles) Resolve(ctx context.Context, uri string, maxBytes int64) (*File, error) {
	if l.Root == "" {
		return nil, ErrFileNotFound
	}
	name := uri
	if rest, ok := strings.CutPrefix(uri, "file:"); ok {
		u, err := url.Parse(uri)
		if err != nil || (u.Host != "" && u.Host != "localhost") {
			return nil, ErrFileNotFound
		}
		name = u.Path
		if name == "" {
			name = u.Opaque
		}
		if name == "" {
			name = rest
		}
	} else if strings.Contains(uri, ":") {
		return nil, fmt.Errorf("%w: unsupported scheme", ErrFileNotFound)
	}
	name = strings.TrimLeft(name, "/")
	if name == "" || !fs.ValidPath(name) {
		return nil, fmt.Errorf("%w: path leaves the root", ErrFileNotFound)
	}
	root, err := os.OpenRoot(l.Root)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrStoreUnavailable, err)
	}
	defer root.Close()
	f, err := root.Open(name) // os.Root refuses escapes through .. and symlinks
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFileNotFound, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil, ErrFileNotFound
	}
	if st.Size() > maxBytes {
		return nil, ErrFileTooLarge
	}
	b, err := io.ReadAll(io.LimitReader(f, maxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrStoreUnavailable, err)
	}
	if int64(len(b)) > maxBytes {
		return nil, ErrFileTooLarge
	}
	return &File{Name: path.Base(name), ContentType: mime.TypeByExtension(path.Ext(name)), Content: b}, nil
}

// resolveFiles turns every file argument into files, or violations.
func (b *builder) resolveFiles() {
	for i := range b.tool.Binding.Args {
		ab := &b.tool.Binding.Args[i]
		if !ab.File || ab.Deferred {
			continue
		}
		v, ok := b.args[ab.Name]
		if !ok || v == nil {
			continue
		}
		items := []any{v}
		if list, ok := v.([]any); ok {
			items = list
		}
		var files []*File
		for _, it := range items {
			f := b.file(ab.Name, it)
			if f == nil {
				break
			}
			files = append(files, f)
		}
		if len(files) == len(items) {
			if b.files == nil {
				b.files = make(map[string][]*File)
			}
			b.files[ab.Name] = files
		}
	}
}

const fileShape = "a URI string, or an object {\"content\": base64, \"name\": string, \"contentType\": string} with content required"

// file resolves one file value, or records why it cannot be.
func (b *builder) file(name string, v any) *File {
	max := b.inv.opts.MaxFileBytes
	tooLarge := func() *File {
		b.fail(envelope.FileTooLarge, name, "File argument '%s' is larger than the %d bytes allowed.", name, max)
		return nil
	}
	switch x := v.(type) {
	case string:
		if strings.HasPrefix(x, "data:") {
			f, err := parseDataURI(x, max)
			if errors.Is(err, ErrFileTooLarge) {
				return tooLarge()
			}
			if err != nil {
				b.fail(envelope.InvalidFileArgument, name, "File argument '%s' is not a valid data: URI (data:[media type][;base64],data).", name)
				return nil
			}
			return f
		}
		if b.inv.opts.Files == nil {
			b.fail(envelope.InvalidFileArgument, name, "File argument '%s' must be a data: URI or an object with base64 content; this server resolves no other references.", name)
			return nil
		}
		f, err := b.inv.opts.Files.Resolve(b.ctx, x, max)
		switch {
		case err == nil && f != nil && int64(len(f.Content)) <= max:
			return f
		case errors.Is(err, ErrFileTooLarge) || (err == nil && f != nil):
			return tooLarge()
		case errors.Is(err, ErrStoreUnavailable):
			b.failRetryable(name, "The file store for argument '%s' is unavailable right now; retry later.", name)
		default:
			b.fail(envelope.FileUnresolved, name, "File argument '%s' names no file this server can read.", name)
		}
		return nil
	case map[string]any:
		f := &File{}
		content, hasContent := x["content"].(string)
		for k, val := range x {
			s, isString := val.(string)
			switch {
			case !isString:
				b.fail(envelope.InvalidFileArgument, name, "File argument '%s' must be %s; '%s' must be a string.", name, fileShape, k)
				return nil
			case k == "name":
				f.Name = s
			case k == "contentType":
				f.ContentType = s
			case k == "content":
			default:
				b.fail(envelope.InvalidFileArgument, name, "File argument '%s' must be %s; '%s' is not one of its members.", name, fileShape, k)
				return nil
			}
		}
		if !hasContent {
			b.fail(envelope.InvalidFileArgument, name, "File argument '%s' must be %s; content is missing.", name, fileShape)
			return nil
		}
		if int64(base64.StdEncoding.DecodedLen(len(content))) > max+2 {
			return tooLarge()
		}
		data, err := decodeBase64(content)
		if err != nil {
			b.fail(envelope.InvalidFileArgument, name, "File argument '%s' has content that is not base64.", name)
			return nil
		}
		if int64(len(data)) > max {
			return tooLarge()
		}
		f.Content = data
		if unsafeHeader(f.Name) || unsafeHeader(f.ContentType) {
			b.fail(envelope.HeaderInjection, name, "File argument '%s' has a name or content type with a line break or NUL character.", name)
			return nil
		}
		if f.ContentType != "" {
			if _, _, err := mime.ParseMediaType(f.ContentType); err != nil {
				b.fail(envelope.InvalidFileArgument, name, "File argument '%s' has a contentType that is not a media type (like image/png).", name)
				return nil
			}
		}
		return f
	}
	b.fail(envelope.InvalidFileArgument, name, "File argument '%s' must be %s.", name, fileShape)
	return nil
}

func (b *builder) failRetryable(name, format string, a ...any) {
	b.fail(envelope.FileUnresolved, name, format, a...)
	b.violations[len(b.violations)-1].retryable = true
}

func decodeBase64(s string) ([]byte, error) {
	s = strings.TrimRight(s, "=")
	if b, err := base64.RawStdEncoding.DecodeString(s); err == nil {
		return b, nil
	}
	return base64.RawURLEncoding.DecodeString(s)
}

// parseDataURI decodes an RFC 2397 data: URI.
func parseDataURI(s string, max int64) (*File, error) {
	meta, data, ok := strings.Cut(strings.TrimPrefix(s, "data:"), ",")
	if !ok {
		return nil, errors.New("no comma")
	}
	isBase64 := false
	if m, ok := strings.CutSuffix(meta, ";base64"); ok {
		meta, isBase64 = m, true
	}
	ct := meta
	if ct != "" {
		if _, _, err := mime.ParseMediaType(ct); err != nil {
			return nil, err
		}
	}
	if int64(len(data)) > 3*max+8 {
		return nil, ErrFileTooLarge
	}
	var content []byte
	var err error
	if isBase64 {
		content, err = decodeBase64(data)
	} else {
		var text string
		text, err = url.PathUnescape(data)
		content = []byte(text)
	}
	if err != nil {
		return nil, err
	}
	if int64(len(content)) > max {
		return nil, ErrFileTooLarge
	}
	return &File{ContentType: ct, Content: content}, nil
}
