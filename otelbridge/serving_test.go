package otelbridge

import (
	"strings"
	"testing"

	"github.com/clrotel/clrotel/flows"
	"go.opentelemetry.io/otel/trace"
)

// TestServing: two worker threads' loops, in Main's trace, begin serving.
// The first's span and every span it descends from are sent at once, ended
// then: its thread's body, the async method that started the thread
// (waiting for its task) and Main on another thread. The second's parent
// has already ended (the method that started its thread): its chain is sent
// up to there, and Main is not sent twice. The third's parent (Main) was
// sent when the first began serving: its chain ends as sent when Main did,
// not after its parent as sent. Spans of the trace that are not
// ancestors (an async method in flight) end as they will, as do another
// trace's. A request begun under the loop is a root of its own, linked to
// it; the frames' later ends and the exit send nothing more.
func TestServing(t *testing.T) {
	b, pipe, c := newTestBridge(t, ExportOptions{})
	m := func(name string) *Method { return NewMethod(MethodInfo{FunctionName: name}) }
	mainT, worker, worker2, worker3, other := NewThread(1), NewThread(2), NewThread(3), NewThread(5), NewThread(4)
	svc := trace.TraceID{0x5e, 1}
	req := trace.TraceID{0x7e, 2}
	elsewhere := trace.TraceID{0xe1, 3}
	run, warm, loop := trace.SpanID{0xa1, 1}, trace.SpanID{0xa5, 1}, trace.SpanID{0x10, 1}
	endedStarter, mainID := trace.SpanID{0xc0, 1}, trace.SpanID{0x3a, 1}

	b.EnterWithID(mainT, 100, m("Main"), svc, mainID)
	b.EnterAsync(mainT, 105, m("RunAsync"), trace.TraceID{}, run)
	b.Exit(mainT, 108, ExitReturn) // its task runs as long as the service
	b.EnterAsync(mainT, 110, m("WarmAsync"), trace.TraceID{}, warm)
	b.Exit(mainT, 120, ExitReturn) // its task still runs
	b.Enter(worker, 200, m("Body"), svc)
	b.JoinParent(worker, run)
	b.EnterWithID(worker, 210, m("Loop"), trace.TraceID{}, loop)
	b.Enter(worker, 220, m("Handle"), trace.TraceID{}) // an early request, nested
	b.Exit(worker, 230, ExitReturn)
	b.Enter(worker2, 240, m("Body2"), svc)
	b.JoinParent(worker2, endedStarter)
	b.Enter(worker2, 245, m("Loop2"), trace.TraceID{})
	b.Enter(worker3, 246, m("Body3"), svc)
	b.JoinParent(worker3, mainID)
	b.Enter(worker3, 247, m("Handle3"), trace.TraceID{}) // nested, sent before the loop serves
	b.Exit(worker3, 248, ExitReturn)
	b.Enter(other, 250, m("Other"), elsewhere)

	all := []*Thread{mainT, worker, worker2, worker3, other}
	b.Serving(300, worker, all)
	b.Serving(400, worker2, all)
	b.Serving(410, worker3, all)

	b.Enter(worker, 310, m("Handle"), req)
	b.LinkRoot(worker, svc, loop)
	b.Exit(worker, 320, ExitReturn)
	b.Exit(worker, 900, ExitReturn) // the loop ends
	b.AsyncEnd(mainT, 950, warm, flows.Outcome{})
	b.AsyncEnd(mainT, 960, run, flows.Outcome{})
	b.Abandon(worker, 1000)
	b.Abandon(worker2, 1000)
	b.Abandon(worker3, 1000)
	b.Abandon(mainT, 1000)
	b.Exit(other, 1000, ExitReturn)

	type sent struct {
		end    uint64
		reason any
	}
	got := map[string][]sent{}
	spanIDs := map[string]trace.SpanID{}
	var handle3Parent trace.SpanID
	for _, s := range flushed(t, pipe, c) {
		name := strings.TrimSuffix(s.Name, "()")
		got[name] = append(got[name], sent{s.EndTimeUnixNano, attrs(s.Attributes)["clrotel.end_reason"]})
		spanIDs[name] = trace.SpanID(s.SpanId)
		// The loops' roots, each nested under what started its thread.
		for root, want := range map[string]trace.SpanID{"Body": run, "Body2": endedStarter, "Body3": mainID} {
			if name == root && (trace.TraceID(s.TraceId) != svc || trace.SpanID(s.ParentSpanId) != want || len(s.Links) != 0) {
				t.Errorf("%s: trace %x parent %x links %v, want nested under %v", root, s.TraceId, s.ParentSpanId, s.Links, want)
			}
		}
		if name == "Handle3" {
			handle3Parent = trace.SpanID(s.ParentSpanId)
		}
		if name == "Handle" && s.EndTimeUnixNano == 320 {
			if trace.TraceID(s.TraceId) != req || len(s.ParentSpanId) != 0 || len(s.Links) != 1 || trace.SpanID(s.Links[0].SpanId) != loop {
				t.Errorf("request begun under the loop: trace %x parent %x links %v", s.TraceId, s.ParentSpanId, s.Links)
			}
		}
	}
	// A call the third loop made before it served keeps it as its parent.
	if !handle3Parent.IsValid() || handle3Parent != spanIDs["Body3"] {
		t.Errorf("Handle3's parent %x, want Body3 %x", handle3Parent, spanIDs["Body3"])
	}
	want := map[string][]sent{
		"Main": {{300, EndServing}}, "RunAsync": {{300, EndServing}}, "Body": {{300, EndServing}}, "Loop": {{300, EndServing}},
		"Body2": {{400, EndServing}}, "Loop2": {{400, EndServing}}, "Body3": {{300, EndServing}}, "Handle3": {{248, nil}},
		"WarmAsync": {{950, nil}}, "Other": {{1000, nil}}, "Handle": {{230, nil}, {320, nil}},
	}
	for name, w := range want {
		if g := got[name]; len(g) != len(w) || !sameSent(g, w) {
			t.Errorf("%s sent as %v, want %v", name, g, w)
		}
	}
}

func sameSent[T comparable](a, b []T) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
