package envelope

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"regexp"
	"strings"
	"testing"
)

func TestInternal(t *testing.T) {
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	cause := errors.New("render: dial postgres://sezzlee:hunter22@10.0.0.9/catalog: refused")
	e := Internal(context.Background(), logger, cause)
	out := string(mustValidate(t, e))
	if e.Error != InternalError || *e.Retryable || e.Status != 0 {
		t.Errorf("got %s retryable=%v status=%d; want internal_error, false, no status", e.Error, *e.Retryable, e.Status)
	}
	if !regexp.MustCompile(`^sz-[0-9a-f]{16}$`).MatchString(e.Reference) {
		t.Errorf("reference %q; want sz- and 16 hex digits", e.Reference)
	}
	if strings.Contains(out, "render") || strings.Contains(out, "refused") {
		t.Errorf("the cause reached the envelope:\n%s", out)
	}
	if !strings.Contains(logs.String(), e.Reference) || !strings.Contains(logs.String(), "render: dial") {
		t.Errorf("the log lacks the reference or the cause:\n%s", logs.String())
	}
	if strings.Contains(logs.String(), "hunter22") {
		t.Errorf("a secret reached the log:\n%s", logs.String())
	}
	if again := Internal(context.Background(), logger, nil); again.Reference == e.Reference {
		t.Errorf("two internal errors share the reference %q", e.Reference)
	}
}

func TestGuards(t *testing.T) {
	tests := []struct {
		name      string
		e         *Envelope
		code      Code
		retryable bool
	}{
		{"timeout", Timeout(), InvokeTimeout, true},
		{"unreachable before sending", Unreachable(true), BackendUnreachable, true},
		{"unreachable after sending", Unreachable(false), BackendUnreachable, false},
		{"too large", TooLarge(1<<20, 1<<16, "application/json", []string{"per_page"}), ResponseTooLarge, false},
		{"ranker", Reject(SearchRankerUnavailable, "", nil), SearchRankerUnavailable, true},
		{"file store down", Retry(FileUnresolved, "", true), FileUnresolved, true},
	}
	for _, tt := range tests {
		mustValidate(t, tt.e)
		if tt.e.Error != tt.code || *tt.e.Retryable != tt.retryable || tt.e.Status != 0 {
			t.Errorf("%s: got %s retryable=%v status=%d; want %s, %v, no status", tt.name, tt.e.Error, *tt.e.Retryable, tt.e.Status, tt.code, tt.retryable)
		}
		if tt.e.Message == "" {
			t.Errorf("%s: empty message", tt.name)
		}
	}
}

// TestRejectEverySDKCode checks that every SDK-side code, built the way the
// other packages build it, is a valid envelope without status.
func TestRejectEverySDKCode(t *testing.T) {
	for _, c := range Codes() {
		if c.Layer != LayerSDK {
			continue
		}
		e := Reject(c.Code, "", []Field{{Name: "x", Message: "is wrong"}})
		if c.Code == ResponseTooLarge {
			e = TooLarge(10, 5, "", nil)
		}
		mustValidate(t, e)
		if e.Message != c.Message {
			t.Errorf("%s: message %q; want the fixed %q", c.Code, e.Message, c.Message)
		}
		if want := c.Retryable == RetryAlways; *e.Retryable != want {
			t.Errorf("%s: Reject gave retryable %v; want %v", c.Code, *e.Retryable, want)
		}
	}
}

func TestNarrowing(t *testing.T) {
	got := Narrowing([]string{"id", "limit", "starting_after", "expand[]", "$select", "filter[status]", "name", "pageToken"})
	want := []string{"limit", "starting_after", "$select", "filter[status]", "pageToken"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("Narrowing = %q; want %q", got, want)
	}
}
