package otelbridge

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"

	"github.com/clrotel/clrotel/folding"
	"github.com/clrotel/clrotel/methodmetrics"
	"github.com/clrotel/clrotel/serving"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/protobuf/encoding/protowire"
)

// ExitKind says how a traced frame ended.
type ExitKind int

const (
	ExitReturn   ExitKind = iota // Leave hook
	ExitTailcall                 // left by a tail call
	ExitUnwind                   // popped by an exception
	ExitAbandon                  // still open when its thread or the process ended
	ExitNoLeave                  // closed because a frame below it left first
)

func (k ExitKind) String() string {
	switch k {
	case ExitReturn:
		return "return"
	case ExitTailcall:
		return "tailcall"
	case ExitUnwind:
		return "exception"
	case ExitAbandon:
		return "abandoned"
	case ExitNoLeave:
		return "no_leave"
	}
	return fmt.Sprintf("ExitKind(%d)", int(k))
}

// Bridge builds spans from call records and hands each finished span, once
// encoded, to its Pipeline. Its methods must be called from one goroutine
// at a time per Thread; different Threads are independent.
type Bridge struct {
	out *Pipeline
	// minDuration: finished non-root spans that returned normally faster
	// than this are not exported, their parent counting them.
	minDuration atomic.Int64 // set live by a configuration reload
	// droppedCalls is the capture's count of calls not recorded so far; root
	// spans carry it once it is non-zero.
	droppedCalls atomic.Uint64

	// Async spans waiting for their task, or task ends waiting for their
	// span (async.go); shared by every Thread.
	asyncMu       sync.Mutex
	async         map[trace.SpanID]*asyncState
	asyncLimit    int
	asyncOverflow atomic.Uint64

	// foldedAfterSent: calls folded into spans sent while open (Serving),
	// after they were sent: counted, on no span.
	foldedAfterSent atomic.Uint64

	// metrics counts each method's calls as its spans end (nil: off).
	metrics *methodmetrics.Registry

	// serving: the rule the hooks apply, which bounds what a thread's
	// outermost frame holds of its first calls (firstcalls.go).
	serving serving.Rule
}

// SetMetrics has every call that made a span counted in r, per method,
// as its span ends (or is left out as too short). Call before the first
// span.
func (b *Bridge) SetMetrics(r *methodmetrics.Registry) { b.metrics = r }

// finish hands a finished span to the pipeline and counts it in its
// method's metrics. A span sent while still open (a serving frame) has not
// ended: it is not counted.
func (b *Bridge) finish(t *Thread, f *frame, e *ending) {
	b.count(f, e)
	b.renderFold(f, e)
	b.out.add(t, f, e)
}

// count counts f, ended with e, in its method's metrics, unless it was
// sent while still open.
func (b *Bridge) count(f *frame, e *ending) {
	if b.metrics != nil && e.reason != EndServing {
		b.observe(f.method, e.end-f.start, e.failed)
	}
}

// NoteFolded tells the method metrics that calls were folded (the hooks
// keep their totals, read at each collection): from now on there is
// something to export.
func (b *Bridge) NoteFolded() {
	if b.metrics != nil {
		b.metrics.Activate()
	}
}

// observe counts one call of m of ns nanoseconds in its metrics.
func (b *Bridge) observe(m *Method, ns int64, failed bool) {
	if m == nil || m.Function == "" {
		return
	}
	m.MetricSeries(b.metrics).Observe(ns, failed)
}

// New returns a Bridge whose spans go to out.
func New(out *Pipeline) *Bridge {
	return &Bridge{out: out}
}

// SetMinDuration sets the minimum duration (ns) of the spans kept; 0 keeps all.
func (b *Bridge) SetMinDuration(ns int64) { b.minDuration.Store(ns) }

// SetDroppedCalls records how many calls the capture dropped so far (full
// buffers, no thread slot); root spans started from now on report it.
func (b *Bridge) SetDroppedCalls(n uint64) { b.droppedCalls.Store(n) }

// Thread is one CLR thread's stack of open spans.
type Thread struct {
	tidAttr []byte // the encoded thread.id attribute
	stack   []frame
	// attrs holds the open frames' own attributes, encoded at Enter, in
	// stack order: a frame's are attrs[f.attrsAt:] up to the next frame's.
	attrs []byte

	// The exception in flight: set when thrown, cleared when caught.
	exc      *Exception
	excAttrs []attribute.KeyValue
	excSpan  trace.SpanID // the span that got the throw's event

	// The first calls of the outermost frame, held until it serves or not
	// (firstcalls.go); heldGroup: the ordinal of the latest; heldTainted:
	// it has an async span, or a span that made work, under it.
	backlog     serving.Backlog
	held        []heldSpan
	heldGroup   uint32
	heldTainted bool
}

