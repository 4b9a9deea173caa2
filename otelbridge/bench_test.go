package otelbridge

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// marshalClient costs what the gRPC client's marshalling costs, without the
// network.
type marshalClient struct{}

func (marshalClient) Start(context.Context) error { return nil }
func (marshalClient) Stop(context.Context) error  { return nil }
func (marshalClient) UploadTraces(_ context.Context, rs []*tracepb.ResourceSpans) error {
	_, err := proto.Marshal(rs[0])
	return err
}

// BenchmarkEnterExit is the Go side's cost per span, encoding and batching
// included, without the network.
func BenchmarkEnterExit(b *testing.B) {
	pipe, err := NewPipeline(context.Background(), ExportOptions{Client: marshalClient{}})
	if err != nil {
		b.Fatal(err)
	}
	br := New(pipe)
	m := NewMethod(MethodInfo{Module: "Bench.exe", FunctionName: "Bench.Work.TwoInts", Params: "Int32 a, Int32 b", ReturnType: "Int32"})
	th := NewThread(1)
	attrs := []attribute.KeyValue{attribute.Int64("dotnet.arg.a", 1), attribute.Int64("dotnet.arg.b", 2)}
	ret := []attribute.KeyValue{attribute.Int64("dotnet.return", 3)}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		br.Enter(th, int64(i), m, trace.TraceID{1}, attrs...)
		br.Exit(th, int64(i)+10, ExitReturn, ret...)
	}
	pipe.Shutdown(context.Background())
}
