package otelbridge

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
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
	// endpoint is host:port of the OTLP endpoint ("" with a custom
	// exporter), probed at shutdown.
	endpoint string
}

// NewPipeline builds the pipeline. The OTLP/gRPC exporter reads the standard
// OTEL_EXPORTER_OTLP_* variables (endpoint, traces endpoint, headers,
// insecure, certificates, timeout, compression) itself; the resource reads
// OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES. Creating the exporter does
// not wait for the collector.
func NewPipeline(ctx context.Context, opts ExportOptions) (*Pipeline, error) {
	exp := opts.Exporter
	endpoint := ""
	if exp == nil {
		endpoint = EndpointAddr(os.Getenv)
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
		sdktrace.WithSpanProcessor(dropFilter{sdktrace.NewBatchSpanProcessor(exp, bsp...)}),
	)
	return &Pipeline{
		Provider: tp,
		Tracer:   tp.Tracer(ScopeName, trace.WithInstrumentationVersion(opts.Version)),
		endpoint: endpoint,
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

// ErrUnreachable is returned by Shutdown when nothing listened at the
// endpoint, so queued spans were given up at once instead of retried.
var ErrUnreachable = errors.New("otelbridge: collector unreachable at exit")

// Shutdown flushes what is queued and stops the exporter, waiting at most
// until ctx ends. When nothing listens at the endpoint (no collector, a
// wrong port) it gives up at once: retrying until the deadline would only
// hold the exiting app up.
func (p *Pipeline) Shutdown(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var unreachable atomic.Bool
	if p.endpoint != "" {
		go func() {
			if !reachable(ctx, p.endpoint, 300*time.Millisecond) && ctx.Err() == nil {
				unreachable.Store(true)
				cancel()
			}
		}()
	}
	err := p.Provider.Shutdown(ctx)
	if unreachable.Load() {
		return fmt.Errorf("%w (%s)", ErrUnreachable, p.endpoint)
	}
	return err
}

// reachable reports whether a TCP connection to addr can be opened.
func reachable(ctx context.Context, addr string, timeout time.Duration) bool {
	d := net.Dialer{Timeout: timeout}
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// EndpointAddr returns the host:port the OTLP/gRPC exporter sends traces to,
// from OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT
// (default localhost:4317), as the exporter itself resolves them.
func EndpointAddr(getenv func(string) string) string {
	raw := getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
	if raw == "" {
		raw = getenv("OTEL_EXPORTER_OTLP_ENDPOINT")
	}
	if raw == "" {
		return "localhost:4317"
	}
	host := raw
	if u, err := url.Parse(raw); err == nil && u.Host != "" {
		host = u.Host
	}
	if _, _, err := net.SplitHostPort(host); err != nil {
		host = net.JoinHostPort(strings.Trim(host, "[]"), "4317")
	}
	return host
}

// dropFilter keeps the spans the bridge marked as too short from export.
type dropFilter struct{ sdktrace.SpanProcessor }

func (f dropFilter) OnEnd(s sdktrace.ReadOnlySpan) {
	for _, kv := range s.Attributes() {
		if kv.Key == keyDrop {
			return
		}
	}
	f.SpanProcessor.OnEnd(s)
}
