package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/clrotel/clrotel/otlpsink"
)

const genericNS = "GenericAsync.exe!Acme.Generic."

// A generic repository used by four concurrent requests: Repo<T>'s async
// methods over a class (code shared by every reference-type
// instantiation) and over a struct (code of its own), a generic async
// method over two classes, two structs and a class and a struct, and a
// state machine compiled as a class in a generic class. Each request is
// exactly one trace: every async method is one span from its call until
// its task completes, the calls after its awaits nested in it, its
// return value the task's result, a faulted task its span's error. With
// values captured and without.
func TestGenericAsyncRepository(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		plain := runApp(t, rt, "GenericAsync", nil, runOpts{timeout: 120 * time.Second})
		for _, capture := range []bool{true, false} {
			env := map[string]string{"CLROTEL_EXCLUDE": "Program.Main,*..ctor", "CLROTEL_FOLD": "off"}
			if !capture {
				env["CLROTEL_CAPTURE"] = "off"
			}
			r := runApp(t, rt, "GenericAsync", nil, runOpts{profiler: true, env: env, timeout: 120 * time.Second})
			if plain.ExitCode != 0 || r.ExitCode != 0 || r.Stdout != plain.Stdout {
				t.Fatalf("capture %v: exit %d/%d, stdout %q, untraced %q\n%s", capture, r.ExitCode, plain.ExitCode, r.Stdout, plain.Stdout, r.Stderr)
			}
			checkGenericRequests(t, r.Spans, capture)
		}
	})
}

// genericAsyncCall is an async call each request makes: its span's name
// past genericNS, the synchronous call its last step makes (nested in it
// when the span lasts until the task completes), and its result.
type genericAsyncCall struct {
	name, after string
	ret         func(req int64) string // "" when the task faults
}

func genericCalls() []genericAsyncCall {
	order, point := "Repo<Acme.Generic.Order>.", "Repo<Acme.Generic.Point>."
	return []genericAsyncCall{
		{order + "SaveAsync(Int32 id, Acme.Generic.Order item)", order + "Store(Int32 id, Acme.Generic.Order item)", nil},
		{point + "SaveAsync(Int32 id, Acme.Generic.Point item)", point + "Store(Int32 id, Acme.Generic.Point item)", nil},
		{order + "GetAsync(Int32 id)", order + "Find(Int32 id)", func(req int64) string { return fmt.Sprintf("sku%d", req) }},
		{point + "GetAsync(Int32 id)", point + "Find(Int32 id)", func(req int64) string { return fmt.Sprintf("Y=%d", req*10) }},
		{"Mapper.Map<Acme.Generic.Order, String>(Acme.Generic.Order x, System.Converter<Acme.Generic.Order, String> f)",
			"Mapper.Describe(Acme.Generic.Order o)", func(req int64) string { return fmt.Sprintf("sku%d#%d", req, req) }},
		{"Mapper.Map<Acme.Generic.Point, Int32>(Acme.Generic.Point x, System.Converter<Acme.Generic.Point, Int32> f)",
			"Mapper.Sum(Acme.Generic.Point p)", func(req int64) string { return fmt.Sprint(req * 11) }},
		{"Mapper.Map<String, Int32>(String x, System.Converter<String, Int32> f)", "Mapper.Length(String s)",
			func(req int64) string { return "6" }},
		{"Cache<String>.Load(Int32 wait)", "Cache<String>.Peek()", func(req int64) string { return "names" }},
		{"Cache<Int32>.Load(Int32 wait)", "Cache<Int32>.Peek()", func(req int64) string { return "7" }},
	}
}

