// Package otlpsink receives OpenTelemetry trace exports in-process, stores
// them, and renders them for people.
//
// A [Sink] is an OTLP/gRPC TraceService (plain text or TLS, gzip accepted)
// that keeps every span exported to it. Its [Span] values are a flat,
// test-friendly view of the received protobuf spans; [Sink.ExportJSON]
// writes what arrived as one OTLP/JSON document, and [WriteTree] prints
// spans as indented call trees. It keeps metric exports too, as flat
// [Point] values, and [Busiest] ranks methods by calls from both.
//
// The clrotel CLI's run command, the benchmarks and the end-to-end tests
// use it. It must not depend on the profiler, or on anything that needs
// cgo.
package otlpsink
