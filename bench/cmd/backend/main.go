// Command backend is the small HTTP API every configuration of the call-cost
// harness ends up calling: GET /items/{id} answers about 1 KB of JSON.
//
// It runs as its own process so that the harness can read its CPU time from
// /proc apart from the servers in front of it. The body is built from a
// template per request (no I/O, no allocation beyond the body) so the
// backend's own cost stays small and the same in every configuration.
package main

import (
	"flag"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"

	"github.com/sezzlee/sezzlee/bench/internal/procserve"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "address to listen on (loopback only)")
	flag.Parse()
	if err := run(*listen); err != nil {
		fmt.Fprintln(os.Stderr, "backend:", err)
		os.Exit(1)
	}
}

func run(listen string) error {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /items/{id}", serveItem)
	return procserve.Run(listen, mux)
}

// itemTail is the fixed part of an item: enough fields to make the whole
// answer about 1 KB, shaped like a typical catalogue record.
const itemTail = `,"sku":"SKU-BENCH-0001","name":"Stainless steel water bottle, 750 ml","status":"in_stock",` +
	`"description":"Double-walled, vacuum-insulated bottle that keeps drinks cold for 24 hours and hot for 12. ` +
	`Leak-proof lid with a carry loop; powder-coated finish that resists scratches and fingerprints.",` +
	`"price":{"amount":2499,"currency":"EUR"},"stock":{"warehouse":"AMS-2","available":184,"reserved":12},` +
	`"dimensions":{"heightMm":265,"diameterMm":74,"weightG":360},` +
	`"tags":["outdoor","kitchen","reusable","gift"],` +
	`"supplier":{"name":"Acme Housewares B.V.","country":"NL","leadTimeDays":9},` +
	`"ratings":{"average":4.6,"count":1287},` +
	`"variants":[{"color":"graphite","sku":"SKU-BENCH-0001-GR","available":61},` +
	`{"color":"sage","sku":"SKU-BENCH-0001-SG","available":75},{"color":"sand","sku":"SKU-BENCH-0001-SD","available":48}],` +
	`"createdAt":"2025-03-14T09:26:53Z","updatedAt":"2026-10-02T17:45:00Z",` +
	`"links":{"self":"/items/ID","reviews":"/items/ID/reviews","supplier":"/suppliers/acme"}}`

// serveItem answers one item. The marker "bench-item-<id>" lets a client
// check, without decoding, that the answer went all the way through.
func serveItem(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.Atoi(r.PathValue("id"))
	if err != nil || id < 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		w.Write([]byte(`{"title":"id must be a non-negative integer"}`))
		return
	}
	ids := strconv.Itoa(id)
	var b strings.Builder
	b.Grow(len(itemTail) + 64)
	b.WriteString(`{"id":`)
	b.WriteString(ids)
	b.WriteString(`,"ref":"bench-item-`)
	b.WriteString(ids)
	b.WriteString(`"`)
	b.WriteString(strings.ReplaceAll(itemTail, "/ID", "/"+ids))
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(b.Len()))
	w.Write([]byte(b.String()))
}
