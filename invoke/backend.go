package invoke

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/sezzlee/sezzlee/ssrf"
)

// Handler returns a Backend that serves requests in-process with h, without
// a network. The handler's response is recorded with a bound on the body
// (what the Invoker would read anyway), so a runaway handler cannot fill
// memory. A handler that panics, http.ErrAbortHandler included, is answered
// as net/http answers it: a 500 with no body. A handler still running when
// the call's deadline passes is left to finish on its own; its output is
// discarded.
func Handler(h http.Handler) Backend { return handlerBackend{h} }

type handlerBackend struct{ h http.Handler }

// limitedBackend is a Backend that can bound what it buffers.
type limitedBackend interface {
	doLimited(ctx context.Context, req *http.Request, limit int64) (*http.Response, error)
}

var (
	_ Backend        = handlerBackend{}
	_ limitedBackend = handlerBackend{}
)

func (hb handlerBackend) Do(ctx context.Context, req *http.Request) (*http.Response, error) {
	return hb.doLimited(ctx, req, DefaultMaxResponseBytes+1)
}

func (hb handlerBackend) doLimited(ctx context.Context, req *http.Request, limit int64) (*http.Response, error) {
	req = req.WithContext(ctx)
	req.RequestURI = req.URL.RequestURI()
	if req.Host == "" {
		req.Host = "in-process"
	}
	if req.Body == nil {
		req.Body = http.NoBody
	}
	rec := &recorder{header: make(http.Header), limit: limit}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if r := recover(); r != nil {
				rec.panicked = true
			}
		}()
		hb.h.ServeHTTP(rec, req)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return rec.response(), nil
}

// recorder is a lean, bounded http.ResponseWriter.
type recorder struct {
	header   http.Header
	sent     http.Header // the header as it was when the status was written
	status   int
	body     bytes.Buffer
	limit    int64
	size     int64
	panicked bool
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(code int) {
	if r.status != 0 || code < 100 || code > 999 {
		return
	}
	if code < 200 { // informational answers are not the response
		return
	}
	r.status = code
	r.sent = r.header.Clone()
}

func (r *recorder) Write(p []byte) (int, error) {
	if r.status == 0 {
		if r.header.Get("Content-Type") == "" && r.header.Get("Content-Encoding") == "" {
			r.header.Set("Content-Type", http.DetectContentType(p))
		}
		r.WriteHeader(http.StatusOK)
	}
	r.size += int64(len(p))
	if room := r.limit - int64(r.body.Len()); room > 0 {
		if int64(len(p)) > room {
			r.body.Write(p[:room])
		} else {
			r.body.Write(p)
		}
	}
	return len(p), nil
}

// Flush makes the recorder an http.Flusher; there is nothing to flush.
func (r *recorder) Flush() {}

func (r *recorder) response() *http.Response {
	if r.panicked {
		return &http.Response{StatusCode: http.StatusInternalServerError, Header: http.Header{}, Body: http.NoBody}
	}
	if r.status == 0 {
		r.WriteHeader(http.StatusOK)
	}
	return &http.Response{
		StatusCode:    r.status,
		Header:        r.sent,
		Body:          io.NopCloser(bytes.NewReader(r.body.Bytes())),
		ContentLength: r.size,
	}
}

// RemoteOptions configures Remote. A nil *RemoteOptions and the zero value
// are both usable; each field documents its zero value.
type RemoteOptions struct {
	// ConnectTimeout bounds DNS, TCP connect and the TLS handshake.
	// Zero means 10 seconds.
	ConnectTimeout time.Duration
	// ResponseHeaderTimeout bounds the wait for the status line and headers
	// after the request is written. Zero means 30 seconds.
	ResponseHeaderTimeout time.Duration
	// Timeout bounds a whole exchange, reading the body included; the
	// Invoker's own Timeout applies as well. Zero means no bound beyond it.
	Timeout time.Duration
	// AllowPrivateNetworks lets the backend be on loopback, private,
	// link-local and other non-public addresses. Zero refuses them (the
	// check runs on the address dialled, so DNS rebinding cannot evade it).
	AllowPrivateNetworks bool
	// TLSConfig is the TLS client configuration. Nil means Go's defaults
	// (system roots, TLS 1.2 or later).
	TLSConfig *tls.Config
}

// Remote returns a Backend that sends requests over HTTP to baseURL: the
// operation's path is appended to the base URL's path
// (https://api.example.com/v1 + /pets/7 = https://api.example.com/v1/pets/7).
// Redirects are never followed: a 3xx is returned as it is. No proxy is
// taken from the environment. Connections are reused across calls.
func Remote(baseURL string, opts *RemoteOptions) (Backend, error) {
	var o RemoteOptions
	if opts != nil {
		o = *opts
	}
	if o.ConnectTimeout < 0 || o.ResponseHeaderTimeout < 0 || o.Timeout < 0 {
		return nil, ErrNegative
	}
	if o.ConnectTimeout == 0 {
		o.ConnectTimeout = 10 * time.Second
	}
	if o.ResponseHeaderTimeout == 0 {
		o.ResponseHeaderTimeout = 30 * time.Second
	}
	base, err := url.Parse(baseURL)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("invoke: base URL %q must be an absolute http or https URL", baseURL)
	}
	if base.User != nil {
		return nil, fmt.Errorf("invoke: base URL must not carry credentials; configure Credentials instead")
	}
	t := ssrf.Policy{AllowPrivate: o.AllowPrivateNetworks}.Transport(o.ConnectTimeout)
	t.ResponseHeaderTimeout = o.ResponseHeaderTimeout
	if o.TLSConfig != nil {
		t.TLSClientConfig = o.TLSConfig.Clone()
	}
	return &remote{
		base:    base,
		rawBase: strings.TrimSuffix(base.EscapedPath(), "/"),
		client: &http.Client{
			Transport:     t,
			Timeout:       o.Timeout,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
	}, nil
}

type remote struct {
	base    *url.URL
	rawBase string
	client  *http.Client
}

// sendError wraps a transport failure with whether the request was written,
// which decides whether a retry is safe.
type sendError struct {
	err   error
	wrote bool
}

func (e *sendError) Error() string { return e.err.Error() }
func (e *sendError) Unwrap() error { return e.err }

func (r *remote) Do(ctx context.Context, req *http.Request) (*http.Response, error) {
	u := *r.base
	u.RawQuery = req.URL.RawQuery
	u.Fragment, u.RawFragment = "", ""
	raw := r.rawBase + req.URL.EscapedPath()
	u.RawPath = raw
	if p, err := url.PathUnescape(raw); err == nil {
		u.Path = p
	} else {
		u.Path = raw
	}
	var wrote atomic.Bool
	trace := &httptrace.ClientTrace{WroteHeaders: func() { wrote.Store(true) }}
	out := req.WithContext(httptrace.WithClientTrace(ctx, trace))
	out.URL = &u
	out.Host = ""
	out.RequestURI = ""
	resp, err := r.client.Do(out)
	if err != nil {
		return nil, &sendError{err: err, wrote: wrote.Load()}
	}
	return resp, nil
}

// errIsTLS reports a TLS handshake or certificate failure.
func errIsTLS(err error) bool {
	var rh tls.RecordHeaderError
	var ae tls.AlertError
	var cv *tls.CertificateVerificationError
	return errors.As(err, &rh) || errors.As(err, &ae) || errors.As(err, &cv)
}
