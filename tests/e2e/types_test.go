package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/clrotel/clrotel/otlpsink"
	"github.com/clrotel/clrotel/values"
)

// latest returns the attributes of the last-started span whose name
// contains part (each call in the Types app is made five times: a class's plan
// can be built after its first sighting).
func latest(t *testing.T, spans []otlpsink.Span, part string) map[string]any {
	t.Helper()
	var found *otlpsink.Span
	for i, s := range spans {
		if strings.Contains(s.Name, part) && (found == nil || s.Start.After(found.Start)) {
			found = &spans[i]
		}
	}
	if found == nil {
		t.Fatalf("no span contains %q:\n%s", part, dumpSpans(spans))
	}
	return found.Attrs
}

// noCardNumbers fails t for every exported attribute (of any span or
// event) that holds a payment card number.
func noCardNumbers(t *testing.T, spans []otlpsink.Span) {
	t.Helper()
	for _, s := range spans {
		check := func(where string, attrs map[string]any) {
			for k, v := range attrs {
				if text := fmt.Sprint(v); values.HasPANString(text) {
					t.Errorf("card number exported: %s %s=%q", where, k, text)
				}
			}
		}
		check(s.Name, s.Attrs)
		for _, e := range s.Events {
			check(s.Name+" event "+e.Name, e.Attrs)
		}
	}
}

