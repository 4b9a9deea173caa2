package otelbridge

import (
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

// KeyActivity marks a span clrotel exported for a System.Diagnostics.Activity
// that nothing else in the app exports (the caller's context the app
// joined): its value is the Activity's OperationName.
const KeyActivity = attribute.Key("dotnet.activity.operation_name")

// JoinParent makes the thread's open root span (the only open span) a child
// of parent, a span of another process or of an Activity: its trace id is
// the one Enter was given. It reports false when the thread has not exactly
// one open span or parent is invalid.
func (b *Bridge) JoinParent(t *Thread, parent trace.SpanID) bool {
	if len(t.stack) != 1 || !parent.IsValid() {
		return false
	}
	t.stack[0].parent = parent
	return true
}

// LinkRoot gives the thread's open root span (the only open span) a span
// link to the span id of trace tid: work queued with the caller's flow
// suppressed, which starts a trace of its own. It reports false when the
// thread has not exactly one open span or the ids are invalid.
func (b *Bridge) LinkRoot(t *Thread, tid trace.TraceID, id trace.SpanID) bool {
	if len(t.stack) != 1 || !tid.IsValid() || !id.IsValid() {
		return false
	}
	t.stack[0].link = &spanLink{traceID: tid, spanID: id}
	return true
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
	b.out.add(t, &t.stack[0], &ending{end: a.End})
}
