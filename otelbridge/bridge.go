package otelbridge

import (
	"context"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// ExitKind says how a traced frame ended.
type ExitKind int

const (
	ExitReturn   ExitKind = iota // Leave hook
	ExitTailcall                 // left by a tail call
	ExitUnwind                   // popped by an exception
	ExitAbandon                  // still open when its thread or the process ended
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
	}
	return fmt.Sprintf("ExitKind(%d)", int(k))
}

// Bridge builds spans from call records. Its methods must be called from one
// goroutine at a time per Thread; different Threads are independent.
type Bridge struct {
	tracer trace.Tracer
	// minDuration: finished non-root spans that returned normally faster
	// than this are dropped (Pipeline's filter), their parent counting them.
	minDuration int64
}

// New returns a Bridge that starts spans with tracer. The tracer's provider
// must use IDGenerator (so root spans get the trace ids the hooks chose).
func New(tracer trace.Tracer) *Bridge {
	return &Bridge{tracer: tracer}
}

// SetMinDuration sets the minimum duration (ns) of the spans kept; 0 keeps all.
func (b *Bridge) SetMinDuration(ns int64) { b.minDuration = ns }

// Thread is one CLR thread's stack of open spans.
type Thread struct {
	tid   attribute.KeyValue
	stack []frame

	// The exception in flight: set when thrown, cleared when caught.
	exc      *Exception
	excAttrs []attribute.KeyValue
	excSpan  trace.Span // the span that got the throw's event
}

type frame struct {
	span    trace.Span
	ctx     context.Context
	method  *Method
	start   int64
	dropped int64 // children dropped as too short
}

// NewThread returns the span stack of the OS thread tid.
func NewThread(tid int64) *Thread {
	return &Thread{tid: KeyThreadID.Int64(tid)}
}

// Depth is the number of open spans.
func (t *Thread) Depth() int { return len(t.stack) }

// Enter starts the span of a call at unix-nanosecond time ts, as a child of
// the thread's innermost open span. A call with no open span on its thread
// starts a trace with traceID (if valid; else a random one).
//
// attrs are the call's own attributes (argument values).
func (b *Bridge) Enter(t *Thread, ts int64, m *Method, traceID trace.TraceID, attrs ...attribute.KeyValue) {
	ctx := context.Background()
	if n := len(t.stack); n > 0 {
		ctx = t.stack[n-1].ctx
	} else if traceID.IsValid() {
		ctx = withTraceID(ctx, traceID)
	}
	ctx, span := b.tracer.Start(ctx, m.SpanName,
		trace.WithTimestamp(time.Unix(0, ts)),
		trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithAttributes(m.Attrs...),
		trace.WithAttributes(t.tid),
		trace.WithAttributes(attrs...),
	)
	t.stack = append(t.stack, frame{span: span, ctx: ctx, method: m, start: ts})
}

// Exit ends the thread's innermost open span at unix-nanosecond time ts.
// It reports false when no span is open (a record stream out of step).
// attrs are added before the span ends (the return value).
func (b *Bridge) Exit(t *Thread, ts int64, kind ExitKind, attrs ...attribute.KeyValue) bool {
	n := len(t.stack)
	if n == 0 {
		return false
	}
	f := t.stack[n-1]
	t.stack[n-1] = frame{}
	t.stack = t.stack[:n-1]
	switch kind {
	case ExitUnwind:
		if t.exc != nil {
			f.span.SetStatus(codes.Error, t.exc.Description())
			if f.span != t.excSpan {
				f.span.AddEvent(EventException, trace.WithTimestamp(time.Unix(0, ts)), trace.WithAttributes(t.excAttrs...))
			}
		} else {
			f.span.SetStatus(codes.Error, "exception")
		}
		f.span.SetAttributes(KeyEndReason.String(kind.String()))
	case ExitTailcall, ExitAbandon:
		f.span.SetAttributes(KeyEndReason.String(kind.String()))
	}
	if len(attrs) > 0 {
		f.span.SetAttributes(attrs...)
	}
	if f.dropped > 0 {
		f.span.SetAttributes(KeyDroppedShort.Int64(f.dropped))
	}
	if b.minDuration > 0 && kind == ExitReturn && n > 1 && ts-f.start < b.minDuration {
		f.span.SetAttributes(keyDrop.Bool(true))
		t.stack[n-2].dropped += 1 + f.dropped
	}
	f.span.End(trace.WithTimestamp(time.Unix(0, ts)))
	return true
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
	for len(t.stack) > 0 {
		f := t.stack[len(t.stack)-1]
		f.span.SetStatus(codes.Error, "unhandled "+t.exc.Description())
		if f.span != t.excSpan {
			f.span.AddEvent(EventException, trace.WithTimestamp(time.Unix(0, ts)), trace.WithAttributes(t.excAttrs...))
		}
		f.span.SetAttributes(KeyEndReason.String("unhandled_exception"))
		t.stack = t.stack[:len(t.stack)-1]
		f.span.End(trace.WithTimestamp(time.Unix(0, ts)))
	}
}