type frame struct {
	method  *Method
	start   int64
	traceID trace.TraceID
	spanID  trace.SpanID
	parent  trace.SpanID
	attrsAt int // where its encoded attributes start in Thread.attrs
	events  events
	// fold: what the hooks folded into it, raw (fold.go).
	fold    folding.Span
	dropped int64 // children not exported as too short
	// droppedCalls: on a root, the capture's drop count when it started.
	droppedCalls uint64
	// async: an async method's span, which ends when its task completes.
	// pseudo: no span, a continuation of the span spanID (async.go).
	async, pseudo bool
	end           *asyncEnd // pseudo: the task completed in this step
	// taskEnd: an async span's shaping, deferred to its task's end
	// (AtTaskEnd).
	taskEnd TaskEnd
	link    *spanLink // a root's link (LinkRoot)
	// root: it began a trace, under open spans or none. exported: sent
	// while still open (Serving); its end sends nothing more. sentEnd: the
	// end it was sent with.
	root, exported bool
	sentEnd        int64
	// held: one of the first calls of its thread's outermost frame, or
	// under one, whose span waits for that frame's fate (firstcalls.go).
	held bool
	// status set by SetStatus, applied if the call returns.
	status     Status
	statusDesc string
}

// Status is a span status SetStatus can set.
type Status int

// The statuses SetStatus sets.
const (
	StatusUnset Status = iota
	StatusOK
	StatusError
)

// SetStatus sets the status of t's innermost span, applied when its call
// returns (a call that throws stays failed); desc describes an error.
func (b *Bridge) SetStatus(t *Thread, s Status, desc string) {
	if n := len(t.stack); n > 0 {
		t.stack[n-1].status, t.stack[n-1].statusDesc = s, desc
	}
}

// NewThread returns the span stack of the OS thread tid.
func NewThread(tid int64) *Thread {
	return &Thread{tidAttr: appendKeyValue(nil, fSpanAttrs, KeyThreadID.Int64(tid))}
}

// Depth is the number of open spans.
func (t *Thread) Depth() int { return len(t.stack) }

// Enter starts the span of a call at unix-nanosecond time ts, as a child of
// the thread's innermost open span. A call given a valid traceID, or with
// no open span on its thread, starts a trace with traceID (if valid; else a
// random one): a root, which a call under a serving frame may be.
//
// attrs are the call's own attributes (argument values); they are encoded
// at once, so the caller may reuse the slice.
func (b *Bridge) Enter(t *Thread, ts int64, m *Method, traceID trace.TraceID, attrs ...attribute.KeyValue) {
	f := frame{method: m, start: ts, spanID: newSpanID(), attrsAt: len(t.attrs)}
	t.attrs = appendKeyValues(t.attrs, fSpanAttrs, attrs)
	if n := len(t.stack); n > 0 && !traceID.IsValid() {
		f.traceID, f.parent = t.stack[n-1].traceID, t.stack[n-1].spanID
	} else {
		f.traceID, f.root = traceID, true
		if !f.traceID.IsValid() {
			f.traceID = newTraceID()
		}
		f.droppedCalls = b.droppedCalls.Load()
	}
	b.enterHeld(t, &f)
	t.stack = append(t.stack, f)
}

// Exit ends the thread's innermost open span at unix-nanosecond time ts.
// It reports false when no span is open (a record stream out of step).
// attrs are added to the span (the return value); the caller may reuse the
// slice once Exit returns.
func (b *Bridge) Exit(t *Thread, ts int64, kind ExitKind, attrs ...attribute.KeyValue) bool {
	n := len(t.stack)
	if n == 0 {
		return false
	}
	if n == 1 {
		b.releaseHeld(t) // the outermost frame ends without serving
	}
	f := &t.stack[n-1]
	if f.pseudo {
		b.exitContinuation(t, f, attrs)
		t.pop()
		return true
	}
	if f.exported {
		b.foldedAfterSent.Add(f.fold.Calls)
		if f.async {
			b.exportedAsyncReturned(f.spanID)
		}
		t.pop()
		return true
	}
	e := ending{end: ts, attrs: attrs}
	if kind == ExitReturn {
		switch f.status {
		case StatusOK:
			e.ok = true
		case StatusError:
			e.failed, e.status = true, f.statusDesc
		}
	}
	switch kind {
	case ExitUnwind:
		e.failed, e.status = true, "exception"
		if t.exc != nil {
			e.status = t.exc.Description()
			if f.spanID != t.excSpan {
				f.events.add(event{EventException, ts, t.excAttrs})
			}
		}
		e.reason = kind.String()
	case ExitTailcall, ExitAbandon, ExitNoLeave:
		e.reason = kind.String()
	}
	if f.async && kind == ExitReturn {
		b.exitAsync(t, f, &e)
	} else if md := b.minDuration.Load(); md > 0 && kind == ExitReturn && n > 1 && ts-f.start < md {
		t.stack[n-2].dropped += 1 + f.dropped
		t.stack[n-2].fold.Add(f.fold)
		if b.metrics != nil {
			b.observe(f.method, ts-f.start, false)
		}
	} else if f.held {
		b.holdSpan(t, f, &e)
	} else {
		b.finish(t, f, &e)
	}
	t.pop()
	return true
}

// pop removes the innermost frame and its encoded attributes.
func (t *Thread) pop() {
	n := len(t.stack)
	t.attrs = t.attrs[:t.stack[n-1].attrsAt]
	t.stack[n-1] = frame{}
	t.stack = t.stack[:n-1]
}

