package otelbridge

import (
	"context"
	"testing"

	"github.com/clrotel/clrotel/methodmetrics"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"

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
// included, without the network; with method metrics (every span counted
// in its method's series) and without.
func BenchmarkEnterExit(b *testing.B) {
	b.Run("metrics=off", func(b *testing.B) { benchEnterExit(b, false) })
	b.Run("metrics=on", func(b *testing.B) { benchEnterExit(b, true) })
}

func benchEnterExit(b *testing.B, metrics bool) {
	pipe, err := NewPipeline(context.Background(), ExportOptions{Client: marshalClient{}})
	if err != nil {
		b.Fatal(err)
	}
	br := New(pipe)
	if metrics {
		br.SetMetrics(methodmetrics.New(methodmetrics.DefaultSettings(), "bench", instrumentation.Scope{}))
	}
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

// BenchmarkMetricsSDKHistogram is what counting a span's call would cost
// through the metric SDK's own instruments (a counter and a histogram with
// a prepared attribute set), against Series.Observe in BenchmarkEnterExit
// and BenchmarkSeriesObserve: the reason the registry aggregates itself.
func BenchmarkMetricsSDKHistogram(b *testing.B) {
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	m := mp.Meter("bench")
	c, _ := m.Int64Counter("calls")
	h, _ := m.Float64Histogram("duration")
	set := metric.WithAttributeSet(attribute.NewSet(attribute.String("span.name", "Bench.exe!Bench.Work.TwoInts(Int32 a, Int32 b)"), attribute.String("status.code", "STATUS_CODE_UNSET")))
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		c.Add(ctx, 1, set)
		h.Record(ctx, 0.001, set)
	}
}

// BenchmarkSeriesObserve is the registry's own cost per call counted.
func BenchmarkSeriesObserve(b *testing.B) {
	s := methodmetrics.New(methodmetrics.DefaultSettings(), "bench", instrumentation.Scope{}).Series("x", "X", 0)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s.Observe(int64(i&4095), false)
	}
}
