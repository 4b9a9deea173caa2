package otlpsink

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	_ "google.golang.org/grpc/encoding/gzip" // accept gzip-compressed exports
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// closeTimeout bounds how long Close waits for exports in flight before it
// stops the server hard.
const closeTimeout = time.Second

// maxRecvMsgSize is the largest export request accepted. gRPC's default of
// 4 MiB is too small for big batches of spans carrying argument values.
const maxRecvMsgSize = 64 << 20

// Span is a flat view of one received span.
type Span struct {
	TraceID, SpanID, ParentSpanID string // lowercase hex; ParentSpanID is "" for a root
	Name                          string
	Kind                          string // "internal", "server", "client", "producer", "consumer" or "unspecified"
	Start, End                    time.Time

	// Attrs holds the span's attributes: string, int64, float64, bool, and
	// []any for arrays (also []byte and map[string]any for the rarely used
	// bytes and key-value list values).
	Attrs map[string]any

	Events     []Event
	Links      []Link
	StatusCode string // "unset", "ok" or "error"
	StatusMsg  string
	Resource   map[string]any // the resource's attributes, valued as Attrs
	Scope      string         // the instrumentation scope's name

	text []byte // its lines laid out for a TreePrinter ahead (TreePrinter.Prepare)
}

// Duration returns End - Start.
func (s Span) Duration() time.Duration { return s.End.Sub(s.Start) }

// Link is one of a span's links to another span.
type Link struct {
	TraceID, SpanID string // lowercase hex
	Attrs           map[string]any
}

// Event is one event of a span.
type Event struct {
	Name  string
	Time  time.Time
	Attrs map[string]any
}

// An Option configures a Sink.
type Option func(*config)

type config struct {
	tls       *tls.Config
	exportErr func() error
	delay     time.Duration
	countOnly bool
	spanFunc  func([]Span)
	keepRaw   bool
}

// WithTLS serves over TLS with c instead of plain text.
func WithTLS(c *tls.Config) Option { return func(o *config) { o.tls = c } }

// WithExportError makes every Export call ask f, and fail with its error
// when that is not nil; the spans of a failed call are not stored. Return a
// [google.golang.org/grpc/status] error to choose the code an exporter sees
// (for example codes.Unavailable, which exporters retry).
func WithExportError(f func() error) Option { return func(o *config) { o.exportErr = f } }

// WithDelay makes every Export call wait d before it answers.
func WithDelay(d time.Duration) Option { return func(o *config) { o.delay = d } }

// WithCountOnly keeps only the number of spans received, for benchmarks
// that must not pay for storing them: [Sink.Count] and [Sink.Requests]
// work, Spans, Headers and ExportJSON have nothing to return, and
// WaitSpans waits in vain.
func WithCountOnly() Option { return func(o *config) { o.countOnly = true } }

// WithSpanFunc hands every span received to f instead of storing it, for
// runs with more spans than memory should hold: [Sink.Count] works, Spans
// and WaitSpans have nothing to return. f may be called from several
// goroutines at once.
func WithSpanFunc(f func(Span)) Option {
	return WithSpansFunc(func(spans []Span) {
		for i := range spans {
			f(spans[i])
		}
	})
}

// WithSpansFunc is [WithSpanFunc] a request at a time: f gets the spans
// of each request received, a slice of its own that f may keep (and
// point into), and can take them all under one lock.
func WithSpansFunc(f func([]Span)) Option { return func(o *config) { o.spanFunc = f } }

// WithRawKept keeps the requests received for [Sink.ExportJSON] also
// with [WithSpanFunc].
func WithRawKept() Option { return func(o *config) { o.keepRaw = true } }

// Sink is a running OTLP/gRPC trace receiver. It is safe for concurrent use.
type Sink struct {
	cfg    config
	lis    net.Listener
	srv    *grpc.Server
	served chan error // Serve's result

	closeOnce sync.Once
	closeErr  error

	mu       sync.Mutex
	changed  chan struct{} // closed and replaced when an export starts or ends
	spans    []Span
	raw      [][]byte // the requests received, encoded, for ExportJSON
	count    int
	requests int
	inFlight int
	conns    int       // client connections open (conns.go)
	last     time.Time // when an export last started or ended
	headers  []metadata.MD
	perTrace map[string]int // spans per trace ID

	points         []Point // metric data points (metrics.go)
	metricRequests int
}

