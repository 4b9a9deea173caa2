// Package otlpsink is an in-process OTLP/gRPC trace receiver: it stores the
// spans exported to it and renders them for people (an indented tree) or
// files (OTLP JSON). The clrotel CLI's run command and the end-to-end tests
// use it.
//
// It must not depend on the profiler or on cgo.
package otlpsink

import (
	"context"
	"crypto/tls"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	_ "google.golang.org/grpc/encoding/gzip" // accept gzip-compressed exports
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// Span is a flat view of one received span.
type Span struct {
	TraceID, SpanID, ParentSpanID string // lowercase hex; ParentSpanID is "" for a root
	Name                          string
	Kind                          string
	Start, End                    time.Time
	Attrs                         map[string]any // string, int64, float64, bool, []any
	Events                        []Event
	StatusCode                    string // unset, ok, error
	StatusMsg                     string
	Resource                      map[string]any
	Scope                         string
}

// Event is a span event.
type Event struct {
	Name  string
	Time  time.Time
	Attrs map[string]any
}

// Duration is End - Start.
func (s Span) Duration() time.Duration { return s.End.Sub(s.Start) }

// Option configures a Sink.
type Option func(*options)

type options struct {
	tls       *tls.Config
	exportErr func() error
	delay     time.Duration
	countOnly bool
}

// WithCountOnly keeps only the number of spans received (benchmarks).
func WithCountOnly() Option { return func(o *options) { o.countOnly = true } }

// WithTLS serves over TLS.
func WithTLS(c *tls.Config) Option { return func(o *options) { o.tls = c } }

// WithExportError makes Export fail with f's error when f returns non-nil.
func WithExportError(f func() error) Option { return func(o *options) { o.exportErr = f } }

// WithDelay makes Export answer after d.
func WithDelay(d time.Duration) Option { return func(o *options) { o.delay = d } }

// Sink is a running receiver. It is safe for concurrent use.
type Sink struct {
	collectortrace.UnimplementedTraceServiceServer
	lis  net.Listener
	srv  *grpc.Server
	opts options

	mu       sync.Mutex
	changed  chan struct{} // closed and replaced on every export
	spans    []Span
	raw      []*tracepb.ResourceSpans
	requests int
	count    int
	headers  []metadata.MD
	last     time.Time
}

// Listen starts a receiver on addr ("127.0.0.1:0" picks a free port).
func Listen(addr string, opts ...Option) (*Sink, error) {
	s := &Sink{changed: make(chan struct{})}
	for _, o := range opts {
		o(&s.opts)
	}
	lis, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("otlpsink: listen %s: %w", addr, err)
	}
	var sopts []grpc.ServerOption
	if s.opts.tls != nil {
		sopts = append(sopts, grpc.Creds(credentials.NewTLS(s.opts.tls)))
	}
	s.lis = lis
	s.srv = grpc.NewServer(sopts...)
	collectortrace.RegisterTraceServiceServer(s.srv, s)
	go s.srv.Serve(lis)
	return s, nil
}

// Addr is the host:port the receiver listens on.
func (s *Sink) Addr() string { return s.lis.Addr().String() }

// Endpoint is the receiver's URL for OTEL_EXPORTER_OTLP_ENDPOINT.
func (s *Sink) Endpoint() string {
	if s.opts.tls != nil {
		return "https://" + s.Addr()
	}
	return "http://" + s.Addr()
}

