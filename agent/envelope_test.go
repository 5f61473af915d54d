package agent

import (
	"errors"
	"reflect"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name      string
		text      string
		wantErr   error
		sdkSide   bool
		failed    bool
		canRetry  bool
		status    int
		fieldName []string
	}{
		{name: "success", text: `{"status":200,"body":{"id":1}}`, status: 200},
		{name: "created with location", text: `{"status":201,"body":{"id":3},"location":"/orders/3"}`, status: 201},
		{name: "backend validation", text: `{"error":"validation_failed","message":"m","status":400,"retryable":false,
			"fields":[{"name":"item","message":"a"},{"name":"item","message":"b"},{"name":"quantity","message":"c"}]}`,
			failed: true, status: 400, fieldName: []string{"item", "quantity"}},
		{name: "sdk-side", text: `{"error":"unknown_argument","message":"m","retryable":false}`, sdkSide: true, failed: true},
		{name: "rate limited", text: `{"error":"rate_limited","message":"m","status":429,"retryable":true,"retryAfterSeconds":2}`,
			failed: true, canRetry: true, status: 429},
		{name: "retryable missing counts as false", text: `{"error":"backend_error","status":500}`, failed: true, status: 500},
		{name: "unknown members are ignored", text: `{"status":204,"future":{"x":1}}`, status: 204},
		{name: "array", text: `[1]`, wantErr: ErrNotEnvelope},
		{name: "null", text: `null`, wantErr: ErrNotEnvelope},
		{name: "not json", text: `oops`, wantErr: ErrNotEnvelope},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Parse([]byte(tt.text))
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := e.IsSDKSide(); got != tt.sdkSide {
				t.Errorf("IsSDKSide() = %v, want %v", got, tt.sdkSide)
			}
			if got := e.Failed(); got != tt.failed {
				t.Errorf("Failed() = %v, want %v", got, tt.failed)
			}
			if got := e.CanRetry(); got != tt.canRetry {
				t.Errorf("CanRetry() = %v, want %v", got, tt.canRetry)
			}
			if got := e.StatusCode(); got != tt.status {
				t.Errorf("StatusCode() = %d, want %d", got, tt.status)
			}
			if got := e.FieldNames(); !reflect.DeepEqual(got, tt.fieldName) {
				t.Errorf("FieldNames() = %q, want %q", got, tt.fieldName)
			}
			if string(e.Raw) != tt.text {
				t.Errorf("Raw = %s, want the input", e.Raw)
			}
		})
	}
}

func TestParseRejectsWrongTypes(t *testing.T) {
	for _, text := range []string{
		`{"status":"200"}`,
		`{"retryable":"yes"}`,
		`{"fields":{"name":"x"}}`,
		`{"retryAfterSeconds":1.5}`,
	} {
		if _, err := Parse([]byte(text)); err == nil {
			t.Errorf("Parse(%s) = nil error, want a malformed envelope error", text)
		}
	}
}

func TestFieldsFor(t *testing.T) {
	e, err := Parse([]byte(`{"error":"validation_failed","status":400,"retryable":false,"fields":[
		{"name":"item","message":"The Item field is required."},
		{"name":"quantity","message":"out of range"},
		{"name":"item","message":"too short"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := e.FieldsFor("item"), []string{"The Item field is required.", "too short"}; !reflect.DeepEqual(got, want) {
		t.Errorf("FieldsFor(item) = %q, want %q", got, want)
	}
	if got := e.FieldsFor("note"); got != nil {
		t.Errorf("FieldsFor(note) = %q, want nil", got)
	}
}

func TestRetryAfter(t *testing.T) {
	secs := func(n int) *int { return &n }
	yes, no := true, false
	tests := []struct {
		name      string
		e         Envelope
		fallback  time.Duration
		limit     time.Duration
		want      time.Duration
		wantRetry bool
	}{
		{"asked wait", Envelope{Retryable: &yes, RetryAfterSeconds: secs(2)}, time.Second, 0, 2 * time.Second, true},
		{"bounded by limit", Envelope{Retryable: &yes, RetryAfterSeconds: secs(60)}, time.Second, 3 * time.Second, 3 * time.Second, true},
		{"bounded by default", Envelope{Retryable: &yes, RetryAfterSeconds: secs(3600)}, time.Second, 0, DefaultMaxWait, true},
		{"huge value does not overflow", Envelope{Retryable: &yes, RetryAfterSeconds: secs(1 << 62)}, time.Second, 0, DefaultMaxWait, true},
		{"negative is no wait", Envelope{Retryable: &yes, RetryAfterSeconds: secs(-5)}, time.Second, 0, 0, true},
		{"fallback when none asked", Envelope{Retryable: &yes}, 700 * time.Millisecond, 0, 700 * time.Millisecond, true},
		{"not retryable", Envelope{Retryable: &no, RetryAfterSeconds: secs(1)}, time.Second, 0, 0, false},
		{"retryable missing", Envelope{RetryAfterSeconds: secs(1)}, time.Second, 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, retry := tt.e.RetryAfter(tt.fallback, tt.limit)
			if got != tt.want || retry != tt.wantRetry {
				t.Errorf("RetryAfter() = %v, %v; want %v, %v", got, retry, tt.want, tt.wantRetry)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"status":200,"body":{"id":1}}`,
		`{"error":"validation_failed","status":400,"retryable":false,"fields":[{"name":"a","message":"b"}]}`,
		`{"error":"response_too_large","retryable":false,"payload":{"bytes":9,"limit":1}}`,
		`{"retryAfterSeconds":99999999999999}`, `[]`, `null`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		e, err := Parse(b)
		if err != nil {
			return
		}
		_ = e.IsSDKSide()
		_ = e.FieldNames()
		_ = e.Leaks()
		if d, _ := e.RetryAfter(time.Second, 0); d < 0 || d > DefaultMaxWait {
			t.Errorf("RetryAfter = %v, outside [0, %v]", d, DefaultMaxWait)
		}
	})
}
