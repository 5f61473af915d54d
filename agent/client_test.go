package agent

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// callerFunc adapts a function to Caller.
type callerFunc func(ctx context.Context, p *mcp.CallToolParams) (*mcp.CallToolResult, error)

func (f callerFunc) CallTool(ctx context.Context, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	return f(ctx, p)
}

func answering(res *mcp.CallToolResult, err error) *Client {
	return NewClient(callerFunc(func(context.Context, *mcp.CallToolParams) (*mcp.CallToolResult, error) { return res, err }))
}

func text(s string, isError bool) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}, IsError: isError}
}

func TestClientRejectsMalformedResults(t *testing.T) {
	errTransport := errors.New("connection reset")
	tests := []struct {
		name    string
		res     *mcp.CallToolResult
		err     error
		wantErr error
	}{
		{"transport failure", nil, errTransport, errTransport},
		{"no content", &mcp.CallToolResult{}, nil, ErrNoText},
		{"two blocks", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "{}"}, &mcp.TextContent{Text: "{}"}}}, nil, ErrNoText},
		{"an image", &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: []byte{1}, MIMEType: "image/png"}}}, nil, ErrNoText},
		{"not JSON", text("Internal Server Error", true), nil, ErrNotEnvelope},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := answering(tt.res, tt.err).Invoke(context.Background(), Invocation{Name: "x"})
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("Invoke() error = %v, want %v", err, tt.wantErr)
			}
		})
	}
}

func TestClientLoad(t *testing.T) {
	ctx := context.Background()
	tool, err := answering(text(`{"name":"getOrder","path":"/orders/{id}","version":"v9","inputSchema":{"type":"object"}}`, false), nil).Load(ctx, "getOrder")
	if err != nil || tool.Version != "v9" || tool.Path != "/orders/{id}" {
		t.Errorf("Load() = %+v, %v; want version v9 and the path", tool, err)
	}
	_, err = answering(text(`{"error":"unknown_tool","message":"No such tool.","retryable":false}`, true), nil).Load(ctx, "nope")
	var te *ToolError
	if !errors.As(err, &te) || te.Envelope.Code != "unknown_tool" || !te.Envelope.IsSDKSide() {
		t.Errorf("Load(unknown) error = %v, want a *ToolError with unknown_tool", err)
	}
	if _, err := answering(text(`{"name":"x"}`, false), nil).Load(ctx, "x"); err == nil {
		t.Error("Load() without inputSchema = nil error, want one")
	}
}

func TestRetryPolicyDo(t *testing.T) {
	retryable := `{"error":"rate_limited","status":429,"retryable":true,"retryAfterSeconds":2}`
	timeout := `{"error":"invoke_timeout","retryable":true}`
	final := `{"error":"not_found","status":404,"retryable":false}`
	ok := `{"status":200}`
	tests := []struct {
		name      string
		answers   []string
		policy    RetryPolicy
		wantCalls int
		wantWaits []time.Duration
		wantLast  string
	}{
		{"success at once", []string{ok}, RetryPolicy{}, 1, nil, ok},
		{"not retryable is sent once", []string{final, ok}, RetryPolicy{}, 1, nil, final},
		{"waits what is asked", []string{retryable, ok}, RetryPolicy{}, 2, []time.Duration{2 * time.Second}, ok},
		{"bounded wait", []string{retryable, ok}, RetryPolicy{MaxWait: time.Second}, 2, []time.Duration{time.Second}, ok},
		{"backoff when nothing is asked", []string{timeout, ok}, RetryPolicy{Backoff: 300 * time.Millisecond}, 2, []time.Duration{300 * time.Millisecond}, ok},
		{"attempts run out", []string{retryable, retryable, retryable, ok}, RetryPolicy{}, 3, []time.Duration{2 * time.Second, 2 * time.Second}, retryable},
		{"one attempt", []string{retryable, ok}, RetryPolicy{MaxAttempts: 1}, 1, nil, retryable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var waits []time.Duration
			tt.policy.Sleep = noSleep(&waits)
			calls := 0
			e, n, err := tt.policy.Do(context.Background(), func(context.Context) (*Envelope, error) {
				calls++
				return Parse([]byte(tt.answers[calls-1]))
			})
			if err != nil {
				t.Fatal(err)
			}
			if n != tt.wantCalls || calls != tt.wantCalls {
				t.Errorf("calls = %d (reported %d), want %d", calls, n, tt.wantCalls)
			}
			if len(waits) != len(tt.wantWaits) || (len(waits) > 0 && waits[0] != tt.wantWaits[0]) {
				t.Errorf("waits = %v, want %v", waits, tt.wantWaits)
			}
			if string(e.Raw) != tt.wantLast {
				t.Errorf("last envelope = %s, want %s", e.Raw, tt.wantLast)
			}
		})
	}
}

func TestRetryPolicyStopsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := RetryPolicy{}
	_, n, err := p.Do(ctx, func(context.Context) (*Envelope, error) {
		return Parse([]byte(`{"error":"rate_limited","status":429,"retryable":true,"retryAfterSeconds":1}`))
	})
	if !errors.Is(err, context.Canceled) || n != 1 {
		t.Errorf("Do() = %d calls, %v; want 1 call and context.Canceled", n, err)
	}
}
