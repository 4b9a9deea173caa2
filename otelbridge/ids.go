package otelbridge

import (
	"context"
	"encoding/binary"
	"math/rand/v2"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

type traceIDKey struct{}

func withTraceID(ctx context.Context, id trace.TraceID) context.Context {
	return context.WithValue(ctx, traceIDKey{}, id)
}

// IDGenerator gives root spans the trace id the C hooks chose (and sampled
// on) and everything else random ids.
type IDGenerator struct{}

var _ sdktrace.IDGenerator = IDGenerator{}

// NewIDs returns the trace id carried by ctx, or a random one, and a random
// span id.
func (IDGenerator) NewIDs(ctx context.Context) (trace.TraceID, trace.SpanID) {
	tid, ok := ctx.Value(traceIDKey{}).(trace.TraceID)
	for !ok || !tid.IsValid() {
		binary.NativeEndian.PutUint64(tid[:8], rand.Uint64())
		binary.NativeEndian.PutUint64(tid[8:], rand.Uint64())
		ok = true
	}
	return tid, IDGenerator{}.NewSpanID(ctx, tid)
}

// NewSpanID returns a random non-zero span id.
func (IDGenerator) NewSpanID(context.Context, trace.TraceID) trace.SpanID {
	var sid trace.SpanID
	for !sid.IsValid() {
		binary.NativeEndian.PutUint64(sid[:], rand.Uint64())
	}
	return sid
}
