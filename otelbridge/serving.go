package otelbridge

import (
	"go.opentelemetry.io/otel/trace"

	"github.com/clrotel/clrotel/folding"
)

// EndServing is clrotel.end_reason on a span sent while still open: its
// frame began serving (profiler/serving.h), so the calls under it from
// then on are traces of their own, linked to it. It ends, as exported, at
// the moment it began serving.
const EndServing = "serving"

// Serving sends, at ts, t's innermost span and every open span it
// descends from, ending each at ts with clrotel.end_reason=serving. t's
// innermost frame began serving (profiler/serving.h): it lives as long as
// the process, and so do the frames it runs in (a thread's body, Main);
// the spans of its trace would otherwise wait for their parent until exit.
// The walk goes down t's stack, then to the parent of each root it meets:
// an open frame of another thread (threads), or an async span waiting for
// its task. When a parent has already ended (the method that started a
// thread and returned), it goes on from the trace's root, on whichever
// thread holds it. Spans that are not ancestors (work of that trace in
// flight on other threads) are left to end as they will. Each span is sent
// once; its end sends nothing more.
//
// A chain whose root's parent was sent before now, open (when another
// loop of its trace began serving: the four threads a Serve() started, each
// with a lambda), ends as sent when its parent did: ending now, it would
// end after its parent as sent, which a backend shows as clock skew (a
// link in the same trace is a parent to Jaeger). A parent that ended on its
// own (a thread's starter that returned) leaves it as it is: it outlives
// that one as any queued work outlives its maker.
func (b *Bridge) Serving(ts int64, t *Thread, threads []*Thread) {
	n := len(t.stack)
	if n == 0 {
		return
	}
	tid := t.stack[n-1].traceID
	next, done := b.sendChain(t, n-1, ts, threads)
	for hops := 0; !done && hops < maxServingHops; hops++ {
		if th, i := locate(next, t, threads); th != nil {
			next, done = b.sendChain(th, i, ts, threads)
			continue
		}
		if parent, ok := b.sendPendingAsync(next, ts); ok {
			next, done = parent, !parent.IsValid()
			continue
		}
		// Ended, or of another process: the trace's root carries on.
		b.sendTraceRoot(tid, t, threads, ts)
		return
	}
}

// maxServingHops bounds the walk up a trace (its threads and async spans).
const maxServingHops = 1 << 12

// sendChain sends th's frame i and the frames below it that it descends
// from, down to a root or a continuation, and says where the walk goes on:
// the root's parent, or the async span a continuation continues. done:
// nothing more to send (a trace's first span, or one sent already). The
// chain ends at ts, or when its root's parent was sent if that was earlier
// (Serving); no frame before it began.
func (b *Bridge) sendChain(th *Thread, i int, ts int64, threads []*Thread) (next trace.SpanID, done bool) {
	end := ts
	for j := i; j >= 0; j-- {
		f := &th.stack[j]
		if f.pseudo || f.exported {
			break
		}
		if f.root || j == 0 {
			if at, ok := b.sentAt(f.parent, th, threads); ok && at < end {
				end = at
			}
			break
		}
	}
	for j := i; j >= 0; j-- {
		f := &th.stack[j]
		switch {
		case f.pseudo:
			return f.spanID, false
		case f.exported:
			return trace.SpanID{}, true
		}
		b.sendOpen(th, j, max(end, f.start))
		if f.root || j == 0 {
			return f.parent, !f.parent.IsValid()
		}
	}
	return trace.SpanID{}, true
}

// sentAt gives the end span id was sent with while open (Serving): a frame
// or an async span waiting for its task. ok is false for any other (not
// sent, or ended on its own, or none).
func (b *Bridge) sentAt(id trace.SpanID, t *Thread, threads []*Thread) (end int64, ok bool) {
	if !id.IsValid() {
		return 0, false
	}
	if th, i := locate(id, t, threads); th != nil {
		f := &th.stack[i]
		return f.sentEnd, f.exported
	}
	b.asyncMu.Lock()
	defer b.asyncMu.Unlock()
	if st := b.async[id]; st != nil && st.sent && st.sentEnd != 0 {
		return st.sentEnd, true
	}
	return 0, false
}

