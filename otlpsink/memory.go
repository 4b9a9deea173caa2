package otlpsink

import (
	"context"
	"sync"

	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// MemoryClient is an OTLP trace client (otlptrace.Client) that keeps what
// it is sent in memory, passed through the wire format and flattened as a
// Sink flattens what it receives: for tests that export through a
// pipeline of their own, without a network.
type MemoryClient struct {
	mu    sync.Mutex
	spans []Span
}

// Start implements otlptrace.Client.
func (c *MemoryClient) Start(context.Context) error { return nil }

// Stop implements otlptrace.Client.
func (c *MemoryClient) Stop(context.Context) error { return nil }

// UploadTraces implements otlptrace.Client.
func (c *MemoryClient) UploadTraces(_ context.Context, rs []*tracepb.ResourceSpans) error {
	wire, err := proto.Marshal(&collectortrace.ExportTraceServiceRequest{ResourceSpans: rs})
	if err != nil {
		return err
	}
	spans, err := decodeTraces(wire)
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.spans = append(c.spans, spans...)
	c.mu.Unlock()
	return nil
}

// Spans returns the spans received so far, in arrival order.
func (c *MemoryClient) Spans() []Span {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Span(nil), c.spans...)
}
