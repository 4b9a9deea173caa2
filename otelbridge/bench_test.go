package otelbridge

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

type nopExporter struct{}

func (nopExporter) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (nopExporter) Shutdown(context.Context) error                             { return nil }

// BenchmarkEnterExit is the Go side's cost per span, without the network.
func BenchmarkEnterExit(b *testing.B) {
	pipe, err := NewPipeline(context.Background(), ExportOptions{Exporter: nopExporter{}})
	if err != nil {
		b.Fatal(err)
	}
	br := New(pipe.Tracer)
	m := NewMethod(MethodInfo{Module: "Bench.exe", FunctionName: "Bench.Work.TwoInts", Params: "Int32 a, Int32 b", ReturnType: "Int32"})
	th := NewThread(1)
	attrs := []attribute.KeyValue{attribute.Int64("dotnet.arg.a", 1), attribute.Int64("dotnet.arg.b", 2)}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		br.Enter(th, int64(i), m, trace.TraceID{1}, attrs...)
		br.Exit(th, int64(i)+10, ExitReturn, attribute.Int64("dotnet.return", 3))
	}
	pipe.Shutdown(context.Background())
}
