package envelope

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/sezzlee/sezzlee/spec"
)

// ErrInvalid is returned, wrapped with the details, by Validate for data
// that is not JSON or does not match the schema.
var ErrInvalid = errors.New("envelope: not a valid invoke result")

// schemaURL is the $id of the embedded invoke result schema.
const schemaURL = "urn:sezzlee:spec:invoke-result"

// compiled is the schema, compiled on first use.
var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(spec.InvokeResultSchema()))
	if err != nil {
		return nil, fmt.Errorf("envelope: schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("envelope: schema: %w", err)
	}
	return c.Compile(schemaURL)
})

// Validate checks that data is one JSON envelope that the normative schema
// (spec/invoke-result.schema.json) accepts; otherwise the error wraps
// ErrInvalid. Tests of every package that produces envelopes use it on what
// they produce.
func Validate(data []byte) error {
	sch, err := compiled()
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("%w: not JSON: %w", ErrInvalid, err)
	}
	if err := sch.Validate(inst); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return nil
}

// Validate checks the envelope against the normative schema.
func (e *Envelope) Validate() error {
	data, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("envelope: %w", err)
	}
	return Validate(data)
}
