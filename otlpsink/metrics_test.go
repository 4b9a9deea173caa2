package otlpsink

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	"go.opentelemetry.io/otel/metric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
)

// TestSinkMetrics: a sum and a histogram exported by the OTel Go SDK's
// OTLP/gRPC metric exporter arrive as flat points; a count-only sink
// accepts metric exports too.
func TestSinkMetrics(t *testing.T) {
	for _, countOnly := range []bool{false, true} {
		var opts []Option
		if countOnly {
			opts = append(opts, WithCountOnly())
		}
		s, err := Listen("127.0.0.1:0", opts...)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		ctx := context.Background()
		exp, err := otlpmetricgrpc.New(ctx, otlpmetricgrpc.WithEndpoint(s.Addr()), otlpmetricgrpc.WithInsecure())
		if err != nil {
			t.Fatal(err)
		}
		mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewPeriodicReader(exp)))
		m := mp.Meter("test")
		c, _ := m.Int64Counter("calls")
		h, _ := m.Float64Histogram("duration", metric.WithUnit("ms"))
		attrs := metric.WithAttributes(attribute.String("span.name", "A"))
		c.Add(ctx, 3, attrs)
		h.Record(ctx, 1.5, attrs)
		h.Record(ctx, 2.5, attrs)
		if err := mp.Shutdown(ctx); err != nil {
			t.Fatal(err)
		}
		if s.MetricRequests() != 1 {
			t.Fatalf("count only %v: %d metric requests, want 1", countOnly, s.MetricRequests())
		}
		pts := s.Points()
		if countOnly {
			if len(pts) != 0 {
				t.Errorf("a count-only sink kept %d points", len(pts))
			}
			continue
		}
		if len(pts) != 2 {
			t.Fatalf("%d points: %+v", len(pts), pts)
		}
		for _, p := range pts {
			if p.Attrs["span.name"] != "A" || !p.Cumulative {
				t.Errorf("point %+v", p)
			}
			switch p.Metric {
			case "calls":
				if p.Kind != "sum" || p.Value != 3 {
					t.Errorf("calls %+v", p)
				}
			case "duration":
				var n uint64
				for _, b := range p.BucketCounts {
					n += b
				}
				if p.Kind != "histogram" || p.Count != 2 || p.Sum != 4 || n != 2 || p.Unit != "ms" {
					t.Errorf("duration %+v", p)
				}
			default:
				t.Errorf("metric %q", p.Metric)
			}
		}
		s.Reset()
		if len(s.Points()) != 0 || s.MetricRequests() != 0 {
			t.Error("Reset kept metrics")
		}
	}
}
