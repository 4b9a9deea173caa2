package otelbridge

import (
	"strings"
	"testing"
	"time"

	"github.com/clrotel/clrotel/flows"
	"github.com/clrotel/clrotel/serving"
	"go.opentelemetry.io/otel/trace"
)

// TestFirstCalls: a thread's outermost frame (a loop) makes handler calls,
// each with a call under it, then meets its fate. Every span is exported
// once; the first calls become traces of their own, linked to the loop,
// only when the loop begins serving them, and stay nested under it
// otherwise.
func TestFirstCalls(t *testing.T) {
	const t0 = int64(1_000_000_000_000)
	ms := func(n int) int64 { return t0 + int64(n)*int64(time.Millisecond) }
	svc, req := trace.TraceID{0x5e, 1}, trace.TraceID{0x7e, 2}
	loopID := trace.SpanID{0x10, 1}
	cases := []struct {
		name   string
		rule   serving.Rule
		calls  int
		unit   bool // the loop is a unit of work's root
		async  int  // the handler (1-based) that starts an async method, 0 none
		short  int  // the handler too short to keep its span, its call failing
		fate   string
		own    int // first handlers each in a trace of their own
		nested int // first handlers nested under the loop
		work   int // the handler (1-based) whose Parse queued work, 0 none
	}{
		{"serves by count", serving.Default(), 31, false, 0, 0, "serves", 31, 0, 0},
		{"serves by age, few calls", serving.Default(), 3, false, 0, 0, "serves", 3, 0, 0},
		{"ends first: a batch program", serving.Default(), 5, false, 0, 0, "ends", 0, 5, 0},
		{"window passes, serves later", serving.Default(), 4, false, 0, 0, "due", 0, 4, 0},
		{"a unit of work never serves", serving.Default(), 5, true, 0, 0, "ends", 0, 5, 0},
		{"a handler with an async method stays nested", serving.Default(), 6, false, 3, 0, "serves", 5, 1, 0},
		{"rules off: nothing held", serving.Rule{}, 5, false, 0, 0, "ends", 0, 5, 0},
		{"a handler left no span: its failed call keeps its trace, the others go", serving.Default(), 5, false, 0, 2, "serves", 4, 0, 0},
		{"the thread ends", serving.Default(), 5, false, 0, 0, "abandon", 0, 5, 0},
		{"a handler whose call queued work stays nested", serving.Default(), 6, false, 0, 0, "serves", 5, 1, 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, pipe, mc := newTestBridge(t, ExportOptions{})
			b.SetServing(c.rule)
			b.SetMinDuration(3)
			m := func(name string) *Method { return NewMethod(MethodInfo{FunctionName: name}) }
			th := NewThread(7)
			b.EnterWithID(th, ms(0), m("Loop"), svc, loopID)
			if c.unit {
				b.InUnit(th)
			}
			at := ms(1)
			for i := 1; i <= c.calls; i++ {
				b.Enter(th, at, m("Handle"), trace.TraceID{})
				b.Enter(th, at+1, m("Parse"), trace.TraceID{})
				if i == c.short {
					b.Exit(th, at+2, ExitUnwind)
					b.Exit(th, at+2, ExitReturn)
					at += 10
					continue
				}
				if i == c.work {
					b.MadeWork(th) // its work, on another thread, names Parse its parent
				}
				b.Exit(th, at+4, ExitReturn)
				if i == c.async {
					b.EnterAsync(th, at+4, m("SaveAsync"), trace.TraceID{}, trace.SpanID{0xa5, byte(i)})
					b.Exit(th, at+7, ExitReturn)
				}
				b.Exit(th, at+8, ExitReturn)
				at += 10
			}
			wantSpans := 2*c.calls + 1
			if c.short > 0 {
				wantSpans--
			}
			switch c.fate {
			case "serves":
				b.Serving(ms(1000), th, nil)
				b.Enter(th, ms(1000), m("Handle"), req)
				b.LinkRoot(th, svc, loopID)
				b.Exit(th, ms(1001), ExitReturn)
				wantSpans++
				if c.async > 0 {
					b.AsyncEnd(th, ms(1002), trace.SpanID{0xa5, byte(c.async)}, flows.Outcome{})
					wantSpans++
				}
			case "ends":
				b.Exit(th, ms(500), ExitReturn)
			case "due":
				b.ReleaseDue(th, ms(2000)) // not yet: its window and as long again
				if n := len(th.held); n != 2*c.calls {
					t.Fatalf("held %d spans before the deadline, want %d", n, 2*c.calls)
				}
				b.ReleaseDue(th, ms(2050))
				b.Serving(ms(3000), th, nil)
				b.Enter(th, ms(3000), m("Handle"), req)
				b.LinkRoot(th, svc, loopID)
				b.Exit(th, ms(3001), ExitReturn)
				wantSpans++
			case "abandon":
				b.Abandon(th, ms(500))
			}
			spans := flushed(t, pipe, mc)
			if len(spans) != wantSpans {
				t.Fatalf("%d spans exported, want %d", len(spans), wantSpans)
			}
			handles := map[trace.SpanID]*struct {
				trace  trace.TraceID
				parses int
			}{}
			own, nested := 0, 0
			traces := map[trace.TraceID]bool{}
			for _, s := range spans {
				if strings.HasPrefix(s.Name, "Handle") && s.StartTimeUnixNano < uint64(ms(1000)) {
					handles[trace.SpanID(s.SpanId)] = &struct {
						trace  trace.TraceID
						parses int
					}{trace: trace.TraceID(s.TraceId)}
					switch {
					case trace.TraceID(s.TraceId) == svc && trace.SpanID(s.ParentSpanId) == loopID && len(s.Links) == 0:
						nested++
					case trace.TraceID(s.TraceId) != svc && len(s.ParentSpanId) == 0 && len(s.Links) == 1 &&
						trace.SpanID(s.Links[0].SpanId) == loopID && trace.TraceID(s.Links[0].TraceId) == svc && !traces[trace.TraceID(s.TraceId)]:
						own++
						traces[trace.TraceID(s.TraceId)] = true
					default:
						t.Errorf("first handler: trace %x parent %x links %v", s.TraceId, s.ParentSpanId, s.Links)
					}
				}
			}
			orphans := 0
			for _, s := range spans {
				if strings.HasPrefix(s.Name, "Parse") || strings.HasPrefix(s.Name, "SaveAsync") {
					h := handles[trace.SpanID(s.ParentSpanId)]
					if h == nil && trace.TraceID(s.TraceId) == svc {
						orphans++ // under the handler that left no span, as recorded
						continue
					}
					if h == nil || h.trace != trace.TraceID(s.TraceId) {
						t.Errorf("%s not under its handler in its trace", s.Name)
						continue
					}
					h.parses++
				}
			}
			if c.short > 0 != (orphans == 1) || orphans > 1 {
				t.Errorf("%d calls kept in the loop's trace under a handler that left no span", orphans)
			}
			if own != c.own || nested != c.nested {
				t.Errorf("first handlers: %d in traces of their own, %d nested; want %d, %d", own, nested, c.own, c.nested)
			}
			if len(th.held) != 0 && c.fate != "due" {
				t.Errorf("%d spans still held", len(th.held))
			}
		})
	}
}
