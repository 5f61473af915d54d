package envelope

import (
	"errors"
	"testing"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		json string
		ok   bool
	}{
		{"success", `{"status":200,"body":{"id":1}}`, true},
		{"success with location", `{"status":302,"location":"/orders/1"}`, true},
		{"success with isError", `{"status":200,"isError":false}`, false},
		{"backend error", `{"error":"validation_failed","message":"m","status":400,"retryable":false,"fields":[{"name":"q","message":"bad"}]}`, true},
		{"backend error, wrong status for code", `{"error":"validation_failed","message":"m","status":500,"retryable":false}`, false},
		{"backend error, wrong retryable", `{"error":"rate_limited","message":"m","status":429,"retryable":false}`, false},
		{"backend_error takes 418", `{"error":"backend_error","message":"m","status":418,"retryable":false}`, true},
		{"backend_error may not take 404", `{"error":"backend_error","message":"m","status":404,"retryable":false}`, false},
		{"retryAfter with 503", `{"error":"backend_unavailable","message":"m","status":503,"retryable":true,"retryAfterSeconds":5}`, true},
		{"retryAfter with 500", `{"error":"backend_error","message":"m","status":500,"retryable":false,"retryAfterSeconds":5}`, false},
		{"backend error missing retryable", `{"error":"not_found","message":"m","status":404}`, false},
		{"sdk error", `{"error":"unknown_argument","message":"m","retryable":false}`, true},
		{"sdk error with status", `{"error":"unknown_argument","message":"m","retryable":false,"status":400}`, false},
		{"sdk code fixed false", `{"error":"unknown_tool","message":"m","retryable":true}`, false},
		{"invoke_timeout true", `{"error":"invoke_timeout","message":"m","retryable":true}`, true},
		{"invoke_timeout false", `{"error":"invoke_timeout","message":"m","retryable":false}`, false},
		{"backend_unreachable either", `{"error":"backend_unreachable","message":"m","retryable":false}`, true},
		{"too large without payload", `{"error":"response_too_large","message":"m","retryable":false}`, false},
		{"payload on another code", `{"error":"internal_error","message":"m","retryable":false,"payload":{"bytes":1,"limit":1}}`, false},
		{"unknown code", `{"error":"teapot","message":"m","retryable":false}`, false},
		{"not JSON", `{`, false},
	}
	for _, tt := range tests {
		err := Validate([]byte(tt.json))
		if err != nil && !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: error %v does not wrap ErrInvalid", tt.name, err)
		}
		if (err == nil) != tt.ok {
			t.Errorf("%s: Validate(%s) = %v; want ok=%v", tt.name, tt.json, err, tt.ok)
		}
	}
}
