package otelbridge

import (
	"testing"

	"go.opentelemetry.io/otel/trace"
)

// A loop open as long as the process, which catches its handlers'
// exceptions, keeps MaxEvents events and counts the rest.
func TestEventsBoundedOnALongFrame(t *testing.T) {
	b, pipe, c := newTestBridge(t, ExportOptions{})
	loop := NewMethod(MethodInfo{FunctionName: "Acme.Serve"})
	handle := NewMethod(MethodInfo{FunctionName: "Acme.Handle"})
	th := NewThread(1)
	b.Enter(th, 1, loop, trace.TraceID{})
	const turns = 1000
	for i := range int64(turns) {
		ts := 10 + 10*i
		b.Enter(th, ts, handle, trace.TraceID{})
		b.Throw(th, ts+1, Exception{Type: "System.Exception", Message: "bad request"})
		b.Exit(th, ts+2, ExitUnwind)
		b.Catch(th, ts+3)
	}
	b.Exit(th, 20000, ExitReturn)
	var found bool
	for _, s := range flushed(t, pipe, c) {
		if s.StartTimeUnixNano != 1 {
			continue
		}
		found = true
		if len(s.Events) != MaxEvents || s.DroppedEventsCount != turns-MaxEvents {
			t.Errorf("loop span: %d events, %d dropped; want %d and %d", len(s.Events), s.DroppedEventsCount, MaxEvents, turns-MaxEvents)
		}
	}
	if !found {
		t.Fatal("no loop span")
	}
}

func TestEventsAdd(t *testing.T) {
	ev := func(n int) []event { return make([]event, n) }
	for _, tc := range []struct {
		name          string
		have, add     int
		addDropped    uint32
		list, dropped int
	}{
		{"room for all", 3, 4, 0, 7, 0},
		{"fills up", MaxEvents - 2, 5, 0, MaxEvents, 3},
		{"full", MaxEvents, 1, 0, MaxEvents, 1},
		{"what the other dropped counts too", 0, 2, 7, 2, 7},
	} {
		es := events{list: ev(tc.have)}
		o := events{list: ev(tc.add), dropped: tc.addDropped}
		es.addAll(&o)
		if len(es.list) != tc.list || int(es.dropped) != tc.dropped {
			t.Errorf("%s: %d events, %d dropped; want %d, %d", tc.name, len(es.list), es.dropped, tc.list, tc.dropped)
		}
	}
}
