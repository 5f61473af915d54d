package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// caller makes one call for item id and checks the answer. A caller is used
// by one goroutine at a time.
type caller interface {
	call(ctx context.Context, id int) error
}

// maxAnswer bounds every answer the harness reads.
const maxAnswer = 1 << 20

// marker is what every answer for item id holds, whether raw or escaped in a
// JSON string, when it went all the way to the backend and back.
func marker(id int) []byte { return []byte("bench-item-" + strconv.Itoa(id)) }

// directCaller GETs the backend itself.
type directCaller struct {
	hc   *http.Client
	base string
	buf  bytes.Buffer
}

func (d *directCaller) call(ctx context.Context, id int) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, d.base+"/items/"+strconv.Itoa(id), nil)
	if err != nil {
		return err
	}
	resp, err := d.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	d.buf.Reset()
	if _, err := d.buf.ReadFrom(io.LimitReader(resp.Body, maxAnswer)); err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK || !bytes.Contains(d.buf.Bytes(), marker(id)) {
		return fmt.Errorf("direct: %s: %.300s", resp.Status, d.buf.Bytes())
	}
	return nil
}

// rpcSession is a bare MCP client over streamable HTTP: plain POSTs of
// JSON-RPC messages, the Mcp-Session-Id header carried when the server sets
// one, and answers read as JSON or as an SSE stream. It does only what a
// tools/call needs so that its own cost stays well below the servers'.
type rpcSession struct {
	hc       *http.Client
	url      string
	protocol string
	session  string // Mcp-Session-Id, empty for a stateless server
	nextID   int
	buf      bytes.Buffer
	msg      bytes.Buffer
	// tool and wrap shape the call: tool({id}) or wrap({name: tool, arguments: {id}}).
	tool, wrap string
}

// newRPCSession initializes a session: initialize, then notifications/initialized.
func newRPCSession(ctx context.Context, hc *http.Client, url, protocol, tool, wrap string) (*rpcSession, error) {
	s := &rpcSession{hc: hc, url: url, protocol: protocol, tool: tool, wrap: wrap}
	init := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + protocol +
		`","capabilities":{},"clientInfo":{"name":"sezzlee-bench","version":"0.0.1"}}}`
	answer, hdr, err := s.post(ctx, []byte(init))
	if err != nil {
		return nil, fmt.Errorf("initialize: %w", err)
	}
	var res struct {
		Result *struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"result"`
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(answer, &res); err != nil {
		return nil, fmt.Errorf("initialize: %w: %.300s", err, answer)
	}
	if res.Error != nil || res.Result == nil {
		return nil, fmt.Errorf("initialize: %.300s", answer)
	}
	s.protocol = res.Result.ProtocolVersion
	s.session = hdr.Get("Mcp-Session-Id")
	if _, _, err := s.post(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)); err != nil {
		return nil, fmt.Errorf("notifications/initialized: %w", err)
	}
	s.nextID = 1
	return s, nil
}

// call sends tools/call for item id and checks the result names the item
// and is not an error.
func (s *rpcSession) call(ctx context.Context, id int) error {
	s.msg.Reset()
	s.msg.WriteString(`{"jsonrpc":"2.0","id":`)
	s.msg.WriteString(strconv.Itoa(s.nextID))
	s.nextID++
	s.msg.WriteString(`,"method":"tools/call","params":{"name":"`)
	if s.wrap != "" {
		s.msg.WriteString(s.wrap)
		s.msg.WriteString(`","arguments":{"name":"`)
		s.msg.WriteString(s.tool)
		s.msg.WriteString(`","arguments":{"id":`)
		s.msg.WriteString(strconv.Itoa(id))
		s.msg.WriteString(`}}}}`)
	} else {
		s.msg.WriteString(s.tool)
		s.msg.WriteString(`","arguments":{"id":`)
		s.msg.WriteString(strconv.Itoa(id))
		s.msg.WriteString(`}}}`)
	}
	answer, _, err := s.post(ctx, s.msg.Bytes())
	if err != nil {
		return err
	}
	if bytes.Contains(answer, []byte(`"isError":true`)) || !bytes.Contains(answer, marker(id)) {
		return fmt.Errorf("tools/call: %.400s", answer)
	}
	return nil
}

// post sends one JSON-RPC message and returns the JSON-RPC message that
// answers it (nil for a notification's 202) and the response headers. The
// returned slice is valid until the next post.
func (s *rpcSession) post(ctx context.Context, msg []byte) ([]byte, http.Header, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, bytes.NewReader(msg))
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if s.session != "" {
		req.Header.Set("Mcp-Session-Id", s.session)
	}
	if s.nextID > 0 { // after initialize
		req.Header.Set("Mcp-Protocol-Version", s.protocol)
	}
	resp, err := s.hc.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	s.buf.Reset()
	if _, err := s.buf.ReadFrom(io.LimitReader(resp.Body, maxAnswer)); err != nil {
		return nil, nil, err
	}
	switch {
	case resp.StatusCode == http.StatusAccepted:
		return nil, resp.Header, nil
	case resp.StatusCode != http.StatusOK:
		return nil, nil, fmt.Errorf("HTTP %s: %.300s", resp.Status, s.buf.Bytes())
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		answer, err := sseAnswer(s.buf.Bytes())
		return answer, resp.Header, err
	}
	return s.buf.Bytes(), resp.Header, nil
}

// sseAnswer returns the JSON-RPC response carried by an SSE stream: the data
// of the one event when there is one (the common case, read without
// decoding), else the first event whose data is a message with an id and no
// method (notifications the server sent first are skipped).
func sseAnswer(stream []byte) ([]byte, error) {
	var events [][]byte
	for ev := range bytes.SplitSeq(stream, []byte("\n\n")) {
		var data []byte
		for line := range bytes.SplitSeq(ev, []byte("\n")) {
			line = bytes.TrimSuffix(line, []byte("\r"))
			if d, ok := bytes.CutPrefix(line, []byte("data:")); ok {
				d = bytes.TrimPrefix(d, []byte(" "))
				if data != nil {
					data = append(append(data[:len(data):len(data)], '\n'), d...) // copies: never write into stream
				} else {
					data = d
				}
			}
		}
		if data != nil {
			events = append(events, data)
		}
	}
	switch len(events) {
	case 0:
		return nil, fmt.Errorf("event stream without data: %.300s", stream)
	case 1:
		return events[0], nil
	}
	for _, e := range events {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(e, &m) == nil && m.ID != nil && m.Method == "" {
			return e, nil
		}
	}
	return nil, errors.New("event stream holds no response")
}
