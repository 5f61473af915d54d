package agent

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

const orderSchema = `{"type":"object","additionalProperties":false,
	"properties":{
		"item":{"type":"string","minLength":1,"maxLength":200,"examples":["mechanical keyboard"]},
		"quantity":{"type":"integer","minimum":1,"maximum":100},
		"note":{"type":"string"},
		"id":{"type":"integer","minimum":1},
		"status":{"type":"string","enum":["open","shipped","cancelled"]},
		"price":{"type":["number","null"],"exclusiveMinimum":0,"maximum":10},
		"code":{"type":"string","pattern":"^[A-Z]{3}$","minLength":3},
		"email":{"type":"string","format":"email"},
		"tags":{"type":"array","items":{"type":"string"},"minItems":2}
	},
	"required":["item","quantity","id"]}`

func mustSchema(t testing.TB, raw string) *Schema {
	t.Helper()
	s, err := ParseSchema([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestParseSchemaOpenAPI30Exclusive(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{"n":{"type":"number","minimum":0,"exclusiveMinimum":true,"maximum":5,"exclusiveMaximum":false}}}`)
	p := s.Properties["n"]
	if p.Minimum != nil || p.ExclusiveMinimum == nil || *p.ExclusiveMinimum != 0 {
		t.Errorf("boolean exclusiveMinimum: Minimum %v, ExclusiveMinimum %v; want nil, 0", p.Minimum, p.ExclusiveMinimum)
	}
	if p.Maximum == nil || *p.Maximum != 5 || p.ExclusiveMaximum != nil {
		t.Errorf("exclusiveMaximum false: Maximum %v, ExclusiveMaximum %v; want 5, nil", p.Maximum, p.ExclusiveMaximum)
	}
	if got := p.Check(0.0); !reflect.DeepEqual(got, []string{"exclusiveMinimum"}) {
		t.Errorf("Check(0) = %q, want [exclusiveMinimum]", got)
	}
}

func TestParseSchemaErrors(t *testing.T) {
	for _, raw := range []string{`[`, `{"type":5}`, `{"properties":{"a":{"minLength":"x"}}}`} {
		if _, err := ParseSchema([]byte(raw)); err == nil {
			t.Errorf("ParseSchema(%s) = nil error, want one", raw)
		}
	}
}

func TestValidSatisfiesEveryProperty(t *testing.T) {
	s := mustSchema(t, orderSchema)
	want := map[string]any{
		"item": "mechanical keyboard", "quantity": 1, "note": "sample", "id": 1, "status": "open",
		"price": 0.5, "code": "ABC", "email": "agent@example.com", "tags": []any{"sample", "sample"},
	}
	for _, n := range s.Names() {
		v := s.Properties[n].Valid()
		if !reflect.DeepEqual(v, want[n]) {
			t.Errorf("Valid(%s) = %#v, want %#v", n, v, want[n])
		}
		if broken := s.Properties[n].Check(v); len(broken) > 0 {
			t.Errorf("Valid(%s) = %#v breaks %q", n, v, broken)
		}
	}
}

func TestFix(t *testing.T) {
	s := mustSchema(t, orderSchema)
	tests := []struct {
		prop string
		in   any
		want any
	}{
		{"item", "", "x"},
		{"item", strings.Repeat("a", 250), strings.Repeat("a", 200)},
		{"item", "fine", "fine"},
		{"quantity", 101.0, 100},
		{"quantity", 0.0, 1},
		{"quantity", -7.0, 1},
		{"quantity", "two", 1},
		{"status", "lost", "open"},
		{"price", 0.0, 0.5},
		{"price", 12.0, 10.0},
		{"price", nil, nil},
		{"tags", []any{}, []any{"sample", "sample"}},
	}
	for _, tt := range tests {
		if got := s.Properties[tt.prop].Fix(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Fix(%s, %#v) = %#v, want %#v", tt.prop, tt.in, got, tt.want)
		}
	}
}

func TestRepair(t *testing.T) {
	s := mustSchema(t, orderSchema)
	tests := []struct {
		name    string
		args    map[string]any
		fields  []Field
		want    map[string]any
		wantErr error
	}{
		{
			name: "two rules for one field and a range",
			args: map[string]any{"item": "", "quantity": 101.0, "id": 1.0},
			fields: []Field{
				{"item", "The Item field is required."},
				{"item", "The field Item must be a string or array type with a minimum length of '1'."},
				{"quantity", "The field Quantity must be between 1 and 100."},
			},
			want: map[string]any{"item": "x", "quantity": 100, "id": 1.0},
		},
		{
			name:   "missing required is supplied",
			args:   map[string]any{"quantity": 3.0, "id": 1.0},
			fields: []Field{{"item", "The Item field is required."}},
			want:   map[string]any{"item": "mechanical keyboard", "quantity": 3.0, "id": 1.0},
		},
		{
			name:   "a value the schema accepts but the backend rejected is replaced",
			args:   map[string]any{"item": " ", "quantity": 3.0, "id": 1.0},
			fields: []Field{{"item", "The Item field is required."}},
			want:   map[string]any{"item": "mechanical keyboard", "quantity": 3.0, "id": 1.0},
		},
		{
			name:   "a rejected enum value moves to another allowed value",
			args:   map[string]any{"item": "a", "quantity": 3.0, "id": 1.0, "status": "open"},
			fields: []Field{{"status", "Cannot reopen."}},
			want:   map[string]any{"item": "a", "quantity": 3.0, "id": 1.0, "status": "shipped"},
		},
		{
			name:   "nested field names map to their argument",
			args:   map[string]any{"item": "a", "quantity": 3.0, "id": 1.0, "tags": []any{"x"}},
			fields: []Field{{"tags[1]", "required"}},
			want:   map[string]any{"item": "a", "quantity": 3.0, "id": 1.0, "tags": []any{"sample", "sample"}},
		},
		{
			name:   "a sent argument the schema does not know is dropped",
			args:   map[string]any{"item": "a", "quantity": 3.0, "id": 1.0, "colour": "red"},
			fields: []Field{{"colour", "Unknown."}},
			want:   map[string]any{"item": "a", "quantity": 3.0, "id": 1.0},
		},
		{
			name:    "an unknown name that was not sent cannot be repaired",
			args:    map[string]any{"item": "a", "quantity": 3.0, "id": 1.0},
			fields:  []Field{{"Owner", "The Owner field is required."}},
			want:    map[string]any{"item": "a", "quantity": 3.0, "id": 1.0},
			wantErr: &RepairError{},
		},
		{
			name:    "no fields",
			args:    map[string]any{"item": "a"},
			want:    map[string]any{"item": "a"},
			wantErr: ErrNothingToRepair,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, _ := json.Marshal(tt.args)
			got, err := s.Repair(tt.args, tt.fields)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Repair() = %#v, want %#v", got, tt.want)
			}
			switch want := tt.wantErr.(type) {
			case nil:
				if err != nil {
					t.Errorf("err = %v, want nil", err)
				}
			case *RepairError:
				var re *RepairError
				if !errors.As(err, &re) {
					t.Errorf("err = %v, want a *RepairError", err)
				}
			default:
				if !errors.Is(err, want) {
					t.Errorf("err = %v, want %v", err, want)
				}
			}
			if after, _ := json.Marshal(tt.args); string(after) != string(before) {
				t.Errorf("Repair changed its input: %s, was %s", after, before)
			}
		})
	}
}

// TestRepairIgnoresMessages shows the repair depends on field names only:
// the same names with misleading prose give the same arguments.
func TestRepairIgnoresMessages(t *testing.T) {
	s := mustSchema(t, orderSchema)
	args := map[string]any{"item": "", "quantity": 500.0, "id": 1.0}
	a, _ := s.Repair(args, []Field{{"item", "must be at least 50 characters"}, {"quantity", "must be exactly 7"}})
	b, _ := s.Repair(args, []Field{{"item", ""}, {"quantity", ""}})
	if !reflect.DeepEqual(a, b) {
		t.Errorf("repairs differ by message: %v and %v", a, b)
	}
}

func TestConform(t *testing.T) {
	s := mustSchema(t, orderSchema)
	got, changes := s.Conform(map[string]any{"item": "a", "quantity": "two", "bogus": 1.0})
	want := map[string]any{"item": "a", "quantity": 1, "id": 1}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Conform() = %#v, want %#v", got, want)
	}
	wantChanges := []string{"dropped unknown argument bogus", "replaced quantity with a value of its type", "supplied required argument id"}
	if !reflect.DeepEqual(changes, wantChanges) {
		t.Errorf("changes = %q, want %q", changes, wantChanges)
	}
}

func TestBreakArgs(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{
		"item":{"type":"string","minLength":1,"maxLength":200},
		"quantity":{"type":"integer","minimum":1,"maximum":100},
		"note":{"type":"string"},
		"id":{"type":"integer","minimum":1}},
		"required":["id","item","quantity"]}`)
	got := breakArgs(s, map[string]bool{"id": true})
	want := []breakage{
		{args: map[string]any{"id": 1, "quantity": 101}, broken: []string{"item", "quantity"},
			how: map[string]string{"item": "required, left out", "quantity": "above maximum 100"}},
		{args: map[string]any{"id": 1, "item": "", "quantity": 0}, broken: []string{"item", "quantity"},
			how: map[string]string{"item": "shorter than minLength 1", "quantity": "below minimum 1"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("breakArgs() =\n%#v\nwant\n%#v", got, want)
	}
	for _, b := range got {
		if fixed, err := s.Repair(b.args, fieldsNaming(b.broken)); err != nil {
			t.Errorf("Repair(%v): %v", b.args, err)
		} else {
			for n, v := range fixed {
				if broken := s.Properties[n].Check(v); len(broken) > 0 {
					t.Errorf("repaired %s = %#v still breaks %q", n, v, broken)
				}
			}
		}
	}
	if got := breakArgs(mustSchema(t, `{"type":"object","properties":{"q":{"type":"string"}}}`), nil); len(got) != 0 {
		t.Errorf("breakArgs(no rules) = %v, want none", got)
	}
}

func fieldsNaming(names []string) []Field {
	var out []Field
	for _, n := range names {
		out = append(out, Field{Name: n})
	}
	return out
}

func FuzzRepair(f *testing.F) {
	f.Add([]byte(orderSchema), []byte(`{"item":"","quantity":101}`), "item")
	f.Add([]byte(`{"type":"object","properties":{"n":{"type":"number","exclusiveMaximum":-3}}}`), []byte(`{"n":9}`), "n")
	f.Add([]byte(`{"properties":{"s":{"type":"string","maxLength":-1}}}`), []byte(`{}`), "s")
	f.Fuzz(func(t *testing.T, schema, args []byte, field string) {
		s, err := ParseSchema(schema)
		if err != nil {
			return
		}
		var a map[string]any
		if json.Unmarshal(args, &a) != nil {
			return
		}
		out, _ := s.Repair(a, []Field{{Name: field}})
		if _, err := json.Marshal(out); err != nil {
			t.Errorf("repaired arguments do not marshal: %v", err)
		}
		s.Conform(a)
		for _, c := range breakArgs(s, nil) {
			_, _ = s.Repair(c.args, fieldsNaming(c.broken))
		}
	})
}