// ending is how a span ends: what Exit adds to its frame.
type ending struct {
	end    int64
	attrs  []attribute.KeyValue
	reason string // clrotel.end_reason, "" for a plain return
	failed bool
	status string // the error status description
	ok     bool   // status OK (set by SetStatus)
}

// Abandon ends every open span of t at ts, innermost first: the thread or the
// process ended while they were open.
func (b *Bridge) Abandon(t *Thread, ts int64) {
	for len(t.stack) > 0 {
		b.Exit(t, ts, ExitAbandon)
	}
}

// AbandonUnhandled ends every open span of t at ts: the exception in flight
// was not handled and ends the process. Each span is marked failed.
func (b *Bridge) AbandonUnhandled(t *Thread, ts int64) {
	if t.exc == nil {
		b.Abandon(t, ts)
		return
	}
	for n := len(t.stack); n > 0; n = len(t.stack) {
		if n == 1 {
			b.releaseHeld(t)
		}
		f := &t.stack[n-1]
		if f.pseudo || f.exported {
			t.pop()
			continue
		}
		if f.spanID != t.excSpan {
			f.events.add(event{EventException, ts, t.excAttrs})
		}
		b.finish(t, f, &ending{end: ts, reason: "unhandled_exception", failed: true, status: "unhandled " + t.exc.Description()})
		t.pop()
	}
}

// appendSpan writes the finished span f, t's innermost frame, as a Span
// message in field.
func appendSpan(b []byte, field protowire.Number, t *Thread, f *frame, e *ending) []byte {
	b, start := beginMsg(b, field)
	b = appendBytes(b, fSpanTraceID, f.traceID[:])
	b = appendBytes(b, fSpanSpanID, f.spanID[:])
	if f.parent.IsValid() {
		b = appendBytes(b, fSpanParentID, f.parent[:])
	}
	b = append(b, f.method.encoded()...) // name and the method's attributes
	kind := uint64(spanKindInternal)
	if f.method.Kind > 1 {
		kind = uint64(f.method.Kind)
	}
	b = appendVarint(b, fSpanKind, kind)
	b = appendFixed64(b, fSpanStart, uint64(f.start))
	b = appendFixed64(b, fSpanEnd, uint64(e.end))
	b = append(b, t.tidAttr...)
	b = append(b, t.attrs[f.attrsAt:]...) // f is the innermost frame
	b = appendKeyValues(b, fSpanAttrs, e.attrs)
	if e.reason != "" {
		b = appendKeyValue(b, fSpanAttrs, KeyEndReason.String(e.reason))
	}
	if f.dropped > 0 {
		b = appendKeyValue(b, fSpanAttrs, KeyDroppedShort.Int64(f.dropped))
	}
	if f.droppedCalls > 0 {
		b = appendKeyValue(b, fSpanAttrs, KeyDroppedCalls.Int64(int64(f.droppedCalls)))
	}
	for i := range f.events.list {
		ev := &f.events.list[i]
		var es int
		b, es = beginMsg(b, fSpanEvents)
		b = appendFixed64(b, fEventTime, uint64(ev.time))
		b = appendString(b, fEventName, ev.name)
		b = appendKeyValues(b, fEventAttrs, ev.attrs)
		b = endMsg(b, es)
	}
	if f.events.dropped > 0 {
		b = appendVarint(b, fSpanDroppedEvents, uint64(f.events.dropped))
	}
	if f.link != nil {
		var ls int
		b, ls = beginMsg(b, fSpanLinks)
		b = appendBytes(b, fLinkTraceID, f.link.traceID[:])
		b = appendBytes(b, fLinkSpanID, f.link.spanID[:])
		b = protowire.AppendTag(b, fLinkFlags, protowire.Fixed32Type)
		b = protowire.AppendFixed32(b, spanFlags)
		b = endMsg(b, ls)
	}
	if e.failed {
		var ss int
		b, ss = beginMsg(b, fSpanStatus)
		if e.status != "" {
			b = appendString(b, fStatusMessage, e.status)
		}
		b = appendVarint(b, fStatusCode, statusCodeError)
		b = endMsg(b, ss)
	} else if e.ok {
		var ss int
		b, ss = beginMsg(b, fSpanStatus)
		b = appendVarint(b, fStatusCode, statusCodeOK)
		b = endMsg(b, ss)
	}
	b = protowire.AppendTag(b, fSpanFlags, protowire.Fixed32Type)
	b = protowire.AppendFixed32(b, spanFlags)
	return endMsg(b, start)
}

// newTraceID returns a random valid trace id (for roots whose hook chose
// none: spans abandoned or built by tests).
func newTraceID() trace.TraceID {
	var id trace.TraceID
	for !id.IsValid() {
		binary.NativeEndian.PutUint64(id[:8], rand.Uint64())
		binary.NativeEndian.PutUint64(id[8:], rand.Uint64())
	}
	return id
}

// newSpanID returns a random non-zero span id.
func newSpanID() trace.SpanID {
	var id trace.SpanID
	for !id.IsValid() {
		binary.NativeEndian.PutUint64(id[:], rand.Uint64())
	}
	return id
}
