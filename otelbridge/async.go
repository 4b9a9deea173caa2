package otelbridge

import (
	"strings"

	"github.com/clrotel/clrotel/flows"
	"github.com/clrotel/clrotel/folding"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

// Async methods are one span each, from the call until the task completes.
// The hooks give such a span its id at the call (EnterAsync); the state
// machine's MoveNext calls, on any thread, are continuations of it
// (Resume): frames with no span of their own, under which calls nest into
// the async span; the builder's SetResult/SetException end it (AsyncEnd).
// The kickoff call usually returns first (its task is still running); its
// span then waits here, detached from its thread, for the end. Threads are
// drained independently, so the end may also be seen before the kickoff's
// exit: it waits here for it. Both tables are bounded by MaxAsyncPending.

// DefaultAsyncLimit bounds the async spans waiting for their task, and the
// task ends waiting for their span (SetAsyncLimit): past it, a span is
// exported at once with clrotel.end_reason=async_untracked, and an early
// end is dropped, both counted (AsyncOverflow).
const DefaultAsyncLimit = 1 << 16

// SetAsyncLimit sets the bound on async spans waiting for their task.
func (b *Bridge) SetAsyncLimit(n int) {
	b.asyncMu.Lock()
	b.asyncLimit = n
	b.asyncMu.Unlock()
}

// KeyReturn is the return value attribute (package values writes it).
const KeyReturn = attribute.Key("dotnet.return")

// KeyAsyncResumes counts the times an async method resumed after an await.
var KeyAsyncResumes = attribute.Key("clrotel.async.resumes")

// KeyIteratorYielded counts the elements an iterator's enumeration
// yielded (its MoveNext steps that returned true).
var KeyIteratorYielded = attribute.Key("clrotel.iterator.yielded")

type asyncState struct {
	pending *pendingSpan
	end     *asyncEnd
	// sent: the span went out while open (Serving); its task's end only
	// forgets it.
	sent    bool
	sentEnd int64 // the end it was sent with, while waiting for its task
	resumes int64
	// doneAt: an iterator's enumeration ended then (a MoveNext returned
	// false); its span ends then if no Dispose ends it first.
	doneAt    int64
	events    events               // from continuations, for the span
	stepAttrs []attribute.KeyValue // continuations' attributes, merged
	fold      folding.Span         // calls folded into continuations
}

// pendingSpan is an async method's span whose call returned: what its
// thread held for it, copied.
type pendingSpan struct {
	t Thread // tidAttr and the span's own encoded attributes
	f frame
	e ending
}

type asyncEnd struct {
	ts     int64
	attrs  []attribute.KeyValue
	failed bool
	status string
	reason string
	// For a TaskEnd: the result's array elements, and whether the result
	// is known.
	elems []attribute.KeyValue
	known bool
}

// TaskEnd shapes an async method's span when its task completes (not
// failed, not canceled): given the task's result (its dotnet.return
// attributes, the typed elements of the arrays in it, and whether it is
// known: captured, or none), it returns the attributes to add and the
// span's status. It may run on any thread's translator.
type TaskEnd func(result, elems []attribute.KeyValue, known bool) TaskShape

// TaskShape is what a TaskEnd decides.
type TaskShape struct {
	Attrs  []attribute.KeyValue
	Status Status
	Desc   string // an error's description
}

// AtTaskEnd defers fn to the end of the task of t's innermost span, when
// that is an async method's span that goes on past its call, and reports
// whether it did (if not, the span ends with its call).
func (b *Bridge) AtTaskEnd(t *Thread, fn TaskEnd) bool {
	n := len(t.stack)
	if n == 0 {
		return false
	}
	f := &t.stack[n-1]
	if !f.async || f.pseudo || f.exported {
		return false
	}
	f.taskEnd = fn
	return true
}

func (b *Bridge) asyncState(id trace.SpanID, create bool) *asyncState {
	st := b.async[id]
	if st == nil && create {
		limit := b.asyncLimit
		if limit <= 0 {
			limit = DefaultAsyncLimit
		}
		if len(b.async) >= limit {
			b.asyncOverflow.Add(1)
			return nil
		}
		st = &asyncState{}
		if b.async == nil {
			b.async = map[trace.SpanID]*asyncState{}
		}
		b.async[id] = st
	}
	return st
}

// AsyncOverflow is how many async spans or ends the bounded tables could
// not hold.
func (b *Bridge) AsyncOverflow() uint64 { return b.asyncOverflow.Load() }

// AsyncPending is how many async spans wait for their task.
func (b *Bridge) AsyncPending() int {
	b.asyncMu.Lock()
	defer b.asyncMu.Unlock()
	return len(b.async)
}

// EnterAsync starts an async method's span with the id the hook chose.
func (b *Bridge) EnterAsync(t *Thread, ts int64, m *Method, traceID trace.TraceID, spanID trace.SpanID, attrs ...attribute.KeyValue) {
	b.EnterWithID(t, ts, m, traceID, spanID, attrs...)
	f := &t.stack[len(t.stack)-1]
	f.async = true
	if f.held {
		t.heldTainted = true // its continuations carry this trace
	}
}

// EnterWithID starts a span with the id the hook chose (one that other
// threads' records may name as their parent).
func (b *Bridge) EnterWithID(t *Thread, ts int64, m *Method, traceID trace.TraceID, spanID trace.SpanID, attrs ...attribute.KeyValue) {
	b.Enter(t, ts, m, traceID, attrs...)
	if spanID.IsValid() {
		t.stack[len(t.stack)-1].spanID = spanID
	}
}

// EndsWithCall says that t's innermost span, an async method's, ends with
// its call: nothing will carry it to the task's end.
func (b *Bridge) EndsWithCall(t *Thread) {
	if n := len(t.stack); n > 0 {
		t.stack[n-1].async = false
	}
}

// Resume opens a continuation of the span spanID of trace traceID on t:
// calls until the matching Exit are its children. m is the method that
// continues it (for stack traces).
func (b *Bridge) Resume(t *Thread, ts int64, m *Method, traceID trace.TraceID, spanID trace.SpanID) {
	if n := len(t.stack); n == 0 || t.stack[n-1].spanID != spanID {
		// Not the kickoff's own first step: a resume after an await.
		b.asyncMu.Lock()
		if st := b.asyncState(spanID, true); st != nil {
			st.resumes++
		}
		b.asyncMu.Unlock()
	}
	if len(t.stack) == 0 {
		t.backlog.Close() // an async loop's resume: it serves by its resumes
	}
	t.stack = append(t.stack, frame{method: m, start: ts, traceID: traceID, spanID: spanID, attrsAt: len(t.attrs), pseudo: true})
}

// AsyncEnd ends the async span spanID at ts with the task's outcome.
func (b *Bridge) AsyncEnd(t *Thread, ts int64, spanID trace.SpanID, o flows.Outcome) {
	var status, reason string
	if (o.Failed || o.Canceled) && o.ExcMessage == "" {
		// The exception's event, recorded when it was thrown in this step,
		// has its message.
		for i := len(t.stack) - 1; i >= 0 && t.stack[i].pseudo && t.stack[i].spanID == spanID; i-- {
			for _, ev := range t.stack[i].events.list {
				for _, a := range ev.attrs {
					if a.Key == "exception.message" && ev.name == EventException {
						o.ExcMessage = a.Value.AsString()
					}
				}
			}
		}
	}
	if o.Failed {
		status = "exception"
		if o.ExcType != "" {
			status = o.ExcType
			if o.ExcMessage != "" {
				status += ": " + o.ExcMessage
			}
		}
	}
	if o.Canceled {
		reason = "canceled"
	}
	end := &asyncEnd{ts: ts, attrs: append([]attribute.KeyValue(nil), o.Attrs...), failed: o.Failed, status: status, reason: reason,
		elems: append([]attribute.KeyValue(nil), o.Elements...), known: o.Known}
	b.asyncEnd(t, spanID, end)
}

func (b *Bridge) asyncEnd(t *Thread, spanID trace.SpanID, end *asyncEnd) {
	// The end takes effect when the continuation that completed the task
	// returns: what was folded into it is known only then.
	if n := len(t.stack); n > 0 && t.stack[n-1].pseudo && t.stack[n-1].spanID == spanID {
		t.stack[n-1].end = end
		return
	}
	b.asyncMu.Lock()
	defer b.asyncMu.Unlock()
	b.endAsync(spanID, end)
}

// endAsync applies a task's end: the span is exported if its call has
// returned, else the end waits for it. asyncMu held.
func (b *Bridge) endAsync(spanID trace.SpanID, end *asyncEnd) {
	st := b.asyncState(spanID, true)
	if st == nil {
		return
	}
	if st.sent {
		delete(b.async, spanID)
		return
	}
	if st.pending != nil {
		b.finishAsync(spanID, st, end)
		return
	}
	st.end = end
}

// exitAsync handles the return of an async method's call, f being t's
// innermost frame: the span ends now if its task already completed, else it
// waits for AsyncEnd.
func (b *Bridge) exitAsync(t *Thread, f *frame, e *ending) {
	b.asyncMu.Lock()
	defer b.asyncMu.Unlock()
	st := b.asyncState(f.spanID, true)
	if st == nil {
		e.reason = "async_untracked"
		b.finish(t, f, e)
		return
	}
	ps := snapshot(t, f, e)
	st.pending = &ps
	if st.end != nil {
		b.finishAsync(f.spanID, st, st.end)
	}
}

// finishAsync exports a pending span with its task's end. asyncMu held.
func (b *Bridge) finishAsync(id trace.SpanID, st *asyncState, end *asyncEnd) {
	ps := st.pending
	delete(b.async, id)
	e := ps.e
	if end.ts > e.end {
		e.end = end.ts
	}
	if end.reason != ExitAbandon.String() {
		// The task's result replaces the rendering of the task itself.
		e.attrs = withoutReturn(e.attrs)
	}
	e.attrs = append(e.attrs, end.attrs...)
	if ps.f.taskEnd != nil && !end.failed && end.reason == "" {
		sh := ps.f.taskEnd(end.attrs, end.elems, end.known)
		e.attrs = append(e.attrs, sh.Attrs...)
		switch sh.Status {
		case StatusOK:
			e.ok = true
		case StatusError:
			e.failed, e.status = true, sh.Desc
		}
	}
	e.attrs = mergeAttrs(e.attrs, st.stepAttrs...)
	if st.resumes > 0 {
		e.attrs = append(e.attrs, KeyAsyncResumes.Int64(st.resumes))
	}
	if end.failed {
		e.failed, e.status = true, end.status
	}
	if end.reason != "" {
		e.reason = end.reason
	}
	ps.f.events.addAll(&st.events)
	ps.f.fold.Add(st.fold)
	b.finish(&ps.t, &ps.f, &e)
}

func withoutReturn(attrs []attribute.KeyValue) []attribute.KeyValue {
	out := attrs[:0:0]
	for _, a := range attrs {
		if a.Key == KeyReturn || strings.HasPrefix(string(a.Key), string(KeyReturn)+".") {
			continue
		}
		out = append(out, a)
	}
	return out
}

// mergeAttrs adds src to dst, which keeps one attribute per key however
// many continuations of a span are merged into it: under a key both have,
// integers are summed, lists joined (bounded), a flag is set if either sets
// it, and any other value is replaced by src's.
func mergeAttrs(dst []attribute.KeyValue, src ...attribute.KeyValue) []attribute.KeyValue {
next:
	for _, a := range src {
		for i := range dst {
			if dst[i].Key != a.Key {
				continue
			}
			d := &dst[i].Value
			switch {
			case d.Type() == attribute.INT64 && a.Value.Type() == attribute.INT64:
				*d = attribute.Int64Value(d.AsInt64() + a.Value.AsInt64())
			case d.Type() == attribute.STRINGSLICE && a.Value.Type() == attribute.STRINGSLICE:
				l := append(d.AsStringSlice(), a.Value.AsStringSlice()...)
				*d = attribute.StringSliceValue(l[:min(len(l), maxMergedList)])
			case d.Type() == attribute.BOOL && a.Value.Type() == attribute.BOOL:
				*d = attribute.BoolValue(d.AsBool() || a.Value.AsBool())
			default:
				*d = a.Value
			}
			continue next
		}
		dst = append(dst, a)
	}
	return dst
}

// maxMergedList bounds a list attribute merged from several continuations.
const maxMergedList = 8

// exitContinuation pops a continuation frame: its events (exceptions the
// state machine caught) and what was folded into it go to the async span,
// which ends if the task completed in it.
func (b *Bridge) exitContinuation(t *Thread, f *frame, attrs []attribute.KeyValue) {
	if len(attrs) == 0 && f.fold.Calls == 0 && f.events.empty() && f.end == nil {
		return
	}
	// Still on this thread's stack (the kickoff's first step): events go
	// to it directly.
	if !f.events.empty() {
		for i := len(t.stack) - 2; i >= 0; i-- {
			if g := &t.stack[i]; g.spanID == f.spanID && !g.pseudo {
				g.events.addAll(&f.events)
				f.events = events{}
				break
			}
		}
	}
	b.asyncMu.Lock()
	defer b.asyncMu.Unlock()
	st := b.asyncState(f.spanID, true)
	if st == nil {
		return
	}
	if st.sent {
		b.foldedAfterSent.Add(f.fold.Calls)
		if f.end != nil {
			b.endAsync(f.spanID, f.end)
		}
		return
	}
	st.stepAttrs = mergeAttrs(st.stepAttrs, attrs...)
	st.fold.Add(f.fold)
	if st.pending != nil {
		st.pending.f.events.addAll(&f.events)
	} else {
		st.events.addAll(&f.events)
	}
	if f.end != nil {
		b.endAsync(f.spanID, f.end)
	}
}

// AbandonAsync ends, at ts, every async span still waiting for its task
// (the process is ending): clrotel.end_reason=abandoned. An iterator
// whose enumeration ran to its end, never disposed, ends when it did.
func (b *Bridge) AbandonAsync(ts int64) {
	b.asyncMu.Lock()
	defer b.asyncMu.Unlock()
	for id, st := range b.async {
		switch {
		case st.pending != nil && st.doneAt != 0:
			b.finishAsync(id, st, &asyncEnd{ts: st.doneAt})
		case st.pending != nil:
			b.finishAsync(id, st, &asyncEnd{ts: ts, reason: ExitAbandon.String()})
		}
	}
	clear(b.async)
}

// IterDone says that the iterator step that is t's innermost frame (a
// continuation, or the enumeration's span its first step began) ended its
// enumeration at ts: its MoveNext returned false. The span still ends at
// its enumerator's Dispose; never disposed, it ends at ts (AbandonAsync).
func (b *Bridge) IterDone(t *Thread, ts int64) {
	n := len(t.stack)
	if n == 0 || !t.stack[n-1].pseudo && !t.stack[n-1].async {
		return
	}
	b.asyncMu.Lock()
	defer b.asyncMu.Unlock()
	if st := b.asyncState(t.stack[n-1].spanID, true); st != nil && st.doneAt == 0 {
		st.doneAt = ts
	}
}
