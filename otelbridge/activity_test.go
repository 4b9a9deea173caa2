package otelbridge

import (
	"testing"

	"go.opentelemetry.io/otel/trace"
)

func TestJoinParentAndActivity(t *testing.T) {
	b, pipe, c := newTestBridge(t, ExportOptions{})
	m := NewMethod(MethodInfo{Module: "Join.exe", FunctionName: "Acme.Join.Work.Handle"})
	th := NewThread(21)
	tid := trace.TraceID{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	act := trace.SpanID{0xa1, 2, 3, 4, 5, 6, 7, 8}
	caller := trace.SpanID{0xc1, 2, 3, 4, 5, 6, 7, 8}

	if b.JoinParent(th, act) {
		t.Fatal("joined with no open span")
	}
	b.Enter(th, 1000, m, tid)
	if b.JoinParent(th, trace.SpanID{}) {
		t.Fatal("joined an invalid parent")
	}
	if !b.JoinParent(th, act) {
		t.Fatal("the root did not join")
	}
	b.Enter(th, 1100, m, trace.TraceID{})
	if b.JoinParent(th, caller) {
		t.Fatal("a nested span joined: only a root may")
	}
	b.Exit(th, 1200, ExitReturn)
	b.Exit(th, 2000, ExitReturn)
	b.ExportActivity(th, Activity{TraceID: tid, SpanID: act, Parent: caller, Name: "Acme.Join.HandleRequest", Start: 900, End: 2100})
	b.ExportActivity(th, Activity{TraceID: tid, SpanID: trace.SpanID{9}, Start: 900, End: 2100})

	byStart := map[uint64][]byte{}
	names := map[string]bool{}
	for _, s := range flushed(t, pipe, c) {
		names[s.Name] = true
		if s.StartTimeUnixNano == 1000 {
			byStart[1000] = s.ParentSpanId
		}
		if s.Name == "Acme.Join.HandleRequest" {
			if trace.SpanID(s.SpanId) != act || trace.SpanID(s.ParentSpanId) != caller || trace.TraceID(s.TraceId) != tid || s.EndTimeUnixNano != 2100 {
				t.Errorf("Activity span %x parent %x trace %x end %d", s.SpanId, s.ParentSpanId, s.TraceId, s.EndTimeUnixNano)
			}
			a := attrs(s.Attributes)
			if a["dotnet.activity.operation_name"] != "Acme.Join.HandleRequest" || a["thread.id"] != int64(21) {
				t.Errorf("Activity span attributes %v", a)
			}
		}
	}
	if trace.SpanID(byStart[1000]) != act {
		t.Errorf("root's parent %x, want the Activity's %v", byStart[1000], act)
	}
	if !names["Activity"] {
		t.Errorf("an Activity with no name: spans %v", names)
	}
}

func TestLinkRoot(t *testing.T) {
	b, pipe, c := newTestBridge(t, ExportOptions{})
	m := NewMethod(MethodInfo{Module: "Q.exe", FunctionName: "Acme.Q.Work"})
	th := NewThread(22)
	maker := trace.TraceID{9, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	made := trace.SpanID{0xd1, 2, 3, 4, 5, 6, 7, 8}
	if b.LinkRoot(th, maker, made) {
		t.Fatal("linked with no open span")
	}
	b.Enter(th, 1000, m, trace.TraceID{1})
	if b.LinkRoot(th, trace.TraceID{}, made) || b.LinkRoot(th, maker, trace.SpanID{}) {
		t.Fatal("linked to an invalid span")
	}
	if !b.LinkRoot(th, maker, made) {
		t.Fatal("the root was not linked")
	}
	b.Enter(th, 1100, m, trace.TraceID{})
	if b.LinkRoot(th, maker, made) {
		t.Fatal("a nested span linked: only a root may")
	}
	b.Exit(th, 1200, ExitReturn)
	b.Exit(th, 2000, ExitReturn)
	links := map[uint64]int{}
	for _, s := range flushed(t, pipe, c) {
		links[s.StartTimeUnixNano] = len(s.Links)
		for _, l := range s.Links {
			if trace.TraceID(l.TraceId) != maker || trace.SpanID(l.SpanId) != made {
				t.Errorf("link to %x/%x, want %v/%v", l.TraceId, l.SpanId, maker, made)
			}
		}
	}
	if links[1000] != 1 || links[1100] != 0 {
		t.Errorf("links by span start: %v, want the root's one", links)
	}
}
