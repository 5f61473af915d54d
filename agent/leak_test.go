package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/tools/txtar"
)

func TestCheckNoLeakFinds(t *testing.T) {
	tests := []struct {
		kind string
		text string
	}{
		{"stack frame", "   at com.shop.orders.OrderService.create(OrderService.java:42)"},
		{"stack frame", "at Shop.Orders.Render(Order o) in /src/Shop/Render.cs:line 87"},
		{"stack frame", `  File "/app/orders/views.py", line 12, in create`},
		{"stack frame", "Traceback (most recent call last):"},
		{"stack frame", "    at createOrder (/srv/app/routes/orders.js:31:9)"},
		{"stack frame", "goroutine 17 [running]:"},
		{"stack frame", "\t/home/ci/shop/orders.go:88 +0x1d4"},
		{"stack frame", "app/models/order.rb:14:in `save!'"},
		{"stack frame", "#0 /var/www/html/Order.php(55): Order->save()"},
		{"stack frame", "thread 'main' panicked at src/orders.rs:9:5"},
		{"stack frame", "lib/shop/orders.ex:21:in create/1"},
		{"exception type", "java.lang.NullPointerException"},
		{"exception type", "System.InvalidOperationException: boom"},
		{"exception type", "NullReferenceException was thrown"},
		{"exception type", "TypeError: cannot read properties of undefined"},
		{"exception type", "raised KeyError('item')"},
		{"exception type", "psycopg2.errors.UniqueViolation"},
		{"exception type", "ActiveRecord::RecordInvalid raised as Mongo::Error"},
		{"file path", "could not open /etc/shop/config.yaml"},
		{"file path", "template /opt/shop/templates/invoice.html missing"},
		{"file path", `C:\inetpub\wwwroot\Shop\web.config`},
		{"file path", `\\fileserver\share\invoices`},
		{"file path", "see /var/log/shop/error for details"},
		{"connection string", "postgres://app:secret@db.internal:5432/shop"},
		{"connection string", "mongodb+srv://cluster0.example.net/shop"},
		{"connection string", "redis://cache:6379/0"},
		{"connection string", "amqp://guest:guest@mq:5672/"},
		{"connection string", "jdbc:mysql://db:3306/shop?user=app"},
		{"connection string", "Server=tcp:db.internal,1433;Database=Orders;User Id=app;Password=x;"},
		{"connection string", "Data Source=db01;Initial Catalog=Shop;Integrated Security=True"},
		{"connection string", "https://deploy:hunter2@git.example.com/shop.git"},
		{"credential", "AKIAIOSFODNN7EXAMPLE"},
		{"credential", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"},
		{"credential", "glpat-abcdefghij0123456789"},
		{"credential", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"},
		{"credential", "xoxb-123456789012-abcdefghij"},
		{"credential", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlMTIz"},
		{"credential", "-----BEGIN RSA PRIVATE KEY-----"},
		{"credential", "Authorization: Bearer 9f8e7d6c5b4a3f2e1d0c9b8a"},
		{"credential", "Authorization: Basic YWxpY2U6c2VjcmV0MTIz"},
		{"credential", "api_key=a1b2c3d4e5f6"},
		{"credential", "password: Tr0ub4dor&3"},
		{"credential", `"client_secret":"s3cr3tvalue"`},
		{"credential", "DATABASE_PASSWORD=correcthorsebattery"},
		{"credential", "secret whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"},
		{"credential", "https://acct.blob.example.net/c/x?sv=2022-11-02&sig=Zx%2FRs8kLm4nOpQ1rS2tU3vW4"},
		{"connection string", "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=abc"},
		{"stack frame", "    at file:///app/main.ts:4:9"},
		{"stack frame", "panicked at 'index out of bounds', src/cart.rs:19:9"},
		{"exception type", "** (Ecto.NoResultsError) expected at least one result"},
		{"internal address", "connect ECONNREFUSED 10.0.0.12:5432"},
		{"internal address", "proxy error: 172.31.255.4:8080 unreachable"},
		{"internal address", "fetch http://169.254.169.254/latest/meta-data"},
		{"internal address", "no route to fd12:3456:789a::1"},
		{"internal address", "connection refused [::1]:5432"},
		{"internal address", "Redis connection to localhost:6379 failed"},
		{"internal address", "inventory.shop.svc.cluster.local:8080: i/o timeout"},
		{"internal address", "orders-db.prod.internal refused"},
	}
	for _, tt := range tests {
		t.Run(tt.kind+"/"+tt.text, func(t *testing.T) {
			found := CheckNoLeak(tt.text)
			for _, f := range found {
				if strings.HasPrefix(f, tt.kind+" (") {
					return
				}
			}
			t.Errorf("CheckNoLeak(%q) = %q, want a %s", tt.text, found, tt.kind)
		})
	}
}

// TestCheckNoLeakPassesOrdinaryText keeps the detector from crying wolf on
// the messages a correct server sends.
func TestCheckNoLeakPassesOrdinaryText(t *testing.T) {
	for _, text := range []string{
		"The backend rejected one or more arguments. Fix the listed fields and call the operation again.",
		"The Item field is required.",
		"The field Item must be a string or array type with a minimum length of '1'.",
		"The field Quantity must be between 1 and 100.",
		"Password must be at least 12 characters.",
		"password: required",
		"The new password must differ from the old one.",
		"Use the Bearer scheme in the Authorization header.",
		"token is required",
		"Unknown argument(s): bogus. Allowed: id.",
		"No operation named 'nope'. Use search_tools to find the exact name.",
		"Argument 'id' must be of type integer.",
		"The tool 'get_order' changed after it was loaded, so the call was refused before reaching the backend.",
		"The response is 71 KB, more than the 64 KB limit. Narrow the call with limit, cursor or status.",
		"The backend failed with an internal error; its details were withheld.",
		"Too many requests. Retry after 2 seconds.",
		"Must match ^[A-Z]{3}$.",
		"GET /orders/{id} answered 404.",
		"Error: the value is not valid.",
		"The date must be on or after 2026-01-01.",
		"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
		"Deliver between 9:00 and 17:00 at the loading dock.",
		"See https://example.com/docs/errors#validation_failed for help.",
		"Version 10.2 of the API is retired; use 11.0.",
		"Use the public address 8.8.8.8 or example.com.",
		"Limit must be 1 to 500; see RFC 9110.",
	} {
		if found := CheckNoLeak(text); len(found) > 0 {
			t.Errorf("CheckNoLeak(%q) = %q, want nothing", text, found)
		}
	}
}

// demoInvoiceFailure is the kind of text a careless backend prints on an
// unhandled exception; every kind of leak must be found in it.
const demoInvoiceFailure = `System.InvalidOperationException: The invoice template could not be rendered.
   at Demo.Orders.Invoices.InvoiceRenderer.Render(Order order) in /src/Demo.Orders/Invoices/InvoiceRenderer.cs:line 87
   at Microsoft.AspNetCore.Mvc.Infrastructure.ActionMethodExecutor.SyncObjectResultExecutor.Execute(ActionContext context)
Connection: Server=tcp:orders-db.internal.example,1433;Database=Orders;User Id=orders_app;Password=Tr0ub4dor&3;Encrypt=True;`

func TestCheckNoLeakReportsKindsWithoutRepeatingSecrets(t *testing.T) {
	found := CheckNoLeak(demoInvoiceFailure)
	kinds := map[string]bool{}
	for _, f := range found {
		kinds[f[:strings.Index(f, " (")]] = true
		if strings.Contains(f, "Tr0ub4dor") || strings.Contains(f, "orders-db") {
			t.Errorf("finding %q repeats the leaked value", f)
		}
	}
	for _, k := range []string{"stack frame", "exception type", "file path", "connection string", "credential"} {
		if !kinds[k] {
			t.Errorf("no %s found in the demo's failure text; found %q", k, found)
		}
	}
}

func FuzzCheckNoLeak(f *testing.F) {
	f.Add(demoInvoiceFailure)
	f.Add("The field Quantity must be between 1 and 100.")
	f.Add("password=" + strings.Repeat("a1", 300))
	f.Fuzz(func(t *testing.T, text string) {
		for _, line := range CheckNoLeak(text) {
			if i := strings.Index(line, " ("); i < 0 || utf8.RuneCountInString(line[i:]) > 12 {
				t.Errorf("finding %q is not a kind and a short excerpt", line)
			}
		}
	})
}

func BenchmarkCheckNoLeak(b *testing.B) {
	clean := "The backend rejected one or more arguments. Fix the listed fields and call the operation again."
	b.Run("clean", func(b *testing.B) {
		b.SetBytes(int64(len(clean)))
		for b.Loop() {
			CheckNoLeak(clean)
		}
	})
	b.Run("leaky", func(b *testing.B) {
		b.SetBytes(int64(len(demoInvoiceFailure)))
		for b.Loop() {
			CheckNoLeak(demoInvoiceFailure)
		}
	})
}

// TestCheckNoLeakOnTheLeakCorpus runs the client's detector, written apart
// from sezzlee's leak filter, over that filter's corpus: the raw leak samples
// must be caught and the ordinary validation prose must pass. A few misses
// are tolerated so that a sample added for the server's filter does not fail
// the client's tests, but each one is logged.
func TestCheckNoLeakOnTheLeakCorpus(t *testing.T) {
	a, err := txtar.ParseFile(filepath.Join("..", "leak", "testdata", "leaks.txtar"))
	if err != nil {
		t.Skipf("the leak filter's corpus is not here: %v", err)
	}
	missed := 0
	for _, f := range a.Files {
		var text []string
		for _, line := range strings.Split(string(f.Data), "\n") {
			if !strings.HasPrefix(line, "# secret:") {
				text = append(text, line)
			}
		}
		if len(CheckNoLeak(strings.Join(text, "\n"))) == 0 {
			missed++
			t.Logf("missed sample %s", f.Name)
		}
	}
	if len(a.Files) == 0 || missed*20 > len(a.Files) {
		t.Errorf("missed %d of %d leak samples, want at most 5%%", missed, len(a.Files))
	}
	prose, err := os.ReadFile(filepath.Join("..", "leak", "testdata", "prose.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(prose), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if found := CheckNoLeak(line); len(found) > 0 {
			t.Errorf("CheckNoLeak(%q) = %q, want nothing: it is ordinary prose", line, found)
		}
	}
}
