package translate

import (
	"strings"
	"sync/atomic"

	"github.com/clrotel/clrotel/ambient"
	"github.com/clrotel/clrotel/capture"
	"github.com/clrotel/clrotel/flows"
	"github.com/clrotel/clrotel/otelbridge"
	"github.com/clrotel/clrotel/shaping"
	"github.com/clrotel/clrotel/values"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

// Translator turns records into calls on its Bridge.
type Translator struct {
	Bridge  *otelbridge.Bridge
	Methods Methods
	Render  *values.Renderer
	Log     Logger
	// KeepActivity decides whether a stopped Activity of the app's is
	// exported as a span (the sampler's say); nil: none is.
	KeepActivity func(ambient.Span) bool
	// Threads lists every thread's span stack, for a serving frame's walk
	// across them (otelbridge.Bridge.Serving).
	Threads func() []*otelbridge.Thread
	// Shapes, when set, shapes the spans of the methods its no-code
	// targets select (shape.go); shapes caches the decision per method.
	Shapes  *shaping.Rules
	shapes  map[*otelbridge.Method]*shape
	matched map[*shaping.Target]bool
	// elemsAt: whether some target reads array elements, which an async
	// method's result must then carry (0 not decided, 1 no, 2 yes).
	elemsAt int8

	// roots counts the traces begun; valuesDropped the calls traced
	// without their values (the ring had no room for them).
	roots, valuesDropped uint64

	// Scratch for one record's values and attributes: the bridge encodes
	// attributes when it is handed them, so both are reused.
	vals  []values.Value
	raw   [][]byte       // the bytes each of vals was decoded from
	dec   values.Decoder // its values live until the next record's
	attrs []attribute.KeyValue
	elems []attribute.KeyValue // the record's array elements (values)
}

// Thread is what the translator keeps of one thread: its span stack and
// what the arguments of each open span took of its attribute budget.
type Thread struct {
	Spans *otelbridge.Thread
	// Salt points at the thread's span salt, which a span id is derived
	// from when its record carries none (capture.SpanID). It is read when
	// the record is translated: a thread slot changes hands (and salt)
	// only once its last owner's records are translated.
	Salt *uint64
	// argBytes[i] is what the arguments of the open span at depth i+1 took
	// of the span's attribute byte limit; its return value gets the rest.
	argBytes []int32
	// entered[i], for a shaped span at depth i+1 whose target reads the
	// arguments or instance at return, is the value attributes it began
	// with, and enteredElems[i] the elements of its arrays (buffers reused
	// by depth).
	entered, enteredElems [][]attribute.KeyValue
	// A frame's entered values and its return's, and their elements.
	scratch, scratchElems []attribute.KeyValue
}

// NewThread returns the state of the thread with OS id tid.
func NewThread(tid int64, salt *uint64) *Thread {
	return &Thread{Spans: otelbridge.NewThread(tid), Salt: salt}
}

// Roots returns how many traces have begun so far.
func (t *Translator) Roots() uint64 { return t.roots }

// ValuesDropped returns how many calls were traced without their values
// because the ring had no room for them.
func (t *Translator) ValuesDropped() uint64 { return t.valuesDropped }

// Record translates one record of th's ring.
func (t *Translator) Record(th *Thread, r capture.Record) {
	b := t.Bridge
	switch r.Kind {
	case capture.KindLeave, capture.KindTailcall, capture.KindUnwind, capture.KindNoLeave:
		if r.Flags&capture.FlagQueued != 0 {
			b.MadeWork(th.Spans)
		}
	}
	switch r.Kind {
	case capture.KindEnter:
		t.enter(th, r)
	case capture.KindLeave:
		t.leave(th, r)
	case capture.KindException:
		x, err := capture.DecodeExit(r)
		if err != nil {
			return
		}
		b.Throw(th.Spans, r.Time, t.exception(x.Values))
	case capture.KindCatch:
		b.Catch(th.Spans, r.Time)
	case capture.KindServing:
		var threads []*otelbridge.Thread
		if t.Threads != nil {
			threads = t.Threads()
		}
		b.Serving(r.Time, th.Spans, threads)
	case capture.KindActivity:
		t.activity(th, r)
	case capture.KindTailcall, capture.KindUnwind, capture.KindNoLeave:
		x, err := capture.DecodeExit(r)
		if err != nil {
			t.Log.Debugf("%v", err)
		}
		attrs := t.folded(th.Spans, r, x, nil)
		switch r.Kind {
		case capture.KindTailcall:
			b.Exit(th.Spans, r.Time, otelbridge.ExitTailcall, attrs...)
		case capture.KindNoLeave:
			b.Exit(th.Spans, r.Time, otelbridge.ExitNoLeave, attrs...)
		default:
			b.Exit(th.Spans, r.Time, otelbridge.ExitUnwind, attrs...)
		}
	}
}

// leave ends the span of a call that returned, with its return value, and
// shapes it (shapeReturn).
func (t *Translator) leave(th *Thread, r capture.Record) {
	b := t.Bridge
	var attrs []attribute.KeyValue
	x, err := capture.DecodeExit(r)
	if err != nil {
		t.Log.Debugf("%v", err)
	}
	var sh *shape
	var f Function
	fok := false
	if err == nil && (r.Flags&capture.FlagValues != 0 || t.Shapes != nil) {
		if f, fok = t.Methods.Function(x.Func); fok {
			sh = t.shapeOf(f, f.Method)
		}
	}
	if r.Flags&capture.FlagValues != 0 && err == nil && fok && f.Planned {
		budget := t.Render.Limits.MaxAttrBytes
		if depth := th.Spans.Depth(); depth > 0 && depth <= len(th.argBytes) {
			budget -= int(th.argBytes[depth-1])
		}
		attrs, _ = t.values(f.Return, x.Values, budget, sh != nil && sh.elems)
	} else {
		t.elems = t.elems[:0]
	}
	if r.Flags&capture.FlagSyncEnd != 0 {
		b.EndsWithCall(th.Spans)
	}
	if sh != nil {
		attrs = t.shapeReturn(th, sh, f, r, attrs)
	}
	attrs = t.markDropped(r, attrs)
	attrs = t.folded(th.Spans, r, x, attrs)
	// An iterator's step: an element yielded counts on the enumeration's
	// span (summed over its steps); the end of the enumeration is when its
	// span ends, should its enumerator never be disposed.
	if x.Aux&capture.ExitIterYielded != 0 {
		attrs = append(attrs, otelbridge.KeyIteratorYielded.Int64(1))
	}
	if x.Aux&capture.ExitIterDone != 0 {
		b.IterDone(th.Spans, r.Time)
	}
	b.Exit(th.Spans, r.Time, otelbridge.ExitReturn, attrs...)
}

func (t *Translator) enter(th *Thread, r capture.Record) {
	b := t.Bridge
	e, err := capture.DecodeEnter(r)
	if err != nil {
		t.Log.Debugf("%v", err)
		return
	}
	f, ok := t.Methods.Function(e.Func)
	if !ok {
		t.Log.Debugf("enter record for unknown function %d", e.Func)
		return
	}
	if r.Flags&capture.FlagResume != 0 {
		t.resume(th, r, e, f)
		return
	}
	m := f.Method
	enumeration := r.Flags&capture.FlagSpanID != 0 && f.IterStep
	switch {
	case enumeration && r.Flags&capture.FlagGeneric != 0:
		m = t.Methods.Enumeration(e.Func, e.Class)
	case enumeration:
		m = t.Methods.Enumeration(e.Func, 0)
	case r.Flags&capture.FlagGeneric != 0:
		m = t.Methods.Instantiation(e.Func, e.Class, e.TypeArgs)
	}
	var tid trace.TraceID
	if r.Flags&capture.FlagRoot != 0 {
		tid = trace.TraceID(e.TraceID)
		t.roots++
	}
	sh := t.shapeOf(f, m)
	var attrs []attribute.KeyValue
	used := 0
	t.elems = t.elems[:0]
	if e.Values != nil && f.Planned {
		attrs, used = t.values(f.Enter, e.Values, t.Render.Limits.MaxAttrBytes, sh != nil && sh.elems)
	}
	var keep, keepElems []attribute.KeyValue
	if sh != nil {
		env := callEnv{sh: sh, vals: attrs, elems: t.elems}
		m = sh.spanMethod(env)
		if sh.keep {
			keep, keepElems = attrs, t.elems
		}
		attrs = sh.attrs(attrs, false, false, env)
	}
	attrs = t.markDropped(r, attrs)
	switch {
	case r.Flags&capture.FlagSpanID != 0 && (f.AsyncKickoff || enumeration):
		b.EnterAsync(th.Spans, r.Time, m, tid, trace.SpanID(e.SpanID), attrs...)
	case r.Flags&capture.FlagSpanID != 0:
		b.EnterWithID(th.Spans, r.Time, m, tid, trace.SpanID(e.SpanID), attrs...)
	default:
		b.EnterWithID(th.Spans, r.Time, m, tid, trace.SpanID(capture.SpanID(atomic.LoadUint64(th.Salt), r.Pos)), attrs...)
	}
	if r.Flags&capture.FlagParent != 0 {
		b.JoinParent(th.Spans, trace.SpanID(e.Parent))
	}
	if r.Flags&capture.FlagLink != 0 {
		b.LinkRoot(th.Spans, trace.TraceID(e.LinkTrace), trace.SpanID(e.LinkSpan))
	}
	if r.Flags&(capture.FlagRoot|capture.FlagUnit) == capture.FlagRoot|capture.FlagUnit {
		b.InUnit(th.Spans)
	}
	th.pushArgBytes(used)
	th.keepEntered(keep, keepElems)
}

// pushArgBytes records the value bytes of the frame the bridge just
// opened, which its return value's budget is reduced by.
func (th *Thread) pushArgBytes(used int) {
	depth := th.Spans.Depth()
	outer := th.argBytes[:min(len(th.argBytes), depth-1)]
	for len(outer) < depth-1 { // out of step: the bridge has more frames
		outer = append(outer, 0)
	}
	th.argBytes = append(outer, int32(used))
}

// keepEntered keeps the value attributes of the frame the bridge just
// opened and their array elements (none: nothing to keep), for what its
// target evaluates at return.
func (th *Thread) keepEntered(vals, elems []attribute.KeyValue) {
	depth := th.Spans.Depth()
	if depth == 0 || vals == nil && elems == nil && depth > len(th.entered) {
		return
	}
	for len(th.entered) < depth {
		th.entered = append(th.entered, nil)
		th.enteredElems = append(th.enteredElems, nil)
	}
	th.entered[depth-1] = append(th.entered[depth-1][:0], vals...)
	th.enteredElems[depth-1] = append(th.enteredElems[depth-1][:0], elems...)
}

// resume handles a continuation of an async span: a MoveNext after an
// await (or its first step), or the builder call that completes the task,
// which ends the span with the task's outcome.
func (t *Translator) resume(th *Thread, r capture.Record, e capture.Enter, f Function) {
	b := t.Bridge
	sid := trace.SpanID(e.SpanID)
	if r.Flags&capture.FlagAsyncEnd != 0 {
		var args []attribute.KeyValue
		t.elems = t.elems[:0]
		if e.Values != nil && f.Planned {
			args, _ = t.values(f.Enter, e.Values, t.Render.Limits.MaxAttrBytes, t.shapesReadElements())
		}
		// The builder's SetException is the call that fails the task.
		setException := f.Method != nil && strings.Contains(f.Method.SpanName, ".SetException(")
		o := flows.AsyncOutcome(setException, args)
		// The result is known when captured, or when there is none (a
		// Task's SetResult takes no argument).
		o.Known = f.Planned && (e.Values != nil || !takesArguments(f.Enter))
		if len(t.elems) > 0 {
			o.Elements = flows.AsyncOutcome(false, t.elems).Attrs
		}
		b.AsyncEnd(th.Spans, r.Time, sid, o)
	}
	b.Resume(th.Spans, r.Time, f.Method, trace.TraceID(e.TraceID), sid)
	th.pushArgBytes(0)
	th.keepEntered(nil, nil)
}

// takesArguments reports whether slots, a method's entry values, include
// an argument (not only this).
func takesArguments(slots []values.Slot) bool {
	for _, s := range slots {
		if strings.HasPrefix(s.Key, "dotnet.arg.") {
			return true
		}
	}
	return false
}

// shapesReadElements reports whether some no-code target reads array
// elements (decided once).
func (t *Translator) shapesReadElements() bool {
	if t.elemsAt == 0 {
		t.elemsAt = 1
		if t.Shapes != nil {
			for _, tg := range t.Shapes.Targets {
				if tg.ReadsElements() {
					t.elemsAt = 2
				}
			}
		}
	}
	return t.elemsAt == 2
}

// activity exports a stopped Activity of the app's as a span, when the
// sampler keeps it.
func (t *Translator) activity(th *Thread, r capture.Record) {
	a, err := capture.DecodeActivity(r)
	if err != nil {
		t.Log.Debugf("%v", err)
		return
	}
	s, ok := ambient.FromRecord(a)
	if !ok || t.KeepActivity == nil || !t.KeepActivity(s) {
		return
	}
	start := s.Start
	if start == 0 || start > r.Time {
		start = r.Time
	}
	t.Bridge.ExportActivity(th.Spans, otelbridge.Activity{
		TraceID: trace.TraceID(s.TraceID), SpanID: trace.SpanID(s.SpanID), Parent: trace.SpanID(s.Parent),
		Name: s.Name, Start: start, End: r.Time,
	})
}