// Listen starts a receiver on the TCP address addr; "127.0.0.1:0" picks a
// free port. It serves the OTLP collector TraceService (and, keeping its
// data points, the MetricsService) over gRPC, in plain
// text unless [WithTLS] is given, and accepts gzip-compressed requests.
func Listen(addr string, opts ...Option) (*Sink, error) {
	s := &Sink{changed: make(chan struct{}), served: make(chan error, 1)}
	for _, o := range opts {
		o(&s.cfg)
	}
	lis, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("otlpsink: %w", err)
	}
	// Requests reach the services encoded: the spans are flattened
	// straight from the wire (wire.go), or only counted (count.go).
	sopts := []grpc.ServerOption{grpc.MaxRecvMsgSize(maxRecvMsgSize), grpc.ForceServerCodec(rawCodec{})}
	if s.cfg.tls != nil {
		sopts = append(sopts, grpc.Creds(credentials.NewTLS(s.cfg.tls)))
	}
	lis = countingListener{Listener: lis, sink: s}
	s.lis = lis
	s.srv = grpc.NewServer(sopts...)
	if s.cfg.countOnly {
		s.srv.RegisterService(&countService, s)
		s.srv.RegisterService(&countMetricsService, s)
	} else {
		s.srv.RegisterService(&traceService, s)
		s.srv.RegisterService(&metricsService, s)
	}
	go func() { s.served <- s.srv.Serve(lis) }()
	return s, nil
}

// Addr returns the host:port the receiver listens on, e.g. "127.0.0.1:43017".
func (s *Sink) Addr() string { return s.lis.Addr().String() }

// Endpoint returns the receiver's URL, the form OTEL_EXPORTER_OTLP_ENDPOINT
// takes: "http://127.0.0.1:43017", or https:// for a TLS receiver.
func (s *Sink) Endpoint() string {
	if s.cfg.tls != nil {
		return "https://" + s.Addr()
	}
	return "http://" + s.Addr()
}

// traceService is the TraceService of a Sink that keeps what it gets.
var traceService = exportService(func(s *Sink, ctx context.Context, req []byte) error { return s.export(ctx, req) })

// exportService is a TraceService whose Export hands each request's wire
// bytes to export, and answers an empty ExportTraceServiceResponse.
func exportService(export func(s *Sink, ctx context.Context, req []byte) error) grpc.ServiceDesc {
	return grpc.ServiceDesc{
		ServiceName: "opentelemetry.proto.collector.trace.v1.TraceService",
		HandlerType: (*any)(nil),
		Methods: []grpc.MethodDesc{{
			MethodName: "Export",
			Handler: func(srv any, ctx context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
				var req rawMessage
				if err := dec(&req); err != nil {
					return nil, err
				}
				if err := export(srv.(*Sink), ctx, req.b); err != nil {
					return nil, err
				}
				return &rawMessage{}, nil
			},
		}},
		Metadata: "opentelemetry/proto/collector/trace/v1/trace_service.proto",
	}
}

// export takes one encoded ExportTraceServiceRequest. A malformed one is
// refused before it is counted, as a decoding server refuses it.
func (s *Sink) export(ctx context.Context, req []byte) error {
	spans, err := decodeTraces(req)
	if err != nil {
		return status.Error(codes.InvalidArgument, err.Error())
	}
	return s.handle(ctx, func() (received, error) {
		got := received{n: len(spans), spans: spans}
		if s.keepsRaw() {
			got.raw = bytes.Clone(req) // the server reuses its buffer
		}
		return got, nil
	})
}

// keepsRaw says whether the requests are kept for ExportJSON.
func (s *Sink) keepsRaw() bool {
	return !s.cfg.countOnly && (s.cfg.spanFunc == nil || s.cfg.keepRaw)
}

// received is what one Export call brought.
type received struct {
	n      int            // spans
	traces map[string]int // count-only: spans per trace ID
	spans  []Span
	raw    []byte // the encoded request, when kept
}

// handle runs one Export call: the configured delay and fault, then read,
// which counts (and unless counting only, flattens) the request's spans.
func (s *Sink) handle(ctx context.Context, read func() (received, error)) error {
	s.mu.Lock()
	s.requests++
	s.inFlight++
	s.touchLocked()
	s.mu.Unlock()

	var got received
	err := s.fault(ctx)
	if err == nil {
		got, err = read()
	}
	if err == nil && s.cfg.spanFunc != nil && len(got.spans) > 0 {
		s.cfg.spanFunc(got.spans)
	}

	s.mu.Lock()
	s.inFlight--
	if err == nil {
		s.count += got.n
		if s.perTrace == nil {
			s.perTrace = map[string]int{}
		}
		for id, n := range got.traces {
			s.perTrace[id] += n
		}
		for i := range got.spans {
			s.perTrace[got.spans[i].TraceID]++
		}
		if !s.cfg.countOnly && s.cfg.spanFunc == nil {
			md, _ := metadata.FromIncomingContext(ctx)
			s.spans = append(s.spans, got.spans...)
			s.headers = append(s.headers, md)
		}
		if got.raw != nil {
			s.raw = append(s.raw, got.raw)
		}
	}
	s.touchLocked()
	s.mu.Unlock()
	return err
}

