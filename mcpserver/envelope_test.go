package mcpserver

import "github.com/sezzlee/sezzlee/envelope"

// envelopeValid checks an envelope's bytes against
// spec/invoke-result.schema.json.
func envelopeValid(data []byte) error { return envelope.Validate(data) }
