package invoke

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/sezzlee/sezzlee/envelope"
)

// TestRenamedBodyPropertyInFields: updatePet's body property "id" is the
// agent's argument body_id (the path parameter keeps "id"). A backend that
// rejects body.id names body_id in the envelope, and one that rejects the
// path's id names id.
func TestRenamedBodyPropertyInFields(t *testing.T) {
	cat := mustParse(t, "testdata/pets.yaml", nil)
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnprocessableEntity)
		io.WriteString(w, `{"detail":[{"loc":["body","id"],"msg":"id is read-only"},{"loc":["path","id"],"msg":"no such pet"}]}`)
	}))
	t.Cleanup(api.Close)
	inv := newTestInvoker(t, api.URL, nil)
	env := inv.Invoke(bg, cat, Call{Tool: "updatePet", Arguments: []byte(`{"id":7,"body_id":"x"}`)})
	if env.Error != envelope.ValidationFailed {
		t.Fatalf("error = %q, want validation_failed; envelope %s", env.Error, envJSON(env))
	}
	if got, want := fieldNames(env), []string{"body_id", "id"}; !slices.Equal(got, want) {
		t.Errorf("field names = %q, want %q; envelope %s", got, want, envJSON(env))
	}
	if err := envelope.Validate([]byte(envJSON(env))); err != nil {
		t.Error(err)
	}
}
