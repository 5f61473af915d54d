package invoke

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestLocalFiles(t *testing.T) {
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret"), 0o600)
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "sub"), 0o700)
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("hello"), 0o600)
	os.WriteFile(filepath.Join(root, "sub", "b.json"), []byte("{}"), 0o600)
	os.WriteFile(filepath.Join(root, "big.bin"), make([]byte, 100), 0o600)
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "link.txt")); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	os.Symlink(outside, filepath.Join(root, "dirlink"))
	os.Symlink("a.txt", filepath.Join(root, "inner.txt"))
	lf := LocalFiles{Root: root}
	tests := []struct {
		uri      string
		content  string
		wantErr  error
		wantType string
	}{
		{uri: "a.txt", content: "hello", wantType: "text/plain; charset=utf-8"},
		{uri: "file:a.txt", content: "hello"},
		{uri: "file:///a.txt", content: "hello"},
		{uri: "file://localhost/sub/b.json", content: "{}", wantType: "application/json"},
		{uri: "inner.txt", content: "hello"}, // a link that stays inside is fine
		{uri: "/a.txt", content: "hello"},    // absolute means root-relative
		{uri: "../" + filepath.Base(outside) + "/secret.txt", wantErr: ErrFileNotFound},
		{uri: "file:../secret.txt", wantErr: ErrFileNotFound},
		{uri: "sub/../../secret.txt", wantErr: ErrFileNotFound},
		{uri: filepath.Join(outside, "secret.txt"), wantErr: ErrFileNotFound},
		{uri: "link.txt", wantErr: ErrFileNotFound},
		{uri: "dirlink/secret.txt", wantErr: ErrFileNotFound},
		{uri: "file://evil.example.com/a.txt", wantErr: ErrFileNotFound},
		{uri: "https://example.com/a.txt", wantErr: ErrFileNotFound},
		{uri: "sub", wantErr: ErrFileNotFound}, // a directory is not a file
		{uri: "missing.txt", wantErr: ErrFileNotFound},
		{uri: "big.bin", wantErr: ErrFileTooLarge},
	}
	for _, tt := range tests {
		f, err := lf.Resolve(context.Background(), tt.uri, 50)
		if tt.wantErr != nil {
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("Resolve(%q) = %v, %v; want %v", tt.uri, f, err, tt.wantErr)
			}
			continue
		}
		if err != nil || string(f.Content) != tt.content {
			t.Errorf("Resolve(%q) = %v, %v; want %q", tt.uri, f, err, tt.content)
			continue
		}
		if tt.wantType != "" && f.ContentType != tt.wantType {
			t.Errorf("Resolve(%q) content type %q, want %q", tt.uri, f.ContentType, tt.wantType)
		}
	}
	if _, err := (LocalFiles{}).Resolve(context.Background(), "a.txt", 50); err == nil {
		t.Error("an empty Root resolved a file")
	}
}

func TestParseDataURI(t *testing.T) {
	tests := []struct {
		uri, content, ct string
		bad              bool
	}{
		{uri: "data:,hello%20world", content: "hello world"},
		{uri: "data:text/plain;base64,aGk=", content: "hi", ct: "text/plain"},
		{uri: "data:image/png;base64,aGk", content: "hi", ct: "image/png"},
		{uri: "data:;base64,aGk=", content: "hi"},
		{uri: "data:text/plain", bad: true},
		{uri: "data:;base64,***", bad: true},
		{uri: "data:not a type,x", bad: true},
	}
	for _, tt := range tests {
		f, err := parseDataURI(tt.uri, 100)
		if tt.bad {
			if err == nil {
				t.Errorf("parseDataURI(%q) succeeded, want an error", tt.uri)
			}
			continue
		}
		if err != nil || string(f.Content) != tt.content || f.ContentType != tt.ct {
			t.Errorf("parseDataURI(%q) = %+v, %v; want %q of type %q", tt.uri, f, err, tt.content, tt.ct)
		}
	}
}

func FuzzParseDataURI(f *testing.F) {
	for _, s := range []string{"data:,x", "data:text/plain;base64,aGk=", "data:;base64,", "data:a/b;c=d,%41", "data:,%zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		file, err := parseDataURI(s, 16)
		if err == nil && len(file.Content) > 16 {
			t.Fatalf("%q gave %d bytes over a 16-byte bound", s, len(file.Content))
		}
	})
}

// FuzzLocalFiles: whatever the reference, LocalFiles never reads the file
// that sits outside its root, directly or through a link.
func FuzzLocalFiles(f *testing.F) {
	base := f.TempDir()
	root := filepath.Join(base, "root")
	os.MkdirAll(filepath.Join(root, "sub"), 0o700)
	os.WriteFile(filepath.Join(base, "secret"), []byte("SECRET"), 0o600)
	os.WriteFile(filepath.Join(root, "ok"), []byte("fine"), 0o600)
	os.Symlink(filepath.Join(base, "secret"), filepath.Join(root, "sub", "link"))
	for _, s := range []string{"ok", "../secret", "file:../secret", "file:///../secret", "sub/link", "sub/../../secret", base + "/secret", "file://localhost/../secret", "%2e%2e/secret"} {
		f.Add(s)
	}
	lf := LocalFiles{Root: root}
	f.Fuzz(func(t *testing.T, uri string) {
		file, err := lf.Resolve(context.Background(), uri, 64)
		if err == nil && string(file.Content) == "SECRET" {
			t.Fatalf("%q read the file outside the root", uri)
		}
	})
}