// TestTypeRenderings: the common .NET types and the collections render by
// their meaning, on real values, on each runtime (their private fields
// differ between 3.1 and 8).
func TestTypeRenderings(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		// A local DateTime shows with the offset of the process's time zone
		// at its date: Paris is +01:00 in November, +02:00 in July.
		// Values on every span: the run is one trace, past the value budget.
		r := runApp(t, rt, "Types", nil, runOpts{profiler: true, env: map[string]string{"TZ": "Europe/Paris", "CLROTEL_MAX_VALUE_SPANS_PER_TRACE": "0"}})
		if r.ExitCode != 0 || !strings.Contains(r.Stdout, "types 1475 42") {
			t.Fatalf("exit %d, stdout %q\n%s", r.ExitCode, r.Stdout, r.Stderr)
		}
		tests := []struct {
			span, key string
			want      any
		}{
			{"Calls.Scalars(", "dotnet.arg.price", "99.95"},
			{"Calls.Scalars(", "dotnet.arg.price.value", 99.95},
			{"Calls.Scalars(", "dotnet.arg.negative", "-0.001"},
			{"Calls.Scalars(", "dotnet.arg.boxedDec", "12.5"},
			{"Calls.Scalars(", "dotnet.arg.at", "2026-11-23T09:00:00.0000000Z"},
			{"Calls.Scalars(", "dotnet.arg.at.kind", "Utc"},
			{"Calls.Scalars(", "dotnet.arg.unspecified", "2026-01-02T03:04:05.6780000"},
			{"Calls.Scalars(", "dotnet.arg.unspecified.kind", "Unspecified"},
			{"Calls.Scalars(", "dotnet.arg.when", "2026-11-23T10:00:00.0000000+01:00"},
			{"Calls.Scalars(", "dotnet.arg.ttl", "01:30:00"},
			{"Calls.Scalars(", "dotnet.arg.ttl.seconds", 5400.0},
			{"Calls.Scalars(", "dotnet.arg.negSpan", "-1.12:00:00"},
			{"Calls.Scalars(", "dotnet.arg.g", "3f2504e0-4f89-11d3-9a0c-0305e82c3301"},
			{"Calls.Scalars(", "dotnet.arg.link", "https://shop.example/cart?id=7"},
			{"Calls.Scalars(", "dotnet.arg.ver", "1.2.3"},
			{"Calls.Builders(", "dotnet.arg.sb", "hello"},
			{"Calls.Builders(", "dotnet.arg.longer", "hello world0 world1 world2 world3 world4"},
			{"Calls.Lists(", "dotnet.arg.empty", "[]"},
			{"Calls.Lists(", "dotnet.arg.empty.count", int64(0)},
			{"Calls.Lists(", "dotnet.arg.one", "[0]"},
			{"Calls.Lists(", "dotnet.arg.many", "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, …](20)"},
			{"Calls.Lists(", "dotnet.arg.many.count", int64(20)},
			{"Calls.Lists(", "dotnet.arg.strs", `["a", null, "c"]`},
			{"Calls.Dicts(", "dotnet.arg.empty", "{}"},
			{"Calls.Dicts(", "dotnet.arg.one", `{"only": 1}`},
			{"Calls.Dicts(", "dotnet.arg.many.count", int64(20)},
			{"Calls.Dicts(", "dotnet.arg.removed", `{"r0": 0, "r2": 2, "r5": 5}`},
			{"Calls.Dicts(", "dotnet.arg.removed.count", int64(3)},
			{"Calls.Sets(", "dotnet.arg.empty", "{}"},
			{"Calls.Sets(", "dotnet.arg.one", "{7}"},
			{"Calls.Sets(", "dotnet.arg.many", "{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, …}(20)"},
			{"Calls.Sets(", "dotnet.arg.removed", `{"a", "d"}`},
			{"Calls.Sets(", "dotnet.arg.removed.count", int64(2)},
			{"Calls.Arrays(", "dotnet.arg.empty", "Int32[0]{}"},
			{"Calls.Arrays(", "dotnet.arg.one", "Int32[1]{5}"},
			{"Calls.Arrays(", "dotnet.arg.many", "Int32[20]{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, …}"},
			{"Calls.Ordered(", "dotnet.arg.queue", "[3, 4, 5, 6]"},
			{"Calls.Ordered(", "dotnet.arg.stack", "[3, 2, 1]"},
			{"Calls.OrderedSizes(", "dotnet.arg.emptyQueue", "[]"},
			{"Calls.OrderedSizes(", "dotnet.arg.manyQueue", "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, …](20)"},
			{"Calls.OrderedSizes(", "dotnet.arg.emptyStack", "[]"},
			{"Calls.OrderedSizes(", "dotnet.arg.manyStack", "[…, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0](20)"},
			{"Calls.OrderedSizes(", "dotnet.arg.manyStack.count", int64(20)},
			{"Calls.ValueTuples(", "dotnet.arg.pair", `(2, "b")`},
			{"Calls.Concurrent(", "dotnet.arg.empty", "{}"},
			{"Calls.SortedSets(", "dotnet.arg.empty", "{}"},
			{"Calls.SortedSets(", "dotnet.arg.empty.count", int64(0)},
			{"Calls.SortedSets(", "dotnet.arg.one", "{7}"},
			{"Calls.SortedSets(", "dotnet.arg.many", "{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, …}(20)"},
			{"Calls.SortedSets(", "dotnet.arg.many.count", int64(20)},
			{"Calls.SortedSets(", "dotnet.arg.removed", "{1, 3, 5, 6}"},
			{"Calls.SortedSets(", "dotnet.arg.removed.count", int64(4)},
			{"Calls.SortedDicts(", "dotnet.arg.empty", "{}"},
			{"Calls.SortedDicts(", "dotnet.arg.one", `{"only": 4}`},
			{"Calls.SortedDicts(", "dotnet.arg.many", `{"k00": 0, "k01": 1, "k02": 2, "k03": 3, "k04": 4, "k05": 5, "k06": 6, "k07": 7, "k08": 8, "k09": 9, "k10": 10, "k11": 11, "k12": 12, "k13": 13, "k14": 14, "k15": 15, …}(20)`},
			{"Calls.SortedDicts(", "dotnet.arg.many.count", int64(20)},
			{"Calls.SortedDicts(", "dotnet.arg.removed", `{"apple": 5, "kiwi": 4, "pear": 4}`},
			{"Calls.SortedDicts(", "dotnet.arg.removed.count", int64(3)},
			// Values as deep as a Dictionary's: the tree inside is no level.
			{"Calls.SortedDicts(", "dotnet.arg.cats", `{"tom": Acme.Types.Cat{Name="Tom"}}`},
			{"Calls.Immutables(", "dotnet.arg.empty", "[]"},
			{"Calls.Immutables(", "dotnet.arg.empty.count", int64(0)},
			{"Calls.Immutables(", "dotnet.arg.one", "[0]"},
			{"Calls.Immutables(", "dotnet.arg.many", "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, …](20)"},
			{"Calls.Immutables(", "dotnet.arg.many.count", int64(20)},
			{"Calls.Immutables(", "dotnet.arg.removed", "[0, 2, 4, 5]"},
			{"Calls.Immutables(", "dotnet.arg.removed.count", int64(4)},
			{"Calls.Immutables(", "dotnet.arg.array", "[0, 1, 2]"},
			{"Calls.Immutables(", "dotnet.arg.array.count", int64(3)},
			// Int32 keys below the bucket count sit in their own buckets, in order.
			{"Calls.ConcurrentInts(", "dotnet.arg.one", "{0: 0}"},
			{"Calls.ConcurrentInts(", "dotnet.arg.many", "{0: 0, 1: 10, 2: 20, 3: 30, 4: 40, 5: 50, 6: 60, 7: 70, 8: 80, 9: 90, 10: 100, 11: 110, 12: 120, 13: 130, 14: 140, 15: 150, …}(20)"},
			{"Calls.ConcurrentInts(", "dotnet.arg.many.count", int64(20)},
			{"Calls.ConcurrentInts(", "dotnet.arg.removed", "{0: 0, 2: 20, 5: 50}"},
			{"Calls.ConcurrentInts(", "dotnet.arg.removed.count", int64(3)},
			{"Calls.ConcurrentInts(", "dotnet.arg.cats", `{"tom": Acme.Types.Cat{Name="Tom"}}`},
			{"Calls.Concurrent(", "dotnet.arg.three.count", int64(3)},
			{"Calls.Misc(", "dotnet.arg.tuple", `(1, "a")`},
			{"Calls.Misc(", "dotnet.arg.kv", `["k"]=3`},
			{"Calls.Misc(", "dotnet.arg.kv.key", "k"},
			{"Calls.Misc(", "dotnet.arg.kv.value", int64(3)},
			{"Calls.Misc(", "dotnet.arg.none", "None"},
			{"Calls.Misc(", "dotnet.arg.live.requested", false},
			{"Calls.Misc(", "dotnet.arg.canceled.requested", true},
			{"Calls.Misc(", "dotnet.arg.made", int64(42)},
			{"Calls.Misc(", "dotnet.arg.notMade", "<not created>"},
			{"Calls.Misc(", "dotnet.arg.error", "System.InvalidOperationException: bad state"},
			{"Calls.Misc(", "dotnet.arg.enc", "utf-8"},
			{"Calls.Misc(", "dotnet.arg.type", "typeof(Acme.Types.Customer)"},
			{"Calls.Misc(", "dotnet.arg.done", "RanToCompletion: 5"},
			{"Calls.Payments(", "dotnet.arg.note", "***"},
			{"Calls.Payments(", "dotnet.arg.note.redacted", "pan"},
			{"Calls.Payments(", "dotnet.arg.plain", "order 1234567890123"},
			{"Calls.Payments(", "dotnet.arg.customer", `Acme.Types.Customer{Name="Ada", Reference=***, CardNumber=***}`},
			{"Calls.Payments(", "dotnet.arg.customer.Reference.redacted", "pan"},
			{"Calls.Payments(", "dotnet.arg.notes", `[***, "ok"]`},
			{"Calls.Flags(", "dotnet.arg.both", "Read, Write"},
			{"Calls.Flags(", "dotnet.arg.one", "Execute"},
			{"Calls.Flags(", "dotnet.arg.odd", "8"},
			{"Calls.Delegates(", "dotnet.arg.lambda", "System.Func<Int32>(Acme.Types.Program.Main()::lambda#5())"},
			{"Calls.Delegates(", "dotnet.arg.bound", "System.Func<Int32, Int32>(Acme.Types.Service.Count(Int32 extra), target Acme.Types.Service)"},
			{"Calls.Delegates(", "dotnet.arg.bound.method", "Acme.Types.Service.Count(Int32 extra)"},
			{"Calls.Delegates(", "dotnet.arg.multi", "System.Action(2 handlers)"},
			{"Calls.Delegates(", "dotnet.arg.discount", "System.Func<System.Decimal, System.Decimal>(Acme.Types.Pricing.Discount(System.Decimal price))"},
			{"Calls.Locals(", "dotnet.arg.winter", "2026-11-23T09:00:00.0000000+01:00"},
			{"Calls.Locals(", "dotnet.arg.winter.kind", "Local"},
			{"Calls.Locals(", "dotnet.arg.summer", "2026-07-01T09:00:00.0000000+02:00"},
			// `this`: a service's own fields; its collections as their count.
			{"Service.Count(", "dotnet.this", `Acme.Types.Service{stock=[40], log=[1], gate=Object{…}, Name="svc", prices=[2], seen=[1]}`},
			{"Service.Count(", "dotnet.this.stock", nil}, // the count is in dotnet.this
		}
		for _, tt := range tests {
			if got := latest(t, r.Spans, tt.span)[tt.key]; got != tt.want {
				t.Errorf("%s %s = %#v, want %#v", tt.span, tt.key, got, tt.want)
			}
		}
		// A delegate to a method never called: .NET 7+'s precode names its
		// method; 3.1's (a call into the prestub) does not, and the
		// delegate shows as static.
		never := "System.Func<Int32, Int32>(Acme.Types.Pricing.Never(Int32 x))"
		if rt.Name == "net3.1" {
			never = "System.Func<Int32, Int32>(static)"
		}
		if got := latest(t, r.Spans, "Calls.Delegates(")["dotnet.arg.never"]; got != never {
			t.Errorf("never = %#v, want %q", got, never)
		}
		// String keys hash randomly per process: the entries in any order.
		three, _ := latest(t, r.Spans, "Calls.Concurrent(")["dotnet.arg.three"].(string)
		for _, e := range []string{`"c0": 0`, `"c1": 1`, `"c2": 2`} {
			if !strings.HasPrefix(three, "{") || !strings.HasSuffix(three, "}") || !strings.Contains(three, e) || len(three) != len(`{"c0": 0, "c1": 1, "c2": 2}`) {
				t.Errorf("Concurrent three = %q", three)
				break
			}
		}
		// A constructor's `this` on entry (all defaults) is not shown.
		if this, ok := latest(t, r.Spans, "Service..ctor(")["dotnet.this"]; ok {
			t.Errorf("constructor this shown: %v", this)
		}
		// A nested type of a generic type carries the arguments on the
		// type that declares them.
		for _, want := range []string{
			"Types.exe!Acme.Types.Cage<Acme.Types.Cat>.Door.Open(Int32 code)",
			"Types.exe!Acme.Types.Calls.Nested(Acme.Types.Cage<Acme.Types.Cat>.Door door)",
		} {
			if len(byName(r.Spans, want)) == 0 {
				t.Errorf("no span %q in:\n%s", want, strings.Join(spanNames(r.Spans), "\n"))
			}
		}
		if got := latest(t, r.Spans, "Door.Open(")["code.function.name"]; got != "Acme.Types.Cage<Acme.Types.Cat>.Door.Open" {
			t.Errorf("code.function.name = %v", got)
		}
		stack := ""
		for _, s := range r.Spans {
			for _, e := range s.Events {
				if st, ok := e.Attrs["exception.stacktrace"].(string); ok && strings.Contains(s.Name, "Door.Open(") {
					stack = st
				}
			}
		}
		if !strings.Contains(stack, "at Acme.Types.Cage<Acme.Types.Cat>.Door.Open(Int32 code)") {
			t.Errorf("Door.Open's exception stack:\n%s", stack)
		}
		dates := latest(t, r.Spans, "Calls.Dates(")
		if rt.Name == "net3.1" {
			if dates["dotnet.arg.day.null"] != true {
				t.Errorf("3.1 has no DateOnly: day = %v", dates["dotnet.arg.day"])
			}
		} else if dates["dotnet.arg.day"] != "2026-11-23" || dates["dotnet.arg.time"] != "09:30:15.0000000" {
			t.Errorf("DateOnly %v, TimeOnly %v", dates["dotnet.arg.day"], dates["dotnet.arg.time"])
		}
		// An exception message holding a card number is hidden too.
		hidden := false
		for _, s := range r.Spans {
			for _, e := range s.Events {
				if strings.Contains(s.Name, "Calls.Decline(") && e.Attrs["exception.message"] == values.TextRedacted {
					hidden = true
				}
			}
		}
		if !hidden {
			t.Error("Decline's exception message not hidden")
		}
		noCardNumbers(t, r.Spans)
	})
}

