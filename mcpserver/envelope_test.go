package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/sezzlee/sezzlee/envelope"
)

// envelopeValid checks an envelope's bytes: only the envelope's own keys,
// and the invariants every consumer relies on (an error has a message and
// retryable; a success has a status). It stands in until the envelope
// package's schema validator is available.
func envelopeValid(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var e envelope.Envelope
	if err := dec.Decode(&e); err != nil {
		return err
	}
	switch {
	case e.IsError() && (e.Message == "" || e.Retryable == nil):
		return errors.New("an error envelope lacks message or retryable")
	case !e.IsError() && e.Status == 0:
		return errors.New("a success envelope lacks status")
	case e.IsError() && (e.Body != nil || e.ContentType != ""):
		return errors.New("an error envelope carries a success body")
	}
	return nil
}
