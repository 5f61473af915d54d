package demo

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Options configures the demo API handler. A nil *Options and the zero
// value are both usable; each field documents what its zero value means.
type Options struct {
	// ExportDelay is how long exportOrders works before answering; it
	// stops early when the request's context ends. Zero means
	// DefaultExportDelay, longer than the call timeout `sezzlee demo` uses.
	ExportDelay time.Duration
	// StatsInterval is the shortest gap between two getOrderStats calls;
	// a call within it answers 429 with Retry-After. Zero means one second.
	StatsInterval time.Duration
	// Key, when set, is the value every request must carry in X-Demo-Key
	// (the description's demoKey scheme); others answer 401.
	// Zero accepts requests without a key.
	Key string
}

// DefaultExportDelay is the zero value of Options.ExportDelay.
const DefaultExportDelay = 20 * time.Second

// Seeded data: alice owns enough orders that the default page of
// listOrders is larger than the default agent response limit.
const (
	seedAlice = 240
	seedBob   = 12
)

// Order is one order as the API stores and returns it.
type Order struct {
	ID       int    `json:"id"`
	Item     string `json:"item"`
	Quantity int    `json:"quantity"`
	Owner    string `json:"owner"`
	Status   string `json:"status"`
	Note     string `json:"note,omitempty"`
}

// api is the demo orders service. It is safe for concurrent use.
type api struct {
	opts Options

	mu        sync.Mutex
	orders    map[int]*Order
	nextID    int
	traces    uint64
	lastStats time.Time
}