// fault applies the configured delay and export error.
func (s *Sink) fault(ctx context.Context) error {
	if s.cfg.delay > 0 {
		t := time.NewTimer(s.cfg.delay)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
	}
	if s.cfg.exportErr != nil {
		return s.cfg.exportErr()
	}
	return nil
}

// touchLocked records activity and wakes the waiters. s.mu must be held.
func (s *Sink) touchLocked() {
	s.last = time.Now()
	close(s.changed)
	s.changed = make(chan struct{})
}

func unixNano(ns uint64) time.Time { return time.Unix(0, int64(ns)) }

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

func statusName(c tracepb.Status_StatusCode) string {
	switch c {
	case tracepb.Status_STATUS_CODE_OK:
		return "ok"
	case tracepb.Status_STATUS_CODE_ERROR:
		return "error"
	}
	return "unset"
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
		out := make([]any, 0, len(x.ArrayValue.GetValues()))
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

// Spans returns a snapshot of the spans received so far, in arrival order.
func (s *Sink) Spans() []Span {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Span(nil), s.spans...)
}

// Count returns the number of spans received so far.
func (s *Sink) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.count
}

// MaxSpansPerTrace returns the most spans received for one trace, and how
// many traces there were.
func (s *Sink) MaxSpansPerTrace() (max, traces int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range s.perTrace {
		if n > max {
			max = n
		}
	}
	return max, len(s.perTrace)
}

// Requests returns the number of Export calls received, failed ones
// included.
func (s *Sink) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

// Headers returns the gRPC metadata of each export stored, in arrival
// order.
func (s *Sink) Headers() []metadata.MD {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]metadata.MD(nil), s.headers...)
}

// Reset forgets the spans, requests and headers received so far.
func (s *Sink) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.spans, s.raw, s.headers, s.count, s.requests, s.perTrace = nil, nil, nil, 0, 0, nil
	s.points, s.metricRequests = nil, 0
}

// WaitSpans waits until at least n spans have arrived and returns them. If
// ctx ends first it returns the spans it has and ctx's error.
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

// WaitIdle waits until no export has been received or in progress for
// quiet, counted from the call at the earliest, and returns the spans
// received. If ctx ends first it returns the spans it has.
func (s *Sink) WaitIdle(ctx context.Context, quiet time.Duration) []Span {
	return s.wait(ctx, quiet, false)
}

// WaitClientsGone is WaitIdle for a receiver whose clients have exited
// (clrotel run, once its command has): it returns as soon as no client
// is connected and no export is in progress. A client that waited for
// the answers to its exports before it exited (the profiler's exit flush
// does) has then had every span it counted as exported received. A
// client still connected (a process the command left running) is waited
// for as WaitIdle waits.
func (s *Sink) WaitClientsGone(ctx context.Context, quiet time.Duration) []Span {
	return s.wait(ctx, quiet, true)
}

func (s *Sink) wait(ctx context.Context, quiet time.Duration, gone bool) []Span {
	since := time.Now()
	for {
		s.mu.Lock()
		ch, busy, last, conns := s.changed, s.inFlight > 0, s.last, s.conns
		s.mu.Unlock()
		if gone && conns == 0 && !busy {
			return s.Spans()
		}
		if last.After(since) {
			since = last
		}
		if busy {
			// An export in progress ends with a change.
			select {
			case <-ch:
				continue
			case <-ctx.Done():
				return s.Spans()
			}
		}
		wait := quiet - time.Since(since)
		if wait <= 0 {
			return s.Spans()
		}
		t := time.NewTimer(wait)
		select {
		case <-ch:
			t.Stop()
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return s.Spans()
		}
	}
}

