package otelbridge

import (
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/clrotel/clrotel/folding"
)

// EndServing is clrotel.end_reason on a span sent while still open: its
// frame began serving (profiler/serving.h), so the calls under it from
// then on are traces of their own, linked to it. It ends, as exported, at
// the moment it began serving.
const EndServing = "serving"

// Serving sends, at ts, every open span of the trace of t's innermost
// span: on t, on the other threads (threads, t among them or not) and among
// the async spans waiting for their task, ending each at ts with
// clrotel.end_reason=serving. t's innermost frame began serving
// (profiler/serving.h): it lives as long as the process, and so do the
// frames it runs in (Main, a thread's body); the spans of that trace,
// whose ancestors they are (through spans that ended, as a closure's
// constructor), would otherwise wait for their parent until exit. Each
// span is sent once; its end sends nothing more.
func (b *Bridge) Serving(ts int64, t *Thread, threads []*Thread) {
	n := len(t.stack)
	if n == 0 {
		return
	}
	tid := t.stack[n-1].traceID
	b.sendOpenOf(t, tid, ts)
	for _, th := range threads {
		if th != nil && th != t {
			b.sendOpenOf(th, tid, ts)
		}
	}
	b.sendPendingAsync(tid, ts)
}

// sendOpenOf sends th's open spans of trace tid, ending them at ts.
func (b *Bridge) sendOpenOf(th *Thread, tid trace.TraceID, ts int64) {
	for i := range th.stack {
		if f := &th.stack[i]; f.traceID == tid && !f.pseudo && !f.exported {
			b.sendOpen(th, i, ts)
		}
	}
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
	b.out.add(&view, f, &ending{end: ts, reason: EndServing})
	f.exported = true
}

// sendPendingAsync sends the async spans of trace tid whose call returned
// and which wait for their task, ending them at ts.
func (b *Bridge) sendPendingAsync(tid trace.TraceID, ts int64) {
	b.asyncMu.Lock()
	defer b.asyncMu.Unlock()
	for _, st := range b.async {
		ps := st.pending
		if ps == nil || st.sent || ps.f.traceID != tid {
			continue
		}
		e := ps.e
		e.end = ts
		e.reason = EndServing
		e.attrs = mergeAttrs(withoutReturn(e.attrs), st.folded...)
		if st.resumes > 0 {
			e.attrs = append(e.attrs, KeyAsyncResumes.Int64(st.resumes))
		}
		ps.f.events = append(ps.f.events, st.events...)
		b.out.add(&ps.t, &ps.f, &e)
		st.pending, st.events, st.folded, st.sent = nil, nil, nil, true
	}
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

// countFoldedAfterSent counts the calls folded into a span that was sent
// while open, as its end reports them (attrs): no span carries them.
func (b *Bridge) countFoldedAfterSent(attrs []attribute.KeyValue) {
	for _, a := range attrs {
		if a.Key == folding.KeyCount && a.Value.Type() == attribute.INT64 && a.Value.AsInt64() > 0 {
			b.foldedAfterSent.Add(uint64(a.Value.AsInt64()))
		}
	}
}

// FoldedAfterSent is how many calls were folded into spans after they were
// sent while open (frames that began serving): counted here, on no span.
func (b *Bridge) FoldedAfterSent() uint64 { return b.foldedAfterSent.Load() }
