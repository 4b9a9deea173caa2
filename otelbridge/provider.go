package otelbridge

import (
	"context"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// ScopeName is the instrumentation scope of every span the profiler makes.
const ScopeName = "github.com/clrotel/clrotel"

// ExportOptions tunes the batching between the bridge and the exporter. Zero
// values take the SDK's defaults (which also honour OTEL_BSP_*).
type ExportOptions struct {
	// ServiceName is used when OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES
	// name no service.
	ServiceName string
	// Version is recorded as the scope version.
	Version       string
	MaxQueueSize  int
	MaxBatchSize  int
	BatchTimeout  time.Duration
	ExportTimeout time.Duration
	// Exporter replaces the OTLP/gRPC exporter (tests).
	Exporter sdktrace.SpanExporter
	// ResourceAttrs are added to the resource (process, runtime).
	ResourceAttrs []attribute.KeyValue
}

// Pipeline is the SDK side of the bridge: a tracer provider whose root spans
// take the hooks' trace ids, a batcher that blocks (rather than drops) when
// its queue is full, so back-pressure reaches the capture rings where drops
// are counted, and the exporter.
type Pipeline struct {
	Provider *sdktrace.TracerProvider
	Tracer   trace.Tracer
}

// NewPipeline builds the pipeline. The OTLP/gRPC exporter reads the standard
// OTEL_EXPORTER_OTLP_* variables (endpoint, traces endpoint, headers,
// insecure, certificates, timeout, compression) itself; the resource reads
// OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES. Creating the exporter does
// not wait for the collector.
func NewPipeline(ctx context.Context, opts ExportOptions) (*Pipeline, error) {
	exp := opts.Exporter
	if exp == nil {
		var err error
		exp, err = otlptracegrpc.New(ctx)
		if err != nil {
			return nil, fmt.Errorf("otelbridge: OTLP/gRPC exporter: %w", err)
		}
	}
	res, err := newResource(ctx, opts)
	if err != nil {
		return nil, err
	}
	bsp := []sdktrace.BatchSpanProcessorOption{sdktrace.WithBlocking()}
	if opts.MaxQueueSize > 0 {
		bsp = append(bsp, sdktrace.WithMaxQueueSize(opts.MaxQueueSize))
	}
	if opts.MaxBatchSize > 0 {
		bsp = append(bsp, sdktrace.WithMaxExportBatchSize(opts.MaxBatchSize))
	}
	if opts.BatchTimeout > 0 {
		bsp = append(bsp, sdktrace.WithBatchTimeout(opts.BatchTimeout))
	}
	if opts.ExportTimeout > 0 {
		bsp = append(bsp, sdktrace.WithExportTimeout(opts.ExportTimeout))
	}
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithResource(res),
		sdktrace.WithIDGenerator(IDGenerator{}),
		// The hooks decide sampling before anything is captured; every span
		// that reaches the bridge is recorded.
		sdktrace.WithSampler(sdktrace.AlwaysSample()),
		sdktrace.WithBatcher(exp, bsp...),
	)
	return &Pipeline{
		Provider: tp,
		Tracer:   tp.Tracer(ScopeName, trace.WithInstrumentationVersion(opts.Version)),
	}, nil
}

func newResource(ctx context.Context, opts ExportOptions) (*resource.Resource, error) {
	var base []attribute.KeyValue
	if opts.ServiceName != "" {
		base = append(base, attribute.String("service.name", opts.ServiceName))
	}
	base = append(base, opts.ResourceAttrs...)
	// Later sources win: our defaults, then the SDK's, then the environment.
	res, err := resource.New(ctx,
		resource.WithAttributes(base...),
		resource.WithTelemetrySDK(),
		resource.WithProcessPID(),
		resource.WithFromEnv(),
	)
	if err != nil {
		// A malformed OTEL_RESOURCE_ATTRIBUTES still yields the rest.
		if res == nil {
			return nil, fmt.Errorf("otelbridge: resource: %w", err)
		}
	}
	return res, nil
}

// Shutdown flushes what is queued and stops the exporter, waiting at most
// until ctx ends.
func (p *Pipeline) Shutdown(ctx context.Context) error {
	return p.Provider.Shutdown(ctx)
}
