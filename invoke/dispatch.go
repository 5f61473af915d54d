package invoke

import (
	"compress/gzip"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"

	"github.com/sezzlee/sezzlee/envelope"
	"github.com/sezzlee/sezzlee/ssrf"
)

// dispatch sends a composed request and maps the answer.
func (inv *Invoker) dispatch(ctx context.Context, c *composed) *envelope.Envelope {
	var idemID [32]byte
	var idemKey string
	keyed := false
	if inv.idem != nil && !idempotent(c.req.Method) {
		idemID = idemIdentity(ctx, c)
		idemKey = inv.idem.key(idemID, inv.now())
		c.req.Header.Set(inv.idem.header, idemKey)
		keyed = true
	}
	limit := inv.opts.MaxResponseBytes
	var resp *http.Response
	var err error
	if lb, ok := inv.opts.Backend.(limitedBackend); ok {
		resp, err = lb.doLimited(ctx, c.req, limit+1)
	} else {
		resp, err = inv.opts.Backend.Do(ctx, c.req)
	}
	if err != nil {
		env, ambiguous := inv.failure(ctx, c, err, keyed)
		if keyed {
			if ambiguous {
				inv.idem.keep(idemID, idemKey, inv.now())
			} else {
				inv.idem.forget(idemID)
			}
		}
		return env
	}
	if resp == nil || resp.Body == nil {
		return inv.internal(c.tool.Name, errors.New("the backend returned neither a response nor an error"))
	}
	defer resp.Body.Close()
	r, err := readBounded(resp, limit)
	if err != nil {
		// The backend answered, then the body broke off or timed out.
		env, _ := inv.failure(ctx, c, err, false)
		if keyed {
			inv.idem.forget(idemID)
		}
		return env
	}
	if keyed {
		inv.idem.forget(idemID)
	}
	return envelope.FromResponse(r, &c.plan.mapOpts)
}

// readBounded reads at most limit bytes of the body, after decompression.
func readBounded(resp *http.Response, limit int64) (*envelope.Response, error) {
	body := io.Reader(resp.Body)
	header := resp.Header
	if header == nil {
		header = http.Header{}
	}
	if strings.EqualFold(header.Get("Content-Encoding"), "gzip") && !resp.Uncompressed {
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			return nil, err
		}
		defer zr.Close()
		body = zr
		header = header.Clone()
		header.Del("Content-Encoding")
		header.Del("Content-Length")
	}
	var buf []byte
	if n := resp.ContentLength; n >= 0 && n <= limit && body == resp.Body {
		// The size is known: one allocation, with a spare byte so that the
		// read that finds EOF needs no growth.
		buf = make([]byte, 0, n+1)
	}
	buf, err := readAll(io.LimitReader(body, limit+1), buf)
	if err != nil {
		return nil, err
	}
	r := &envelope.Response{Status: resp.StatusCode, Header: header, Body: buf, Size: int64(len(buf))}
	if int64(len(buf)) > limit {
		r.Body = buf[:limit]
		r.Truncated = true
		if resp.ContentLength > r.Size {
			r.Size = resp.ContentLength
		}
	}
	return r, nil
}

// readAll is io.ReadAll reading into buf, whose capacity may be sized
// already.
func readAll(r io.Reader, buf []byte) ([]byte, error) {
	if cap(buf) == 0 {
		buf = make([]byte, 0, 512)
	}
	for {
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
	}
}

// failure maps a dispatch error to an envelope, and says whether the
// call's outcome is unknown (the request may have been processed).
func (inv *Invoker) failure(ctx context.Context, c *composed, err error, keyed bool) (*envelope.Envelope, bool) {
	unsafe := !idempotent(c.req.Method)
	mayHaveRun := func(msg string) string {
		if !unsafe {
			return msg + " The operation is idempotent, so calling again is safe."
		}
		msg += " The call may already have taken effect: check before calling again."
		if keyed {
			msg += " Calling again with the same arguments reuses the idempotency key, so a backend that honours it will not run it twice."
		}
		return msg
	}
	var ne net.Error
	timedOut := errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil || (errors.As(err, &ne) && ne.Timeout())
	var se *sendError
	wrote := true // a Backend that does not say is assumed to have sent the request
	if errors.As(err, &se) {
		wrote = se.wrote
	}
	var dns *net.DNSError
	switch {
	case errors.Is(err, ssrf.ErrBlocked):
		inv.opts.Logger.Warn("invoke: backend address refused by policy", "tool", c.tool.Name)
		return envelope.Reject(envelope.BackendUnreachable, "The backend's address is not one this server may reach; this is the host's configuration, not the agent's to fix.", nil), false
	case timedOut && errors.Is(ctx.Err(), context.Canceled):
		return envelope.Retry(envelope.InvokeTimeout, mayHaveRun("The call was cancelled before the backend answered."), true), wrote
	case timedOut:
		return envelope.Retry(envelope.InvokeTimeout, mayHaveRun("The backend did not answer in time."), true), wrote
	case errors.As(err, &dns):
		return envelope.Retry(envelope.BackendUnreachable, "The backend's host name could not be resolved; nothing was sent. Retry later.", true), false
	case errors.Is(err, syscall.ECONNREFUSED):
		return envelope.Retry(envelope.BackendUnreachable, "The backend refused the connection; nothing was sent. Retry later.", true), false
	case errIsTLS(err):
		inv.opts.Logger.Warn("invoke: TLS failure reaching the backend", "tool", c.tool.Name, "cause", err.Error())
		return envelope.Retry(envelope.BackendUnreachable, "A secure connection to the backend could not be set up; nothing was sent.", true), false
	case !wrote:
		return envelope.Retry(envelope.BackendUnreachable, "The connection to the backend failed before the request was sent. Retry later.", true), false
	}
	inv.opts.Logger.Warn("invoke: connection to the backend broke", "tool", c.tool.Name, "cause", err.Error())
	return envelope.Retry(envelope.BackendUnreachable, mayHaveRun("The connection to the backend broke before it answered."), false), true
}

// idempotent reports the methods RFC 9110 defines as idempotent.
func idempotent(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace, http.MethodPut, http.MethodDelete:
		return true
	}
	return false
}

// idemIdentity identifies a logical call: tool, version, canonical
// arguments and caller. Arguments are canonical because encoding/json
// writes object members in key order.
func idemIdentity(ctx context.Context, c *composed) [32]byte {
	h := sha256.New()
	args, _ := json.Marshal(c.args)
	for _, s := range []string{c.tool.Name, c.tool.Version, CallerFromContext(ctx)} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	h.Write(args)
	var id [32]byte
	h.Sum(id[:0])
	return id
}

type callerKey struct{}

// WithCaller returns a context naming the authenticated caller a call is
// made for. The Invoker uses it to keep idempotency keys per caller, and
// hooks (Credentials, DeferredResolver) can read it with CallerFromContext.
func WithCaller(ctx context.Context, caller string) context.Context {
	return context.WithValue(ctx, callerKey{}, caller)
}

// CallerFromContext returns the caller set by WithCaller, or "".
func CallerFromContext(ctx context.Context) string {
	s, _ := ctx.Value(callerKey{}).(string)
	return s
}

// newReference returns a random correlation id for internal errors.
func newReference() string {
	var b [8]byte
	rand.Read(b[:])
	return "sz-" + hex.EncodeToString(b[:])
}