// sendTraceRoot sends the open root of trace tid, the first span of the
// trace (no parent), with the frames of its trace above it on its thread.
func (b *Bridge) sendTraceRoot(tid trace.TraceID, t *Thread, threads []*Thread, ts int64) {
	for _, th := range append([]*Thread{t}, threads...) {
		if th == nil {
			continue
		}
		for r := range th.stack {
			f := &th.stack[r]
			if f.traceID != tid || !f.root || f.parent.IsValid() || f.pseudo || f.exported {
				continue
			}
			top := r
			for top+1 < len(th.stack) && th.stack[top+1].traceID == tid && !th.stack[top+1].pseudo && !th.stack[top+1].root {
				top++
			}
			b.sendChain(th, top, ts, threads)
			return
		}
	}
}

// locate finds the open span id (not a continuation of it) on t or one of
// threads.
func locate(id trace.SpanID, t *Thread, threads []*Thread) (*Thread, int) {
	if i := t.find(id); i >= 0 {
		return t, i
	}
	for _, th := range threads {
		if th == nil || th == t {
			continue
		}
		if i := th.find(id); i >= 0 {
			return th, i
		}
	}
	return nil, -1
}

func (t *Thread) find(id trace.SpanID) int {
	for i := len(t.stack) - 1; i >= 0; i-- {
		if f := &t.stack[i]; f.spanID == id && !f.pseudo {
			return i
		}
	}
	return -1
}

// sendOpen sends the open frame i of th, ending it at ts.
func (b *Bridge) sendOpen(th *Thread, i int, ts int64) {
	f := &th.stack[i]
	end := len(th.attrs)
	if i+1 < len(th.stack) {
		end = th.stack[i+1].attrsAt
	}
	// The frame's own attributes run to the next frame's.
	view := Thread{tidAttr: th.tidAttr, attrs: th.attrs[:end]}
	b.finish(&view, f, &ending{end: ts, reason: EndServing})
	f.exported, f.sentEnd = true, ts
}

// sendPendingAsync sends the async span id, if its call returned and it
// waits for its task, ending it at ts, and gives its parent (none when it
// was sent already). ok is false when no such span waits.
func (b *Bridge) sendPendingAsync(id trace.SpanID, ts int64) (parent trace.SpanID, ok bool) {
	b.asyncMu.Lock()
	defer b.asyncMu.Unlock()
	st := b.async[id]
	if st == nil || st.pending == nil && !st.sent {
		return trace.SpanID{}, false
	}
	if st.sent {
		return trace.SpanID{}, true // its ancestors went with it
	}
	ps := st.pending
	e := ps.e
	e.end = ts
	e.reason = EndServing
	e.attrs = mergeAttrs(withoutReturn(e.attrs), st.stepAttrs...)
	if st.resumes > 0 {
		e.attrs = append(e.attrs, KeyAsyncResumes.Int64(st.resumes))
	}
	ps.f.events.addAll(&st.events)
	ps.f.fold.Add(st.fold)
	b.finish(&ps.t, &ps.f, &e)
	st.pending, st.events, st.stepAttrs, st.fold, st.sent, st.sentEnd = nil, events{}, nil, folding.Span{}, true, ts
	return ps.f.parent, true
}

// exportedAsyncReturned notes that the call of the async span id returned
// after its span was sent open: its task's end sends nothing.
func (b *Bridge) exportedAsyncReturned(id trace.SpanID) {
	b.asyncMu.Lock()
	defer b.asyncMu.Unlock()
	st := b.asyncState(id, true)
	if st == nil {
		return
	}
	if st.end != nil {
		delete(b.async, id)
		return
	}
	st.sent = true
}

// FoldedAfterSent is how many calls were folded into spans after they were
// sent while open (frames that began serving): counted here, on no span.
func (b *Bridge) FoldedAfterSent() uint64 { return b.foldedAfterSent.Load() }