// ExportJSON writes every resource span received as one OTLP/JSON document:
// an ExportTraceServiceRequest in which spans of the same resource and scope
// are merged, encoded as the OTLP specification's JSON form (the form the
// Collector's file exporter writes and its otlpjsonfile receiver reads):
// protobuf JSON with lowerCamelCase names, enums as numbers, and trace and
// span ids as hex strings rather than base64.
func (s *Sink) ExportJSON(w io.Writer) error {
	s.mu.Lock()
	reqs := append([][]byte(nil), s.raw...)
	s.mu.Unlock()

	var raw []*tracepb.ResourceSpans
	for _, b := range reqs {
		var req collectortrace.ExportTraceServiceRequest
		if err := proto.Unmarshal(b, &req); err != nil {
			return fmt.Errorf("otlpsink: decoding a request received: %w", err)
		}
		raw = append(raw, req.GetResourceSpans()...)
	}
	b, err := marshalOTLPJSON(&collectortrace.ExportTraceServiceRequest{ResourceSpans: mergeResourceSpans(raw)})
	if err != nil {
		return fmt.Errorf("otlpsink: encoding OTLP/JSON: %w", err)
	}
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("otlpsink: writing OTLP/JSON: %w", err)
	}
	return nil
}

// mergeResourceSpans groups spans by resource (and schema URL), then by
// scope, keeping the order of first arrival. The received messages are not
// changed.
func mergeResourceSpans(in []*tracepb.ResourceSpans) []*tracepb.ResourceSpans {
	det := proto.MarshalOptions{Deterministic: true}
	key := func(m proto.Message, schema string) string {
		b, _ := det.Marshal(m) // a message that arrived over the wire marshals
		return schema + "\x00" + string(b)
	}
	var out []*tracepb.ResourceSpans
	resIdx := map[string]int{}
	scopeIdx := map[[2]string]int{}
	for _, rs := range in {
		rk := key(rs.GetResource(), rs.GetSchemaUrl())
		ri, ok := resIdx[rk]
		if !ok {
			ri = len(out)
			resIdx[rk] = ri
			out = append(out, &tracepb.ResourceSpans{Resource: rs.GetResource(), SchemaUrl: rs.GetSchemaUrl()})
		}
		merged := out[ri]
		for _, ss := range rs.GetScopeSpans() {
			sk := [2]string{rk, key(ss.GetScope(), ss.GetSchemaUrl())}
			si, ok := scopeIdx[sk]
			if !ok {
				si = len(merged.ScopeSpans)
				scopeIdx[sk] = si
				merged.ScopeSpans = append(merged.ScopeSpans, &tracepb.ScopeSpans{Scope: ss.GetScope(), SchemaUrl: ss.GetSchemaUrl()})
			}
			merged.ScopeSpans[si].Spans = append(merged.ScopeSpans[si].Spans, ss.GetSpans()...)
		}
	}
	return out
}

// marshalOTLPJSON encodes req as OTLP/JSON, one line ending in a newline.
// protojson writes bytes fields as base64; OTLP/JSON wants the ids in hex.
func marshalOTLPJSON(req *collectortrace.ExportTraceServiceRequest) ([]byte, error) {
	b, err := protojson.MarshalOptions{UseEnumNumbers: true}.Marshal(req)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber() // keep numbers exactly as protojson wrote them
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	for _, rs := range jsonList(doc["resourceSpans"]) {
		for _, ss := range jsonList(jsonObject(rs)["scopeSpans"]) {
			for _, sp := range jsonList(jsonObject(ss)["spans"]) {
				span := jsonObject(sp)
				if err := hexIDs(span, "traceId", "spanId", "parentSpanId"); err != nil {
					return nil, err
				}
				for _, l := range jsonList(span["links"]) {
					if err := hexIDs(jsonObject(l), "traceId", "spanId"); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

func jsonList(v any) []any            { l, _ := v.([]any); return l }
func jsonObject(v any) map[string]any { m, _ := v.(map[string]any); return m }

// hexIDs rewrites the base64 string fields named in m as hex.
func hexIDs(m map[string]any, names ...string) error {
	for _, name := range names {
		s, ok := m[name].(string)
		if !ok {
			continue
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return fmt.Errorf("%s %q: %w", name, s, err)
		}
		m[name] = hex.EncodeToString(b)
	}
	return nil
}

// Close stops the receiver. It waits a bounded time for exports in flight,
// then stops hard. It returns the server's error, if it failed; closing
// twice is harmless.
func (s *Sink) Close() error {
	s.closeOnce.Do(func() {
		done := make(chan struct{})
		go func() {
			s.srv.GracefulStop()
			close(done)
		}()
		t := time.NewTimer(closeTimeout)
		select {
		case <-done:
			t.Stop()
		case <-t.C:
			s.srv.Stop()
			<-done
		}
		if err := <-s.served; err != nil && !errors.Is(err, grpc.ErrServerStopped) {
			s.closeErr = fmt.Errorf("otlpsink: serve: %w", err)
		}
	})
	return s.closeErr
}
