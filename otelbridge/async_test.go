package otelbridge

import (
	"reflect"
	"strings"
	"testing"

	"github.com/clrotel/clrotel/flows"
	"github.com/clrotel/clrotel/folding"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

func TestMergeAttrs(t *testing.T) {
	for _, tc := range []struct {
		name           string
		dst, src, want []attribute.KeyValue
	}{
		{"sums counts, joins lists, adds new keys",
			[]attribute.KeyValue{attribute.Int64("n", 2), attribute.StringSlice("top", []string{"a"})},
			[]attribute.KeyValue{attribute.Int64("n", 3), attribute.StringSlice("top", []string{"b"}), attribute.Bool("x", true)},
			[]attribute.KeyValue{attribute.Int64("n", 5), attribute.StringSlice("top", []string{"a", "b"}), attribute.Bool("x", true)}},
		{"a flag stays set",
			[]attribute.KeyValue{attribute.Bool("approx", true)},
			[]attribute.KeyValue{attribute.Bool("approx", false)},
			[]attribute.KeyValue{attribute.Bool("approx", true)}},
		{"a flag set by the later",
			[]attribute.KeyValue{attribute.Bool("approx", false)},
			[]attribute.KeyValue{attribute.Bool("approx", true)},
			[]attribute.KeyValue{attribute.Bool("approx", true)}},
		{"another type under a key both have: the later's",
			[]attribute.KeyValue{attribute.String("s", "a"), attribute.Int64("k", 1)},
			[]attribute.KeyValue{attribute.String("s", "b"), attribute.String("k", "x")},
			[]attribute.KeyValue{attribute.String("s", "b"), attribute.String("k", "x")}},
	} {
		if got := mergeAttrs(tc.dst, tc.src...); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

// What the folds of a span's many continuations merge into stays one
// attribute per key: a key repeated would grow with every step, and each
// merge would cost as much as all the steps before it.
func TestMergeAttrsManySteps(t *testing.T) {
	step := []attribute.KeyValue{attribute.Int64("clrotel.folded.count", 1), attribute.Int64("clrotel.folded.ns", 10),
		attribute.StringSlice("clrotel.folded.top", []string{"M"}), attribute.Bool("clrotel.folded.approximate", true),
		attribute.String("other", "v")}
	var acc []attribute.KeyValue
	for range 10000 {
		acc = mergeAttrs(acc, step...)
	}
	if len(acc) != len(step) {
		t.Fatalf("%d attributes after 10000 merges of %d: %v", len(acc), len(step), acc[:min(len(acc), 12)])
	}
	if n := acc[0].Value.AsInt64(); n != 10000 {
		t.Errorf("count %d, want 10000", n)
	}
}

// An async span ends when its task does, whichever of the call's return
// and the task's end the drainer sees first, and a continuation on another
// thread is its child.
func TestAsyncSpanLifecycle(t *testing.T) {
	for _, endFirst := range []bool{false, true} {
		b, pipe, c := newTestBridge(t, ExportOptions{})
		m := NewMethod(MethodInfo{FunctionName: "Acme.Handle"})
		child := NewMethod(MethodInfo{FunctionName: "Acme.Step"})
		mn := NewMethod(MethodInfo{FunctionName: "Acme.Handle.MoveNext"})
		caller, pool := NewThread(1), NewThread(2)
		tid := trace.TraceID{1}
		sid := trace.SpanID{9}
		b.EnterAsync(caller, 100, m, tid, sid, attribute.Int64("dotnet.arg.req", 1))
		resumeAndEnd := func() {
			b.Resume(pool, 300, mn, tid, sid)
			b.Enter(pool, 310, child, trace.TraceID{})
			b.Exit(pool, 320, ExitReturn)
			b.AsyncEnd(pool, 330, sid, flows.Outcome{Attrs: []attribute.KeyValue{KeyReturn.String("done")}})
			b.Fold(pool, folding.Span{Calls: 4})
			b.Exit(pool, 340, ExitReturn)
		}
		if endFirst {
			resumeAndEnd()
			b.Exit(caller, 200, ExitReturn, KeyReturn.String("Task{…}"))
		} else {
			b.Exit(caller, 200, ExitReturn, KeyReturn.String("Task{…}"))
			if len(flushed(t, pipe, c)) != 0 {
				t.Fatal("the async span ended with its call")
			}
			resumeAndEnd()
		}
		spans := flushed(t, pipe, c)
		if len(spans) != 2 {
			t.Fatalf("end first %v: %d spans", endFirst, len(spans))
		}
		step, handle := spans[0], spans[1]
		a := attrs(handle.Attributes)
		if handle.EndTimeUnixNano != 330 || a["dotnet.return"] != "done" || a["clrotel.folded.count"] != int64(4) || a["clrotel.async.resumes"] != int64(1) {
			t.Errorf("end first %v: span ends at %d with %v", endFirst, handle.EndTimeUnixNano, a)
		}
		if trace.SpanID(step.ParentSpanId) != sid || trace.TraceID(step.TraceId) != tid || trace.SpanID(handle.SpanId) != sid {
			t.Errorf("end first %v: continuation's child not under the async span", endFirst)
		}
		if b.AsyncPending() != 0 {
			t.Errorf("end first %v: %d async states left", endFirst, b.AsyncPending())
		}
	}
}

// Past the limit, an async span ends with its call, counted; the rest end
// as abandoned at exit.
func TestAsyncLimitAndAbandon(t *testing.T) {
	b, pipe, c := newTestBridge(t, ExportOptions{})
	b.SetAsyncLimit(2)
	m := NewMethod(MethodInfo{FunctionName: "Acme.Never"})
	th := NewThread(1)
	for i := 1; i <= 3; i++ {
		b.EnterAsync(th, 100, m, trace.TraceID{1}, trace.SpanID{byte(i)})
		b.Exit(th, 200, ExitReturn)
	}
	b.AbandonAsync(500)
	reasons := map[any]int{}
	for _, s := range flushed(t, pipe, c) {
		reasons[attrs(s.Attributes)["clrotel.end_reason"]]++
	}
	if reasons["abandoned"] != 2 || reasons["async_untracked"] != 1 || b.AsyncOverflow() != 1 {
		t.Errorf("end reasons %v, overflow %d", reasons, b.AsyncOverflow())
	}
}

// An iterator's enumeration: the elements its steps yielded are summed on
// its span; one that ran to its end (a MoveNext returned false) and was
// never disposed ends at that step at exit, not abandoned; one disposed
// ends at Dispose however it ran; one never run to its end is abandoned.
// An enumeration its iterator method's call did not begin (a second one)
// is begun by its first step, whose own element counts too, and whose
// false (an empty enumeration) ends it.
func TestIteratorEnumerations(t *testing.T) {
	b, pipe, c := newTestBridge(t, ExportOptions{})
	m := NewMethod(MethodInfo{FunctionName: "Acme.Count"})
	mn := NewMethod(MethodInfo{FunctionName: "Acme.Count.MoveNext"})
	th := NewThread(1)
	enumerate := func(id byte, yields int, done, dispose bool) {
		sid := trace.SpanID{id}
		b.EnterAsync(th, 100, m, trace.TraceID{1}, sid)
		b.Exit(th, 110, ExitReturn)
		ts := int64(200)
		for i := 0; i < yields; i++ {
			b.Resume(th, ts, mn, trace.TraceID{1}, sid)
			b.Exit(th, ts+5, ExitReturn, KeyIteratorYielded.Int64(1))
			ts += 10
		}
		if done {
			b.Resume(th, ts, mn, trace.TraceID{1}, sid)
			b.IterDone(th, ts+5)
			b.Exit(th, ts+5, ExitReturn)
			ts += 10
		}
		if dispose {
			b.Resume(th, ts, mn, trace.TraceID{1}, sid)
			b.AsyncEnd(th, ts+5, sid, flows.Outcome{})
			b.Exit(th, ts+5, ExitReturn)
		}
	}
	enumerate(1, 3, true, true)   // foreach to the end: ends at Dispose, 245
	enumerate(2, 2, false, true)  // broken off: ends at Dispose, 225
	enumerate(3, 4, true, false)  // by hand to the end: ends at its last step, 245
	enumerate(4, 1, false, false) // never finished: abandoned at exit
	// Begun by its first step: 300..305 yields, 310..315 yields, 320..325
	// returns false; never disposed, it ends there.
	again := func(id byte, yields int) {
		sid := trace.SpanID{id}
		ts := int64(300)
		for i := 0; i <= yields; i++ {
			if i == 0 {
				b.EnterAsync(th, ts, m, trace.TraceID{1}, sid)
			} else {
				b.Resume(th, ts, mn, trace.TraceID{1}, sid)
			}
			if i < yields {
				b.Exit(th, ts+5, ExitReturn, KeyIteratorYielded.Int64(1))
			} else {
				b.IterDone(th, ts+5)
				b.Exit(th, ts+5, ExitReturn)
			}
			ts += 10
		}
	}
	again(5, 2)
	again(6, 0)         // empty: its first step returns false
	b.IterDone(th, 999) // no continuation on the thread: nothing
	b.AbandonAsync(500)
	type end struct {
		at      uint64
		yielded any
		reason  any
	}
	want := map[byte]end{1: {245, int64(3), nil}, 2: {225, int64(2), nil}, 3: {245, int64(4), nil}, 4: {500, int64(1), "abandoned"},
		5: {325, int64(2), nil}, 6: {305, nil, nil}}
	spans := flushed(t, pipe, c)
	if len(spans) != len(want) {
		t.Fatalf("%d spans, want %d", len(spans), len(want))
	}
	for _, s := range spans {
		a := attrs(s.Attributes)
		got := end{s.EndTimeUnixNano, a["clrotel.iterator.yielded"], a["clrotel.end_reason"]}
		if w := want[s.SpanId[0]]; got != w {
			t.Errorf("enumeration %d: %+v, want %+v", s.SpanId[0], got, w)
		}
	}
}

// AtTaskEnd defers an async span's shaping to its task's end, whichever
// comes first of the call's return and the task's end: it gets the
// result, its elements and whether it is known, and its attributes and
// status are the span's. A failed, canceled or abandoned task's span is
// not shaped; a span that is not an async one's is not deferred.
func TestAtTaskEnd(t *testing.T) {
	shape := func(result, elems []attribute.KeyValue, known bool) TaskShape {
		st := StatusOK
		if len(result) == 0 || result[0].Value.AsString() != "done" || len(elems) != 1 || !known {
			st = StatusError
		}
		return TaskShape{Attrs: []attribute.KeyValue{attribute.Int("shaped", len(result))}, Status: st, Desc: "not done"}
	}
	ok := flows.Outcome{Attrs: []attribute.KeyValue{KeyReturn.String("done")}, Known: true,
		Elements: []attribute.KeyValue{KeyReturn.StringSlice([]string{"d"})}}
	for _, tc := range []struct {
		name       string
		o          flows.Outcome
		endFirst   bool
		wantStatus string
		wantShaped bool
	}{
		{"completed after the call", ok, false, "Ok", true},
		{"completed first", ok, true, "Ok", true},
		{"result unknown", flows.Outcome{}, false, "Error", true},
		{"failed", flows.Outcome{Failed: true, ExcType: "System.Exception"}, false, "Error", false},
		{"canceled", flows.Outcome{Canceled: true}, false, "Unset", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, pipe, c := newTestBridge(t, ExportOptions{})
			th := NewThread(1)
			sid := trace.SpanID{9}
			b.EnterAsync(th, 100, NewMethod(MethodInfo{FunctionName: "Acme.Handle"}), trace.TraceID{1}, sid)
			if tc.endFirst {
				b.AsyncEnd(th, 150, sid, tc.o)
			}
			if !b.AtTaskEnd(th, shape) {
				t.Fatal("not deferred")
			}
			b.Exit(th, 200, ExitReturn)
			if !tc.endFirst {
				b.AsyncEnd(th, 300, sid, tc.o)
			}
			spans := flushed(t, pipe, c)
			if len(spans) != 1 {
				t.Fatalf("%d spans", len(spans))
			}
			s := spans[0]
			if _, shaped := attrs(s.Attributes)["shaped"]; shaped != tc.wantShaped || s.Status.GetCode().String() != "STATUS_CODE_"+strings.ToUpper(tc.wantStatus) {
				t.Errorf("shaped %v, status %v", attrs(s.Attributes), s.Status)
			}
		})
	}
	b, _, _ := newTestBridge(t, ExportOptions{})
	th := NewThread(1)
	b.Enter(th, 100, NewMethod(MethodInfo{FunctionName: "Acme.Plain"}), trace.TraceID{1})
	if b.AtTaskEnd(th, shape) {
		t.Error("a plain span's shaping deferred")
	}
	b.EnterAsync(th, 110, NewMethod(MethodInfo{FunctionName: "Acme.Handle"}), trace.TraceID{}, trace.SpanID{3})
	b.EndsWithCall(th)
	if b.AtTaskEnd(th, shape) {
		t.Error("the shaping of an async span that ends with its call deferred")
	}
}
