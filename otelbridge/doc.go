// Package otelbridge turns the calls the profiler drained from its capture
// rings into OpenTelemetry spans and exports them.
//
// It owns the per-thread stacks of open spans (a call nests under the
// caller's span on the same thread; a call with no traced caller starts a
// trace; the first calls of a thread's outermost frame wait for it to begin
// serving, firstcalls.go), the span contract (names, attributes, statuses,
// events), and the export pipeline: each finished span is encoded once,
// straight into OTLP protobuf, batched, and uploaded by the OTLP/gRPC
// client of
// go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc, which
// reads the standard OTEL_EXPORTER_OTLP_* variables and retries with
// backoff. The resource comes from the SDK's resource package
// (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES). The SDK's span and batch
// processor are not used: an SDK span per call allocates and costs many
// times the direct encoding, which would cap the spans exported per second
// (docs/architecture.md, "Spans are encoded once").
//
// Memory is bounded: at most MaxQueueSize spans wait for export, in batches
// of at most MaxBatchSize spans and MaxBatchBytes bytes; when the queue is
// full the caller waits, so the back-pressure reaches the capture rings,
// where the C hooks drop and count calls instead of waiting.
//
// It must not call the .NET runtime, use cgo, or run on CLR threads: it runs
// on the profiler's own goroutines, fed in record order per thread.
package otelbridge
