package otelbridge

import (
	"strings"
	"testing"

	"github.com/clrotel/clrotel/flows"
	"go.opentelemetry.io/otel/trace"
)

// TestServing: a loop on a worker thread, joined to Main's trace, begins
// serving. Its span, its thread's, Main's (on another thread) and an async
// span of that trace waiting for its task are sent at once, ended then;
// a request begun under the loop is a root of its own, linked to it; the
// frames' later ends, and the exit, send nothing more; another trace's
// spans are left alone.
func TestServing(t *testing.T) {
	b, pipe, c := newTestBridge(t, ExportOptions{})
	m := func(name string) *Method { return NewMethod(MethodInfo{FunctionName: name}) }
	mainT, worker, other := NewThread(1), NewThread(2), NewThread(3)
	svc := trace.TraceID{0x5e, 1}
	req := trace.TraceID{0x7e, 2}
	elsewhere := trace.TraceID{0xe1, 3}
	loop := trace.SpanID{0x10, 1}

	b.Enter(mainT, 100, m("Acme.S.Program.Main"), svc)
	b.EnterAsync(mainT, 110, m("Acme.S.Program.WarmAsync"), trace.TraceID{}, trace.SpanID{0xa5, 1})
	b.Exit(mainT, 120, ExitReturn) // its task still runs
	b.Enter(worker, 200, m("Acme.S.Worker.Body"), svc)
	b.JoinParent(worker, mainT.stack[0].spanID)
	b.EnterWithID(worker, 210, m("Acme.S.Worker.Loop"), trace.TraceID{}, loop)
	b.Enter(worker, 220, m("Acme.S.Handler.Handle"), trace.TraceID{}) // an early request, nested
	b.Exit(worker, 230, ExitReturn)
	b.Enter(other, 250, m("Acme.S.Other.Run"), elsewhere)

	b.Serving(300, worker, []*Thread{mainT, worker, other})

	b.Enter(worker, 310, m("Acme.S.Handler.Handle"), req)
	b.LinkRoot(worker, svc, loop)
	b.Exit(worker, 320, ExitReturn)
	b.Exit(worker, 900, ExitReturn) // the loop ends
	b.AsyncEnd(mainT, 950, trace.SpanID{0xa5, 1}, flows.Outcome{})
	b.Abandon(worker, 1000)
	b.Abandon(mainT, 1000)
	b.Exit(other, 1000, ExitReturn)

	got := map[string][]uint64{} // name: end times
	for _, s := range flushed(t, pipe, c) {
		name := strings.TrimSuffix(s.Name, "()")
		got[name] = append(got[name], s.EndTimeUnixNano)
		a := attrs(s.Attributes)
		switch name {
		case "Acme.S.Program.Main", "Acme.S.Worker.Body", "Acme.S.Worker.Loop", "Acme.S.Program.WarmAsync":
			if s.EndTimeUnixNano != 300 || a["clrotel.end_reason"] != EndServing {
				t.Errorf("%s: end %d, reason %v; want sent at 300 as serving", s.Name, s.EndTimeUnixNano, a["clrotel.end_reason"])
			}
		case "Acme.S.Handler.Handle":
			if s.EndTimeUnixNano == 320 {
				if trace.TraceID(s.TraceId) != req || len(s.ParentSpanId) != 0 || len(s.Links) != 1 || trace.SpanID(s.Links[0].SpanId) != loop {
					t.Errorf("request begun under the loop: trace %x parent %x links %v", s.TraceId, s.ParentSpanId, s.Links)
				}
			} else if trace.SpanID(s.ParentSpanId) != loop {
				t.Errorf("early request: parent %x, want the loop", s.ParentSpanId)
			}
		case "Acme.S.Other.Run":
			if s.EndTimeUnixNano != 1000 || a["clrotel.end_reason"] != nil {
				t.Errorf("another trace's span: end %d, reason %v", s.EndTimeUnixNano, a["clrotel.end_reason"])
			}
		}
	}
	for name, want := range map[string]int{"Acme.S.Program.Main": 1, "Acme.S.Worker.Body": 1, "Acme.S.Worker.Loop": 1,
		"Acme.S.Program.WarmAsync": 1, "Acme.S.Handler.Handle": 2, "Acme.S.Other.Run": 1} {
		if len(got[name]) != want {
			t.Errorf("%s sent %d times (ends %v), want %d", name, len(got[name]), got[name], want)
		}
	}
}
