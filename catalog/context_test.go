package catalog

import (
	"reflect"
	"strings"
	"testing"
)

const contextOAS30 = `
openapi: 3.0.3
info: {title: speech, version: "1"}
tags:
  - name: audio
    description: Turn text into audio.
  - name: bare
paths:
  /audio/speech:
    summary: Speech synthesis
    description: Everything about spoken audio.
    post:
      operationId: createSpeech
      summary: Create speech
      tags: [audio, bare, unknown]
      requestBody:
        description: What to say.
        content:
          application/json:
            schema: {$ref: '#/components/schemas/CreateSpeechRequest'}
      responses:
        "400": {description: Bad request}
        "200":
          description: The audio file.
          content:
            application/json:
              schema:
                type: array
                items: {$ref: '#/components/schemas/SpeechChunk'}
  /voices:
    summary: Voices on offer
    get:
      operationId: listVoices
      responses:
        "200": {$ref: '#/components/responses/VoiceList'}
  /external:
    post:
      operationId: external
      summary: External body
      requestBody:
        content:
          application/json:
            schema: {$ref: 'other.yaml#/Body'}
      responses:
        default: {description: Anything}
components:
  schemas:
    CreateSpeechRequest:
      title: Speech request
      description: The text and the voice.
      type: object
      properties:
        input: {type: string}
    SpeechChunk: {type: string}
  responses:
    VoiceList:
      description: Returns a list of voices.
`

const contextSwagger20 = `
swagger: "2.0"
info: {title: pets, version: "1"}
tags:
  - {name: pet, description: Everything about your pets}
paths:
  /pet:
    post:
      operationId: addPet
      tags: [pet]
      parameters:
        - in: body
          name: body
          description: Pet object that needs to be added to the store
          schema: {$ref: '#/definitions/Pet'}
      responses:
        "201":
          description: Created
          schema: {$ref: '#/definitions/Pet'}
definitions:
  Pet:
    type: object
    properties:
      name: {type: string}
`

// TestContext checks the prose gathered around each operation, and that it
// stays out of the input schema and the version.
func TestContext(t *testing.T) {
	tests := []struct {
		name, desc, tool string
		want             Context
	}{
		{"oas30 all parts", contextOAS30, "createSpeech", Context{
			TagDescriptions: []string{"Turn text into audio."},
			PathItem:        "Speech synthesis\nEverything about spoken audio.",
			Body:            "What to say.\nCreateSpeechRequest\nSpeech request\nThe text and the voice.",
			Response:        "The audio file.\nSpeechChunk",
		}},
		{"path item is the summary", contextOAS30, "listVoices", Context{
			Response: "Returns a list of voices.",
		}},
		// The name of a schema in another file still says something; its
		// text is not read.
		{"external reference and no 2xx", contextOAS30, "external", Context{Body: "Body"}},
		{"swagger body and response", contextSwagger20, "addPet", Context{
			TagDescriptions: []string{"Everything about your pets"},
			Body:            "Pet object that needs to be added to the store\nPet",
			Response:        "Created\nPet",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustParse(t, tt.desc, nil)
			got := mustTool(t, c, tt.tool).Context
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%s: Context\n got %#v\nwant %#v", tt.tool, got, tt.want)
			}
		})
	}
}

// TestContextLeavesVersionAlone checks that prose around an operation
// changes neither its input schema nor its version.
func TestContextLeavesVersionAlone(t *testing.T) {
	plain := mustTool(t, mustParse(t, contextSwagger20, nil), "addPet")
	// The same description with other prose: a tag description and a
	// response description.
	moreProse := strings.NewReplacer(
		"Everything about your pets", "Other words about pets",
		"description: Created", "description: A different response text",
	).Replace(contextSwagger20)
	other := mustTool(t, mustParse(t, moreProse, nil), "addPet")
	if reflect.DeepEqual(other.Context, plain.Context) {
		t.Fatal("the two descriptions should differ in their context")
	}
	if other.Version != plain.Version || string(other.InputSchema) != string(plain.InputSchema) {
		t.Errorf("version %s, schema %s; want %s, %s", other.Version, other.InputSchema, plain.Version, plain.InputSchema)
	}
}