// NewHandler returns the demo orders API as an http.Handler with its seeded
// data. Every handler holds its own orders, so tests do not share state.
func NewHandler(opts *Options) http.Handler {
	a := &api{orders: make(map[int]*Order)}
	if opts != nil {
		a.opts = *opts
	}
	if a.opts.ExportDelay == 0 {
		a.opts.ExportDelay = DefaultExportDelay
	}
	if a.opts.StatsInterval == 0 {
		a.opts.StatsInterval = time.Second
	}
	a.seed()

	mux := http.NewServeMux()
	mux.HandleFunc("GET /orders", a.listOrders)
	mux.HandleFunc("POST /orders", a.createOrder)
	mux.HandleFunc("GET /orders/{id}", a.getOrder)
	mux.HandleFunc("PATCH /orders/{id}", a.updateOrder)
	mux.HandleFunc("DELETE /orders/{id}", a.deleteOrder)
	mux.HandleFunc("GET /orders/{id}/invoice", a.getOrderInvoice)
	mux.HandleFunc("GET /reports/export", a.exportOrders)
	mux.HandleFunc("GET /reports/stats", a.getOrderStats)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if a.opts.Key != "" && r.Header.Get("X-Demo-Key") != a.opts.Key {
			a.problem(w, http.StatusUnauthorized, "Unauthorized", nil)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

var seedItems = []string{
	"mechanical keyboard", "USB-C hub", "27-inch monitor", "desk lamp",
	"noise-cancelling headphones", "standing desk", "webcam", "ergonomic mouse",
}

var seedStatuses = []string{"open", "shipped", "cancelled"}

// seedNote makes each order large enough that a default page of them
// floods an agent's context.
const seedNote = "Deliver to the loading dock at the back of the building between 9:00 and 17:00 " +
	"on weekdays. Ring the bell twice and ask for the warehouse team; leave the parcel " +
	"with the security desk if nobody answers. Keep the box upright and dry, " +
	"and call the office number on the invoice if the order arrives damaged."

func (a *api) seed() {
	add := func(owner string, i int) {
		a.nextID++
		a.orders[a.nextID] = &Order{
			ID:       a.nextID,
			Item:     seedItems[i%len(seedItems)],
			Quantity: 1 + (i*7)%10,
			Owner:    owner,
			Status:   seedStatuses[i%len(seedStatuses)],
			Note:     seedNote,
		}
	}
	for i := range seedAlice {
		add("alice", i)
	}
	for i := range seedBob {
		add("bob", i)
	}
}

// traceID returns an ASP.NET Core style W3C trace id, deterministic per handler.
func (a *api) traceID() string {
	a.mu.Lock()
	a.traces++
	n := a.traces
	a.mu.Unlock()
	return fmt.Sprintf("00-%016x%016x-%016x-00", n*0x9e3779b97f4a7c15, n*0xc2b2ae3d27d4eb4f, n*0x165667b19e3779f9)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// problem answers RFC 9457 problem details the way ASP.NET Core does.
func (a *api) problem(w http.ResponseWriter, status int, title string, errs map[string][]string) {
	p := map[string]any{
		"type":    fmt.Sprintf("https://tools.ietf.org/html/rfc9110#section-15.%s", problemSection(status)),
		"title":   title,
		"status":  status,
		"traceId": a.traceID(),
	}
	if errs != nil {
		p["errors"] = errs
	}
	w.Header().Set("Content-Type", "application/problem+json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(p)
}

func problemSection(status int) string {
	switch status {
	case http.StatusBadRequest:
		return "5.1"
	case http.StatusUnauthorized:
		return "5.2"
	case http.StatusNotFound:
		return "5.5"
	case http.StatusTooManyRequests:
		return "5.29"
	}
	return "6.1"
}

const validationTitle = "One or more validation errors occurred."

func (a *api) listOrders(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	errs := map[string][]string{}
	owner := q.Get("owner")
	if owner == "" {
		errs["owner"] = append(errs["owner"], "The owner field is required.")
	}
	limit := 200
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		switch {
		case err != nil:
			errs["limit"] = append(errs["limit"], fmt.Sprintf("The value '%s' is not valid for limit.", s))
		case n < 1 || n > 500:
			errs["limit"] = append(errs["limit"], "The field limit must be between 1 and 500.")
		default:
			limit = n
		}
	}
	offset := 0
	if c := q.Get("cursor"); c != "" {
		n, err := strconv.Atoi(strings.TrimPrefix(c, "p"))
		if !strings.HasPrefix(c, "p") || err != nil || n < 0 {
			errs["cursor"] = append(errs["cursor"], fmt.Sprintf("The value '%s' is not valid for cursor.", c))
		}
		offset = n
	}
	status := q.Get("status")
	if status != "" && !validStatus(status) {
		errs["status"] = append(errs["status"], fmt.Sprintf("The value '%s' is not valid for status.", status))
	}
	if len(errs) > 0 {
		a.problem(w, http.StatusBadRequest, validationTitle, errs)
		return
	}

	a.mu.Lock()
	var mine []Order
	for id := a.nextID; id >= 1; id-- { // newest first
		o, ok := a.orders[id]
		if ok && o.Owner == owner && (status == "" || o.Status == status) {
			mine = append(mine, *o)
		}
	}
	a.mu.Unlock()

	page := struct {
		Orders     []Order `json:"orders"`
		NextCursor *string `json:"nextCursor"`
	}{Orders: []Order{}}
	if offset < len(mine) {
		end := min(offset+limit, len(mine))
		page.Orders = mine[offset:end]
		if end < len(mine) {
			next := "p" + strconv.Itoa(end)
			page.NextCursor = &next
		}
	}
	writeJSON(w, http.StatusOK, page)
}

func validStatus(s string) bool {
	for _, v := range seedStatuses {
		if s == v {
			return true
		}
	}
	return false
}

// orderInput is a create or update body. Pointers tell absent from zero.
type orderInput struct {
	Item     *string `json:"item"`
	Quantity *int    `json:"quantity"`
	Note     *string `json:"note"`
	Owner    *string `json:"owner"`
	Status   *string `json:"status"`
}

// decodeOrder reads a JSON body and checks it with ASP.NET Core's default
// data-annotation messages. create requires item, quantity and owner.
func decodeOrder(r *http.Request, create bool) (*orderInput, map[string][]string) {
	var in orderInput
	dec := json.NewDecoder(http.MaxBytesReader(nil, r.Body, 1<<20))
	if err := dec.Decode(&in); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, map[string][]string{"$." + te.Field: {
				fmt.Sprintf("The JSON value could not be converted to %s. Path: $.%s", dotnetType(te.Type.Kind().String()), te.Field),
			}}
		}
		return nil, map[string][]string{
			"$":     {"The input does not contain any JSON tokens. Expected the input to start with a valid JSON token."},
			"order": {"The order field is required."},
		}
	}
	errs := map[string][]string{}
	if in.Item == nil {
		if create {
			errs["Item"] = append(errs["Item"], "The Item field is required.")
		}
	} else {
		n := len([]rune(*in.Item))
		if strings.TrimSpace(*in.Item) == "" {
			errs["Item"] = append(errs["Item"], "The Item field is required.")
		}
		if n < 1 {
			errs["Item"] = append(errs["Item"], "The field Item must be a string or array type with a minimum length of '1'.")
		}
		if n > 200 {
			errs["Item"] = append(errs["Item"], "The field Item must be a string or array type with a maximum length of '200'.")
		}
	}
	if in.Quantity == nil {
		if create {
			errs["Quantity"] = append(errs["Quantity"], "The Quantity field is required.")
		}
	} else if *in.Quantity < 1 || *in.Quantity > 100 {
		errs["Quantity"] = append(errs["Quantity"], "The field Quantity must be between 1 and 100.")
	}
	if create && (in.Owner == nil || *in.Owner == "") {
		errs["Owner"] = append(errs["Owner"], "The Owner field is required.")
	}
	if in.Status != nil && !validStatus(*in.Status) {
		errs["Status"] = append(errs["Status"], "The field Status must be one of open, shipped, cancelled.")
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return &in, nil
}

func dotnetType(kind string) string {
	switch kind {
	case "int":
		return "System.Int32"
	case "string", "ptr":
		return "System.String"
	}
	return "System.Object"
}

func (a *api) createOrder(w http.ResponseWriter, r *http.Request) {
	in, errs := decodeOrder(r, true)
	if errs != nil {
		a.problem(w, http.StatusBadRequest, validationTitle, errs)
		return
	}
	a.mu.Lock()
	a.nextID++
	o := &Order{ID: a.nextID, Item: *in.Item, Quantity: *in.Quantity, Owner: *in.Owner, Status: "open"}
	if in.Note != nil {
		o.Note = *in.Note
	}
	a.orders[o.ID] = o
	out := *o
	a.mu.Unlock()
	w.Header().Set("Location", "/orders/"+strconv.Itoa(out.ID))
	writeJSON(w, http.StatusCreated, out)
}

// lookup returns a copy of the order named by the path, or answers 404.
func (a *api) lookup(w http.ResponseWriter, r *http.Request) (int, bool) {
	id, err := strconv.Atoi(r.PathValue("id"))
	if err != nil || id < 1 {
		a.problem(w, http.StatusBadRequest, validationTitle, map[string][]string{
			"id": {fmt.Sprintf("The value '%s' is not valid.", r.PathValue("id"))},
		})
		return 0, false
	}
	a.mu.Lock()
	_, ok := a.orders[id]
	a.mu.Unlock()
	if !ok {
		a.problem(w, http.StatusNotFound, "Not Found", nil)
		return 0, false
	}
	return id, true
}

func (a *api) getOrder(w http.ResponseWriter, r *http.Request) {
	id, ok := a.lookup(w, r)
	if !ok {
		return
	}
	a.answerOrder(w, id, nil)
}

func (a *api) updateOrder(w http.ResponseWriter, r *http.Request) {
	id, ok := a.lookup(w, r)
	if !ok {
		return
	}
	in, errs := decodeOrder(r, false)
	if errs != nil {
		a.problem(w, http.StatusBadRequest, validationTitle, errs)
		return
	}
	a.answerOrder(w, id, func(o *Order) {
		if in.Item != nil {
			o.Item = *in.Item
		}
		if in.Quantity != nil {
			o.Quantity = *in.Quantity
		}
		if in.Status != nil {
			o.Status = *in.Status
		}
	})
}

// answerOrder applies change (when not nil) to the order under the lock and
// answers with a copy of it, or 404 when it was removed meanwhile.
func (a *api) answerOrder(w http.ResponseWriter, id int, change func(*Order)) {
	a.mu.Lock()
	o, ok := a.orders[id]
	var out Order
	if ok {
		if change != nil {
			change(o)
		}
		out = *o
	}
	a.mu.Unlock()
	if !ok {
		a.problem(w, http.StatusNotFound, "Not Found", nil)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func (a *api) deleteOrder(w http.ResponseWriter, r *http.Request) {
	id, ok := a.lookup(w, r)
	if !ok {
		return
	}
	a.mu.Lock()
	delete(a.orders, id)
	a.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// invoiceFailure is what a careless backend prints on an unhandled
// exception: a stack trace and the connection string it was using. The
// leak filter must keep both from the agent.
const invoiceFailure = `System.InvalidOperationException: The invoice template could not be rendered.
   at Demo.Orders.Invoices.InvoiceRenderer.Render(Order order) in /src/Demo.Orders/Invoices/InvoiceRenderer.cs:line 87
   at Demo.Orders.Controllers.OrdersController.GetInvoice(Int32 id) in /src/Demo.Orders/Controllers/OrdersController.cs:line 142
   at Microsoft.AspNetCore.Mvc.Infrastructure.ActionMethodExecutor.SyncObjectResultExecutor.Execute(ActionContext context)
Connection: Server=tcp:orders-db.internal.example,1433;Database=Orders;User Id=orders_app;Password=Tr0ub4dor&3;Encrypt=True;
`

func (a *api) getOrderInvoice(w http.ResponseWriter, r *http.Request) {
	if _, ok := a.lookup(w, r); !ok {
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusInternalServerError)
	_, _ = w.Write([]byte(invoiceFailure))
}

func (a *api) exportOrders(w http.ResponseWriter, r *http.Request) {
	t := time.NewTimer(a.opts.ExportDelay)
	defer t.Stop()
	select {
	case <-r.Context().Done():
		return
	case <-t.C:
	}
	a.mu.Lock()
	n := len(a.orders)
	a.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"orders": n})
}

func (a *api) getOrderStats(w http.ResponseWriter, r *http.Request) {
	now := time.Now()
	a.mu.Lock()
	limited := !a.lastStats.IsZero() && now.Sub(a.lastStats) < a.opts.StatsInterval
	if !limited {
		a.lastStats = now
	}
	counts := map[string]int{}
	if !limited {
		for _, o := range a.orders {
			counts[o.Status]++
		}
	}
	a.mu.Unlock()
	if limited {
		secs := int((a.opts.StatsInterval + time.Second - 1) / time.Second)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		a.problem(w, http.StatusTooManyRequests, "Too Many Requests", nil)
		return
	}
	writeJSON(w, http.StatusOK, counts)
}
