package otelbridge

import (
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/clrotel/clrotel/serving"
)

// A thread's outermost frame, outside any unit of work, nests its calls
// until it begins serving (profiler/serving.h). Its first calls end before
// anyone knows whether they were a service's first requests or a batch
// program's steps, so their spans are held (serving.Backlog says which and
// for how long): when the frame begins serving, each held call becomes a
// trace of its own linked to the frame, as its later calls are (reroot);
// when the frame ends first, or the backlog's window closes, they are
// exported nested, as recorded (releaseHeld).

// SetServing sets the serving rule the hooks apply, which bounds what a
// thread's outermost frame holds. Call before the first span; the zero
// rule holds nothing.
func (b *Bridge) SetServing(r serving.Rule) { b.serving = r }

// heldSpan is a finished span of one of the first calls of a thread's
// outermost frame.
type heldSpan struct {
	pendingSpan
	// group: the ordinal of the first call it is, or is under (held spans
	// end while their first call is open, and that call is the latest
	// entered). direct: the first call itself, its group's last span.
	// tainted: its subtree has an async span, or a span that made work
	// (MadeWork), whose continuations or work on other threads carry this
	// trace: it stays nested.
	group           uint32
	direct, tainted bool
}

// InUnit says that t's innermost span, a root just entered as its
// thread's outermost, is a unit of work's (a request's, joined work's): it
// never serves, so its calls are not held.
func (b *Bridge) InUnit(t *Thread) {
	if len(t.stack) == 1 {
		t.backlog.Close()
	}
}

// MadeWork says that t's innermost span, about to end, made work that
// runs elsewhere in its trace (a work item, a closure whose lambdas join
// it: capture.FlagQueued). That work's spans name a parent in this trace,
// whenever they come: a held call over it keeps its trace.
func (b *Bridge) MadeWork(t *Thread) {
	if n := len(t.stack); n > 0 && t.stack[n-1].held {
		t.heldTainted = true
	}
}

// enterHeld decides, for f, a span entered under t's open frames, whether
// it is held: a nested call of the outermost frame while its backlog is
// open, or any span under such a call.
func (b *Bridge) enterHeld(t *Thread, f *frame) {
	n := len(t.stack)
	switch {
	case n == 0:
		t.backlog = b.serving.Backlog(f.start)
	case f.root:
	case n == 1:
		if o := &t.stack[0]; o.pseudo || o.async {
			t.backlog.Close()
			return
		}
		switch t.backlog.Call(f.start) {
		case serving.Hold:
			f.held = true
			t.heldGroup++
			t.heldTainted = false
		case serving.Release:
			b.releaseHeld(t)
		}
	default:
		f.held = t.stack[n-1].held && !t.stack[n-1].pseudo
	}
}

// holdSpan holds f, t's innermost frame, a held one that ended with e, or
// exports it when the backlog has closed or is full.
func (b *Bridge) holdSpan(t *Thread, f *frame, e *ending) {
	if t.backlog.Span() != serving.Hold {
		b.releaseHeld(t)
		b.finish(t, f, e)
		return
	}
	// Counted now: the method metrics wait for no frame's fate.
	b.count(f, e)
	b.renderFold(f, e)
	h := heldSpan{pendingSpan: snapshot(t, f, e), group: t.heldGroup, direct: len(t.stack) == 2}
	h.tainted = h.direct && t.heldTainted
	t.held = append(t.held, h)
}

// releaseHeld exports what t holds nested, as it was recorded (counted
// in the metrics when it ended), and holds nothing more for its outermost
// frame.
func (b *Bridge) releaseHeld(t *Thread) {
	for i := range t.held {
		h := &t.held[i]
		b.out.add(&h.t, &h.f, &h.e)
	}
	b.dropHeld(t)
}

func (b *Bridge) dropHeld(t *Thread) {
	clear(t.held)
	t.held = t.held[:0]
	t.heldTainted, t.heldGroup = false, 0
	t.backlog.Close()
}

// ReleaseDue exports what t holds nested once its backlog's window has
// passed at now (unix ns): its outermost frame did not serve in time.
func (b *Bridge) ReleaseDue(t *Thread, now int64) {
	if t.backlog.Due(now) {
		b.releaseHeld(t)
	}
}

// reroot makes each call t's outermost frame made before it began serving
// a trace of its own, linked to the frame's span, and exports them: t's
// innermost span, a root just entered, is linked to that frame, which
// serves its calls from now on. A group whose first call left no span
// (too short: CLROTEL_MIN_DURATION) keeps its trace, as recorded.
func (b *Bridge) reroot(t *Thread) {
	o := &t.stack[0]
	link := &spanLink{traceID: o.traceID, spanID: o.spanID}
	var tid trace.TraceID // the trace of group g, invalid: kept
	g := uint32(0)
	// Backwards, so that a group's first call, its last span, comes first.
	for i := len(t.held) - 1; i >= 0; i-- {
		h := &t.held[i]
		if i == len(t.held)-1 || h.group != g {
			g, tid = h.group, trace.TraceID{}
			if h.direct && !h.tainted {
				tid = newTraceID()
				h.f.parent, h.f.root, h.f.link = trace.SpanID{}, true, link
			}
		}
		if tid.IsValid() {
			h.f.traceID = tid
		}
	}
	b.releaseHeld(t)
}

// linkedToOutermost reports whether t's innermost span, a root with link
// id, is a call its outermost frame made while serving its calls: the
// frame was sent as serving, and links this call to itself.
func (t *Thread) linkedToOutermost(id trace.SpanID) bool {
	return len(t.stack) == 2 && t.stack[0].exported && !t.stack[0].pseudo && t.stack[0].spanID == id
}

// snapshot copies what exporting t's innermost frame f with e needs, for
// later: its own encoded attributes, events and ending.
func snapshot(t *Thread, f *frame, e *ending) pendingSpan {
	ps := pendingSpan{
		t: Thread{tidAttr: t.tidAttr, attrs: append([]byte(nil), t.attrs[f.attrsAt:]...)},
		f: *f,
		e: ending{end: e.end, attrs: append([]attribute.KeyValue(nil), e.attrs...), reason: e.reason, failed: e.failed, status: e.status, ok: e.ok},
	}
	ps.f.attrsAt = 0
	ps.f.events = f.events.clone()
	return ps
}
