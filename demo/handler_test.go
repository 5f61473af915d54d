package demo

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"
)

func do(t *testing.T, h http.Handler, method, target, body string) *httptest.ResponseRecorder {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, target, r)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

func TestCreateOrderValidation(t *testing.T) {
	tests := []struct {
		name   string
		body   string
		status int
		errors map[string][]string
	}{
		{"valid", `{"item":"lamp","quantity":2,"owner":"alice"}`, 201, nil},
		{"missing item", `{"quantity":2,"owner":"alice"}`, 400, map[string][]string{
			"Item": {"The Item field is required."},
		}},
		{"empty item repeats the field", `{"item":"","quantity":2,"owner":"alice"}`, 400, map[string][]string{
			"Item": {"The Item field is required.", "The field Item must be a string or array type with a minimum length of '1'."},
		}},
		{"quantity out of range", `{"item":"lamp","quantity":101,"owner":"alice"}`, 400, map[string][]string{
			"Quantity": {"The field Quantity must be between 1 and 100."},
		}},
		{"two fields", `{"item":"","quantity":0,"owner":"alice"}`, 400, map[string][]string{
			"Item":     {"The Item field is required.", "The field Item must be a string or array type with a minimum length of '1'."},
			"Quantity": {"The field Quantity must be between 1 and 100."},
		}},
		{"missing owner", `{"item":"lamp","quantity":1}`, 400, map[string][]string{
			"Owner": {"The Owner field is required."},
		}},
		{"wrong type", `{"item":"lamp","quantity":"two","owner":"alice"}`, 400, map[string][]string{
			"$.quantity": {"The JSON value could not be converted to System.Int32. Path: $.quantity"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := do(t, NewHandler(nil), "POST", "/orders", tt.body)
			if w.Code != tt.status {
				t.Fatalf("status = %d, want %d; body %s", w.Code, tt.status, w.Body)
			}
			if tt.status != 400 {
				if got := w.Header().Get("Location"); got != "/orders/253" {
					t.Errorf("Location = %q, want /orders/253", got)
				}
				return
			}
			if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/problem+json") {
				t.Errorf("Content-Type = %q, want application/problem+json", ct)
			}
			var p struct {
				Title   string              `json:"title"`
				Status  int                 `json:"status"`
				TraceID string              `json:"traceId"`
				Errors  map[string][]string `json:"errors"`
			}
			if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p.Errors, tt.errors) {
				t.Errorf("errors = %v, want %v", p.Errors, tt.errors)
			}
			if p.Status != 400 || p.Title != validationTitle || !strings.HasPrefix(p.TraceID, "00-") {
				t.Errorf("problem = %+v, want status 400, the validation title and a traceId", p)
			}
		})
	}
}

func TestListOrdersPaging(t *testing.T) {
	h := NewHandler(nil)
	w := do(t, h, "GET", "/orders?owner=alice", "")
	if w.Code != 200 {
		t.Fatalf("status = %d, want 200", w.Code)
	}
	if n := w.Body.Len(); n <= 64<<10 {
		t.Errorf("default page is %d bytes, want more than the 64 KiB agent limit", n)
	}
	var page struct {
		Orders     []Order `json:"orders"`
		NextCursor *string `json:"nextCursor"`
	}
	seen := 0
	cursor := ""
	for range 100 {
		target := "/orders?owner=alice&limit=50"
		if cursor != "" {
			target += "&cursor=" + cursor
		}
		w := do(t, h, "GET", target, "")
		page.NextCursor = nil
		if err := json.Unmarshal(w.Body.Bytes(), &page); err != nil {
			t.Fatal(err)
		}
		seen += len(page.Orders)
		for _, o := range page.Orders {
			if o.Owner != "alice" {
				t.Fatalf("order %d belongs to %q, want alice", o.ID, o.Owner)
			}
		}
		if page.NextCursor == nil {
			break
		}
		cursor = *page.NextCursor
	}
	if seen != seedAlice {
		t.Errorf("paged through %d orders, want %d", seen, seedAlice)
	}
	if w := do(t, h, "GET", "/orders?owner=alice&cursor=zz", ""); w.Code != 400 {
		t.Errorf("bad cursor: status = %d, want 400", w.Code)
	}
}

func TestOrderLifecycle(t *testing.T) {
	h := NewHandler(nil)
	if w := do(t, h, "GET", "/orders/1", ""); w.Code != 200 {
		t.Fatalf("get: status = %d, want 200", w.Code)
	}
	w := do(t, h, "PATCH", "/orders/1", `{"quantity":7,"status":"shipped"}`)
	var o Order
	_ = json.Unmarshal(w.Body.Bytes(), &o)
	if w.Code != 200 || o.Quantity != 7 || o.Status != "shipped" {
		t.Errorf("patch: status %d order %+v, want 200 with quantity 7 shipped", w.Code, o)
	}
	if w := do(t, h, "PATCH", "/orders/1", `{"quantity":0}`); w.Code != 400 {
		t.Errorf("patch quantity 0: status = %d, want 400", w.Code)
	}
	if w := do(t, h, "DELETE", "/orders/1", ""); w.Code != 204 {
		t.Errorf("delete: status = %d, want 204", w.Code)
	}
	if w := do(t, h, "GET", "/orders/1", ""); w.Code != 404 {
		t.Errorf("get after delete: status = %d, want 404", w.Code)
	}
}

func TestInvoiceLeaks(t *testing.T) {
	w := do(t, NewHandler(nil), "GET", "/orders/2/invoice", "")
	if w.Code != 500 {
		t.Fatalf("status = %d, want 500", w.Code)
	}
	for _, want := range []string{"   at Demo.Orders", "Password="} {
		if !strings.Contains(w.Body.String(), want) {
			t.Errorf("body lacks %q: the leak filter would have nothing to strip", want)
		}
	}
}

func TestStatsRateLimit(t *testing.T) {
	h := NewHandler(&Options{StatsInterval: time.Hour})
	if w := do(t, h, "GET", "/reports/stats", ""); w.Code != 200 {
		t.Fatalf("first call: status = %d, want 200", w.Code)
	}
	w := do(t, h, "GET", "/reports/stats", "")
	if w.Code != 429 || w.Header().Get("Retry-After") != "3600" {
		t.Errorf("second call: status %d Retry-After %q, want 429 and 3600", w.Code, w.Header().Get("Retry-After"))
	}
}

func TestExportHonoursContext(t *testing.T) {
	h := NewHandler(nil) // DefaultExportDelay: far longer than this test
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req := httptest.NewRequest("GET", "/reports/export", nil).WithContext(ctx)
	start := time.Now()
	h.ServeHTTP(httptest.NewRecorder(), req)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("export took %v after its context ended, want it to stop early", d)
	}
	w := do(t, NewHandler(&Options{ExportDelay: time.Millisecond}), "GET", "/reports/export", "")
	if w.Code != 200 {
		t.Errorf("short export: status = %d, want 200", w.Code)
	}
}

func TestKey(t *testing.T) {
	h := NewHandler(&Options{Key: "k1"})
	if w := do(t, h, "GET", "/orders/1", ""); w.Code != 401 {
		t.Errorf("without key: status = %d, want 401", w.Code)
	}
	req := httptest.NewRequest("GET", "/orders/1", nil)
	req.Header.Set("X-Demo-Key", "k1")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code != 200 {
		t.Errorf("with key: status = %d, want 200", w.Code)
	}
}