func checkGenericRequests(t *testing.T, spans []otlpsink.Span, capture bool) {
	t.Helper()
	ids := byID(spans)
	traces := map[string][]otlpsink.Span{}
	for _, s := range spans {
		traces[s.TraceID] = append(traces[s.TraceID], s)
		if strings.Contains(s.Name, ".MoveNext(") || strings.Contains(s.Name, "MethodBuilder") {
			t.Errorf("capture %v: a state machine step or builder call is a span: %s", capture, s.Name)
		}
	}
	handles := byName(spans, genericNS+"Handler.Handle(Int32 req)")
	if len(traces) != 4 || len(handles) != 4 {
		t.Fatalf("capture %v: %d traces, %d Handle spans; want 4 requests, one trace each\n%s", capture, len(traces), len(handles), dumpSpans(spans))
	}
	for n, h := range handles {
		req := int64(n + 1)
		if capture {
			req = h.Attrs["dotnet.arg.req"].(int64)
		}
		if h.ParentSpanID != "" {
			t.Errorf("capture %v: Handle is under %s, want it the root", capture, parentName(ids, h))
		}
		for _, s := range traces[h.TraceID] {
			root := s
			for i := 0; i < 10 && root.ParentSpanID != ""; i++ {
				root = ids[root.ParentSpanID]
			}
			if root.SpanID != h.SpanID {
				t.Errorf("capture %v: %s is not under its request's Handle", capture, s.Name)
			}
		}
		kids := children(spans, h)
		for _, want := range genericCalls() {
			var got []otlpsink.Span
			for _, c := range kids {
				if c.Name == genericNS+want.name {
					got = append(got, c)
				}
			}
			wantN := 1
			if strings.Contains(want.name, "Repo<Acme.Generic.Order>.GetAsync") {
				wantN = 2 // the second one faults: no item -req
			}
			if len(got) != wantN {
				t.Errorf("capture %v: Handle(%d) holds %d %s, want %d\n%s", capture, req, len(got), want.name, wantN, dumpSpans(traces[h.TraceID]))
				continue
			}
			for _, c := range got {
				checkGenericCall(t, spans, c, want, req, capture)
			}
		}
	}
}

func checkGenericCall(t *testing.T, spans []otlpsink.Span, c otlpsink.Span, want genericAsyncCall, req int64, capture bool) {
	t.Helper()
	if reason := c.Attrs["clrotel.end_reason"]; reason != nil {
		t.Errorf("capture %v: %s ended as %v", capture, c.Name, reason)
	}
	var after []otlpsink.Span
	for _, g := range children(spans, c) {
		if g.Name == genericNS+want.after {
			after = append(after, g)
		}
	}
	// The call after the await runs on a pool thread once the delay is
	// over: nested in the span, which ends after it.
	if len(after) != 1 || after[0].End.After(c.End) {
		t.Errorf("capture %v: %s (request %d): %d %s under it, want one ending inside it\n%s", capture, c.Name, req, len(after), want.after, dumpSpans(spans))
		return
	}
	faulted := after[0].StatusCode == "error"
	if faulted {
		// Without values the exception is not read: the span fails as
		// "exception". With them, its type; its message too once its class
		// is planned (these four requests meet it at once, first).
		if c.StatusCode != "error" || capture && !strings.Contains(c.StatusMsg, "KeyNotFoundException") ||
			strings.Contains(c.StatusMsg, ": ") && !strings.Contains(c.StatusMsg, fmt.Sprintf("no item -%d", req)) {
			t.Errorf("capture %v: %s: its task faulted, status %s %q", capture, c.Name, c.StatusCode, c.StatusMsg)
		}
		return
	}
	if c.StatusCode == "error" {
		t.Errorf("capture %v: %s failed: %q", capture, c.Name, c.StatusMsg)
	}
	ret, has := c.Attrs["dotnet.return"]
	switch {
	case !capture && has:
		t.Errorf("capture off: %s has dotnet.return %v", c.Name, ret)
	case capture && want.ret != nil && !strings.Contains(fmt.Sprint(ret), want.ret(req)):
		t.Errorf("%s (request %d) returned %v, want %q in it", c.Name, req, ret, want.ret(req))
	}
}
