package otlpsink

import (
	"context"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	collectormetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	metricspb "go.opentelemetry.io/proto/otlp/metrics/v1"
	"google.golang.org/grpc"
)

// Point is a flat view of one received metric data point: a sum's or a
// histogram's (other kinds are kept with their name and attributes only).
type Point struct {
	Metric     string // the metric's name
	Unit       string
	Kind       string // "sum", "histogram" or "other"
	Cumulative bool   // cumulative temporality (else delta)
	Attrs      map[string]any
	Resource   map[string]any
	Start      time.Time
	Time       time.Time

	Value int64 // a sum's (integer) value

	Count        uint64 // a histogram's count, sum, bounds and buckets
	Sum          float64
	Bounds       []float64
	BucketCounts []uint64
}

// Points returns every metric data point received so far, in the order
// received.
func (s *Sink) Points() []Point {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Point(nil), s.points...)
}

// MetricRequests returns how many metric export requests arrived.
func (s *Sink) MetricRequests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.metricRequests
}

// metricsService is the MetricsService of a Sink: it keeps the data points.
var metricsService = grpc.ServiceDesc{
	ServiceName: "opentelemetry.proto.collector.metrics.v1.MetricsService",
	HandlerType: (*any)(nil),
	Methods: []grpc.MethodDesc{{
		MethodName: "Export",
		Handler: func(srv any, _ context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
			var raw rawMessage
			if err := dec(&raw); err != nil {
				return nil, err
			}
			var req collectormetrics.ExportMetricsServiceRequest
			if err := proto.Unmarshal(raw.b, &req); err != nil {
				return nil, status.Error(codes.InvalidArgument, err.Error())
			}
			srv.(*Sink).exportMetrics(&req)
			return &rawMessage{}, nil // an empty ExportMetricsServiceResponse
		},
	}},
	Metadata: "opentelemetry/proto/collector/metrics/v1/metrics_service.proto",
}

// exportMetrics keeps the data points of req.
func (s *Sink) exportMetrics(req *collectormetrics.ExportMetricsServiceRequest) {
	var pts []Point
	for _, rm := range req.ResourceMetrics {
		res := attrMap(rm.GetResource().GetAttributes())
		for _, sm := range rm.ScopeMetrics {
			for _, mt := range sm.Metrics {
				pts = append(pts, flattenMetric(mt, res)...)
			}
		}
	}
	s.mu.Lock()
	s.points = append(s.points, pts...)
	s.metricRequests++
	s.mu.Unlock()
}

func flattenMetric(mt *metricspb.Metric, res map[string]any) []Point {
	base := Point{Metric: mt.Name, Unit: mt.Unit, Kind: "other", Resource: res}
	var out []Point
	switch d := mt.Data.(type) {
	case *metricspb.Metric_Sum:
		for _, dp := range d.Sum.DataPoints {
			p := base
			p.Kind = "sum"
			p.Cumulative = d.Sum.AggregationTemporality == metricspb.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE
			p.Attrs, p.Start, p.Time = attrMap(dp.Attributes), unixNano(dp.StartTimeUnixNano), unixNano(dp.TimeUnixNano)
			p.Value = dp.GetAsInt()
			out = append(out, p)
		}
	case *metricspb.Metric_Histogram:
		for _, dp := range d.Histogram.DataPoints {
			p := base
			p.Kind = "histogram"
			p.Cumulative = d.Histogram.AggregationTemporality == metricspb.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE
			p.Attrs, p.Start, p.Time = attrMap(dp.Attributes), unixNano(dp.StartTimeUnixNano), unixNano(dp.TimeUnixNano)
			p.Count, p.Sum, p.Bounds, p.BucketCounts = dp.Count, dp.GetSum(), dp.ExplicitBounds, dp.BucketCounts
			out = append(out, p)
		}
	default:
		out = append(out, base)
	}
	return out
}

// countMetricsService is the MetricsService of a count-only sink: it
// accepts metric exports and counts the requests, nothing more.
var countMetricsService = grpc.ServiceDesc{
	ServiceName: "opentelemetry.proto.collector.metrics.v1.MetricsService",
	HandlerType: (*any)(nil),
	Methods: []grpc.MethodDesc{{
		MethodName: "Export",
		Handler: func(srv any, _ context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
			var req rawMessage
			if err := dec(&req); err != nil {
				return nil, err
			}
			s := srv.(*Sink)
			s.mu.Lock()
			s.metricRequests++
			s.mu.Unlock()
			return &rawMessage{}, nil // an empty ExportMetricsServiceResponse
		},
	}},
	Metadata: "opentelemetry/proto/collector/metrics/v1/metrics_service.proto",
}
