package otelbridge

import (
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

// KeyActivity marks a span clrotel exported for a System.Diagnostics.Activity
// that nothing else in the app exports (the caller's context the app
// joined): its value is the Activity's OperationName.
const KeyActivity = attribute.Key("dotnet.activity.operation_name")

// JoinParent makes the thread's innermost span, a root just entered, a
// child of parent, a span of another process or of an Activity: its trace
// id is the one Enter was given. It reports false when the innermost span
// is no root or parent is invalid.
func (b *Bridge) JoinParent(t *Thread, parent trace.SpanID) bool {
	f := t.innermostRoot()
	if f == nil || !parent.IsValid() {
		return false
	}
	f.parent = parent
	return true
}

// LinkRoot gives the thread's innermost span, a root just entered, a span
// link to the span id of trace tid: work queued with the caller's flow
// suppressed, or a unit of work begun under a serving frame, which starts a
// trace of its own. It reports false when the innermost span is no root or
// the ids are invalid.
func (b *Bridge) LinkRoot(t *Thread, tid trace.TraceID, id trace.SpanID) bool {
	f := t.innermostRoot()
	if f == nil || !tid.IsValid() || !id.IsValid() {
		return false
	}
	f.link = &spanLink{traceID: tid, spanID: id}
	if len(t.held) > 0 && t.linkedToOutermost(id) {
		b.reroot(t)
	}
	return true
}

func (t *Thread) innermostRoot() *frame {
	n := len(t.stack)
	if n == 0 || !t.stack[n-1].root || t.stack[n-1].pseudo {
		return nil
	}
	return &t.stack[n-1]
}

// spanLink is a span's link to a span of another trace.
type spanLink struct {
	traceID trace.TraceID
	spanID  trace.SpanID
}

// Activity is a span clrotel exports for an Activity.
type Activity struct {
	TraceID    trace.TraceID
	SpanID     trace.SpanID
	Parent     trace.SpanID // invalid: none
	Name       string
	Start, End int64 // unix ns
}

// ExportActivity exports a finished span for an Activity.
// on is the thread that stopped it (its thread.id).
func (b *Bridge) ExportActivity(on *Thread, a Activity) {
	name := a.Name
	if name == "" {
		name = "Activity"
	}
	m := &Method{SpanName: name, Attrs: []attribute.KeyValue{KeyActivity.String(a.Name)}}
	t := &Thread{tidAttr: on.tidAttr}
	f := &frame{method: m, start: a.Start, traceID: a.TraceID, spanID: a.SpanID, parent: a.Parent}
	t.stack = append(t.stack, *f)
	b.finish(t, &t.stack[0], &ending{end: a.End})
}
