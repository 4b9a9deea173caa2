package otelbridge

import (
	"testing"
	"time"

	"github.com/clrotel/clrotel/flows"
	"github.com/clrotel/clrotel/folding"
	"go.opentelemetry.io/otel/trace"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
)

// An async span of many steps carries what was folded into all of them:
// the counts summed, each method listed once with all its calls, and the
// kickoff's own fold with them.
func TestFoldAddsUpOverSteps(t *testing.T) {
	b, pipe, c := newTestBridge(t, ExportOptions{})
	m := NewMethod(MethodInfo{FunctionName: "Acme.Enumerate"})
	mn := NewMethod(MethodInfo{FunctionName: "Acme.Enumerate.MoveNext"})
	caller, pool := NewThread(1), NewThread(2)
	tid, sid := trace.TraceID{1}, trace.SpanID{9}
	get := folding.Entry{Fn: 1, Calls: 2, Time: time.Microsecond, Name: "Acme.Get()"}
	cmp := folding.Entry{Fn: 2, Calls: 1, Time: 3 * time.Microsecond, Name: "Acme.Compare()"}
	b.EnterAsync(caller, 100, m, tid, sid)
	b.Fold(caller, folding.Span{Calls: 2, Time: time.Microsecond, Top: []folding.Entry{get}})
	b.Exit(caller, 150, ExitReturn)
	const steps = 1000
	for i := range int64(steps) {
		ts := 200 + 10*i
		b.Resume(pool, ts, mn, tid, sid)
		b.Fold(pool, folding.Span{Calls: 3, Time: 4 * time.Microsecond, Top: []folding.Entry{get, cmp}})
		b.Exit(pool, ts+5, ExitReturn)
	}
	b.Resume(pool, 20000, mn, tid, sid)
	b.AsyncEnd(pool, 20001, sid, flows.Outcome{})
	b.Exit(pool, 20002, ExitReturn)
	spans := flushed(t, pipe, c)
	var span map[string]any
	var top []string
	for _, s := range spans {
		if trace.SpanID(s.SpanId) == sid {
			span = attrs(s.Attributes)
			for _, kv := range s.Attributes {
				if kv.Key == string(folding.KeyTop) {
					for _, v := range kv.Value.Value.(*commonpb.AnyValue_ArrayValue).ArrayValue.Values {
						top = append(top, v.GetStringValue())
					}
				}
			}
		}
	}
	if span == nil {
		t.Fatalf("no async span in %d spans", len(spans))
	}
	if n := span[string(folding.KeyCount)]; n != int64(2+3*steps) {
		t.Errorf("folded count %v, want %d", n, 2+3*steps)
	}
	if ns := span[string(folding.KeyNs)]; ns != int64((1+4*steps)*time.Microsecond) {
		t.Errorf("folded ns %v", ns)
	}
	want := []string{"Acme.Compare() ×1000 3ms", "Acme.Get() ×2002 1.001ms"}
	if len(top) != len(want) || top[0] != want[0] || top[1] != want[1] {
		t.Errorf("top %q, want %q", top, want)
	}
}