// Export implements the OTLP TraceService.
func (s *Sink) Export(ctx context.Context, req *collectortrace.ExportTraceServiceRequest) (*collectortrace.ExportTraceServiceResponse, error) {
	if s.opts.delay > 0 {
		select {
		case <-time.After(s.opts.delay):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if s.opts.exportErr != nil {
		if err := s.opts.exportErr(); err != nil {
			return nil, err
		}
	}
	if s.opts.countOnly {
		n := 0
		for _, rs := range req.GetResourceSpans() {
			for _, ss := range rs.GetScopeSpans() {
				n += len(ss.GetSpans())
			}
		}
		s.mu.Lock()
		s.count += n
		s.requests++
		close(s.changed)
		s.changed = make(chan struct{})
		s.mu.Unlock()
		return &collectortrace.ExportTraceServiceResponse{}, nil
	}
	md, _ := metadata.FromIncomingContext(ctx)
	var spans []Span
	for _, rs := range req.GetResourceSpans() {
		res := attrMap(rs.GetResource().GetAttributes())
		for _, ss := range rs.GetScopeSpans() {
			for _, sp := range ss.GetSpans() {
				spans = append(spans, flatten(sp, res, ss.GetScope().GetName()))
			}
		}
	}
	s.mu.Lock()
	s.spans = append(s.spans, spans...)
	s.count += len(spans)
	for _, rs := range req.GetResourceSpans() {
		s.raw = append(s.raw, proto.Clone(rs).(*tracepb.ResourceSpans))
	}
	s.requests++
	s.headers = append(s.headers, md)
	s.last = time.Now()
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
	return &collectortrace.ExportTraceServiceResponse{}, nil
}

func flatten(sp *tracepb.Span, res map[string]any, scope string) Span {
	out := Span{
		TraceID:    hex.EncodeToString(sp.GetTraceId()),
		SpanID:     hex.EncodeToString(sp.GetSpanId()),
		Name:       sp.GetName(),
		Kind:       kindName(sp.GetKind()),
		Start:      time.Unix(0, int64(sp.GetStartTimeUnixNano())),
		End:        time.Unix(0, int64(sp.GetEndTimeUnixNano())),
		Attrs:      attrMap(sp.GetAttributes()),
		StatusMsg:  sp.GetStatus().GetMessage(),
		Resource:   res,
		Scope:      scope,
		StatusCode: "unset",
	}
	if len(sp.GetParentSpanId()) > 0 {
		out.ParentSpanID = hex.EncodeToString(sp.GetParentSpanId())
	}
	switch sp.GetStatus().GetCode() {
	case tracepb.Status_STATUS_CODE_OK:
		out.StatusCode = "ok"
	case tracepb.Status_STATUS_CODE_ERROR:
		out.StatusCode = "error"
	}
	for _, e := range sp.GetEvents() {
		out.Events = append(out.Events, Event{Name: e.GetName(), Time: time.Unix(0, int64(e.GetTimeUnixNano())), Attrs: attrMap(e.GetAttributes())})
	}
	return out
}

func kindName(k tracepb.Span_SpanKind) string {
	switch k {
	case tracepb.Span_SPAN_KIND_INTERNAL:
		return "internal"
	case tracepb.Span_SPAN_KIND_SERVER:
		return "server"
	case tracepb.Span_SPAN_KIND_CLIENT:
		return "client"
	case tracepb.Span_SPAN_KIND_PRODUCER:
		return "producer"
	case tracepb.Span_SPAN_KIND_CONSUMER:
		return "consumer"
	}
	return "unspecified"
}

func attrMap(kvs []*commonpb.KeyValue) map[string]any {
	m := make(map[string]any, len(kvs))
	for _, kv := range kvs {
		m[kv.GetKey()] = anyValue(kv.GetValue())
	}
	return m
}

func anyValue(v *commonpb.AnyValue) any {
	switch x := v.GetValue().(type) {
	case *commonpb.AnyValue_StringValue:
		return x.StringValue
	case *commonpb.AnyValue_IntValue:
		return x.IntValue
	case *commonpb.AnyValue_DoubleValue:
		return x.DoubleValue
	case *commonpb.AnyValue_BoolValue:
		return x.BoolValue
	case *commonpb.AnyValue_ArrayValue:
		var out []any
		for _, e := range x.ArrayValue.GetValues() {
			out = append(out, anyValue(e))
		}
		return out
	case *commonpb.AnyValue_BytesValue:
		return x.BytesValue
	case *commonpb.AnyValue_KvlistValue:
		return attrMap(x.KvlistValue.GetValues())
	}
	return nil
}

// Spans returns the spans received so far, in arrival order.
func (s *Sink) Spans() []Span {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Span(nil), s.spans...)
}

// Count is the number of spans received.
func (s *Sink) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.count
}

// Requests is the number of Export calls received.
func (s *Sink) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

// Headers returns the gRPC metadata of every export received.
func (s *Sink) Headers() []metadata.MD {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]metadata.MD(nil), s.headers...)
}

// Reset forgets everything received.
func (s *Sink) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.spans, s.raw, s.requests, s.headers, s.count = nil, nil, 0, nil, 0
}

// WaitSpans waits until at least n spans arrived or ctx ends; then it
// returns what it has and ctx's error.
func (s *Sink) WaitSpans(ctx context.Context, n int) ([]Span, error) {
	for {
		s.mu.Lock()
		if len(s.spans) >= n {
			out := append([]Span(nil), s.spans...)
			s.mu.Unlock()
			return out, nil
		}
		ch := s.changed
		s.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return s.Spans(), ctx.Err()
		}
	}
}

// WaitIdle waits until no export arrived for quiet (or ctx ends) and
// returns the spans received.
func (s *Sink) WaitIdle(ctx context.Context, quiet time.Duration) []Span {
	t := time.NewTimer(quiet)
	defer t.Stop()
	for {
		s.mu.Lock()
		ch := s.changed
		s.mu.Unlock()
		select {
		case <-ch:
			if !t.Stop() {
				<-t.C
			}
			t.Reset(quiet)
		case <-t.C:
			return s.Spans()
		case <-ctx.Done():
			return s.Spans()
		}
	}
}

// ExportJSON writes everything received as one OTLP/JSON document (an
// ExportTraceServiceRequest), the form the OTLP file exporter uses.
func (s *Sink) ExportJSON(w io.Writer) error {
	s.mu.Lock()
	req := &collectortrace.ExportTraceServiceRequest{ResourceSpans: s.raw}
	b, err := protojson.Marshal(req)
	s.mu.Unlock()
	if err != nil {
		return fmt.Errorf("otlpsink: %w", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// Close stops the receiver, waiting at most a second for exports in flight.
func (s *Sink) Close() error {
	done := make(chan struct{})
	go func() { s.srv.GracefulStop(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Second):
		s.srv.Stop()
	}
	return nil
}
