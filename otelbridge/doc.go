// Package otelbridge turns the calls the profiler drained from its capture
// rings into OpenTelemetry spans and exports them.
//
// It owns the per-thread stacks of open spans (a call nests under the
// caller's span on the same thread; a call with no traced caller starts a
// trace), the span contract (names, attributes, statuses), and the
// OpenTelemetry SDK pipeline: resource, ID generation, batching and the
// OTLP/gRPC exporter configured from the standard OTEL_* variables.
//
// It must not call the .NET runtime, use cgo, or run on CLR threads: it runs
// on the profiler's own goroutines, fed in record order per thread.
package otelbridge
