package otelbridge

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	"github.com/clrotel/clrotel/methodmetrics"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// MetricsOptions configure the method metrics' export.
type MetricsOptions struct {
	// Registry holds the method metrics; its Produce is the reader's
	// producer.
	Registry *methodmetrics.Registry
	// Exporter replaces the OTLP/gRPC metric exporter (tests).
	Exporter sdkmetric.Exporter
	// Interval between exports; 0: OTEL_METRIC_EXPORT_INTERVAL, else the
	// SDK's 60 s.
	Interval time.Duration
}

// MetricsPipeline exports the method metrics with the OpenTelemetry metric
// SDK: its periodic reader collects the registry (a Producer: the
// aggregation is the registry's, since folded calls arrive as totals) and
// its OTLP/gRPC exporter sends them, configured like the traces'
// (OTEL_EXPORTER_OTLP_* and OTEL_EXPORTER_OTLP_METRICS_*: endpoint,
// headers, TLS, compression, timeout), with the traces' resource.
type MetricsPipeline struct {
	provider *sdkmetric.MeterProvider
	// endpoint is host:port of the OTLP endpoint ("" with a custom
	// exporter), probed at shutdown.
	endpoint string
}

// NewMetricsPipeline starts the periodic export of opts.Registry, with the
// resource of the trace pipeline p. The exporter connects at the first
// export that has data.
func NewMetricsPipeline(ctx context.Context, p *Pipeline, opts MetricsOptions) (*MetricsPipeline, error) {
	exp := opts.Exporter
	endpoint := ""
	if exp == nil {
		endpoint = MetricsEndpointAddr(os.Getenv)
		var err error
		if exp, err = otlpmetricgrpc.New(ctx); err != nil {
			return nil, fmt.Errorf("otelbridge: OTLP/gRPC metric exporter: %w", err)
		}
	}
	ropts := []sdkmetric.PeriodicReaderOption{sdkmetric.WithProducer(opts.Registry)}
	if opts.Interval > 0 {
		ropts = append(ropts, sdkmetric.WithInterval(opts.Interval))
	}
	reader := sdkmetric.NewPeriodicReader(nonEmpty{exp}, ropts...)
	return &MetricsPipeline{provider: sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader), sdkmetric.WithResource(p.res)), endpoint: endpoint}, nil
}

// ForceFlush exports what the registry holds now.
func (m *MetricsPipeline) ForceFlush(ctx context.Context) error { return m.provider.ForceFlush(ctx) }

// Shutdown exports the registry a last time and stops the exporter,
// waiting at most until ctx ends. When nothing listens at the endpoint it
// gives up at once (ErrUnreachable) rather than retry until ctx ends.
func (m *MetricsPipeline) Shutdown(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var unreachable atomic.Bool
	if m.endpoint != "" {
		go func() {
			if !reachable(ctx, m.endpoint, 300*time.Millisecond) && ctx.Err() == nil {
				unreachable.Store(true)
				cancel()
			}
		}()
	}
	err := m.provider.Shutdown(ctx)
	if err != nil && unreachable.Load() {
		return fmt.Errorf("%w (%s)", ErrUnreachable, m.endpoint)
	}
	return err
}

// nonEmpty skips the exports with no data: an app in which nothing folds
// and no method is named for metrics never connects for metrics.
type nonEmpty struct{ sdkmetric.Exporter }

func (e nonEmpty) Export(ctx context.Context, rm *metricdata.ResourceMetrics) error {
	for _, sm := range rm.ScopeMetrics {
		if len(sm.Metrics) > 0 {
			return e.Exporter.Export(ctx, rm)
		}
	}
	return nil
}