// TestTypeRenderingsPANOff: CLROTEL_REDACT_PAN=off exports strings as they
// are (names still redact: CardNumber stays hidden).
func TestTypeRenderingsPANOff(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		r := runApp(t, rt, "Types", nil, runOpts{profiler: true, env: map[string]string{"CLROTEL_REDACT_PAN": "off", "CLROTEL_MAX_VALUE_SPANS_PER_TRACE": "0"}})
		if r.ExitCode != 0 {
			t.Fatalf("exit %d\n%s", r.ExitCode, r.Stderr)
		}
		a := latest(t, r.Spans, "Calls.Payments(")
		if a["dotnet.arg.note"] != "paid with 4111 1111 1111 1111 today" {
			t.Errorf("note = %#v", a["dotnet.arg.note"])
		}
		if c, _ := a["dotnet.arg.customer"].(string); !strings.Contains(c, "CardNumber=***") {
			t.Errorf("customer = %q", c)
		}
	})
}

// TestShopDemo: the example app's spans carry no card number anywhere, and
// a service's `this` shows its own state, its dictionaries as their count.
func TestShopDemo(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		r := runApp(t, rt, "Shop", nil, runOpts{profiler: true})
		if r.ExitCode != 0 || !strings.Contains(r.Stdout, "declined: card declined for Bob") {
			t.Fatalf("exit %d, stdout %q\n%s", r.ExitCode, r.Stdout, r.Stderr)
		}
		noCardNumbers(t, r.Spans)
		for _, s := range r.Spans {
			for k, v := range s.Attrs {
				if text := fmt.Sprint(v); strings.Contains(text, "_buckets") || strings.Contains(text, "_entries") || strings.Contains(text, "_comparer") {
					t.Errorf("framework internals in %s %s=%q", s.Name, k, text)
				}
			}
		}
		want := `Acme.Shop.OrderService{catalog=Acme.Shop.Catalog{items=[3]}, inventory=Acme.Shop.Inventory{stock=[3]}, payments=Acme.Shop.PaymentGateway{}}`
		if got := latest(t, r.Spans, "OrderService.PlaceOrder(")["dotnet.this"]; got != want {
			t.Errorf("PlaceOrder this = %v, want %s", got, want)
		}
		if got, _ := latest(t, r.Spans, "Pricing.Total(")["dotnet.arg.lines"].(string); !strings.HasPrefix(got, `[[Acme.Shop.Item{Sku="PAD"`) {
			t.Errorf("Total lines = %q", got)
		}
	})
}
