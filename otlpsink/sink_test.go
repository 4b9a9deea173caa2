package otlpsink

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"errors"
	"math/big"
	"net"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	grpccodes "google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
)

// base is the start of the fixture traces.
var base = time.Unix(1700000000, 0)

// listen starts a Sink that the test closes.
func listen(t *testing.T, opts ...Option) *Sink {
	t.Helper()
	s, err := Listen("127.0.0.1:0", opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

// exportFixture sends the fixture trace (three nested spans) to addr in one
// request with the OpenTelemetry SDK's OTLP/gRPC exporter. opts choose the
// transport security and compression.
func exportFixture(addr string, opts ...otlptracegrpc.Option) error {
	ctx := context.Background()
	exp, err := otlptracegrpc.New(ctx, append([]otlptracegrpc.Option{
		otlptracegrpc.WithEndpoint(addr),
		otlptracegrpc.WithRetry(otlptracegrpc.RetryConfig{Enabled: false}),
		otlptracegrpc.WithTimeout(5 * time.Second),
	}, opts...)...)
	if err != nil {
		return err
	}
	defer exp.Shutdown(ctx)

	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithSpanProcessor(rec),
		sdktrace.WithResource(resource.NewSchemaless(attribute.String("service.name", "shop"))),
	)
	tr := tp.Tracer("clrotel/test")
	ctx, root := tr.Start(ctx, "GET /orders", trace.WithSpanKind(trace.SpanKindServer), trace.WithTimestamp(base))
	cctx, child := tr.Start(ctx, "Orders.Load", trace.WithTimestamp(base.Add(time.Millisecond)), trace.WithAttributes(
		attribute.String("s", "v"),
		attribute.Int64("i", -7),
		attribute.Float64("f", 1.5),
		attribute.Bool("b", true),
		attribute.StringSlice("ss", []string{"x", "y"}),
		attribute.Int64Slice("is", []int64{1, 2}),
	))
	_, grandchild := tr.Start(cctx, "Db.Query", trace.WithTimestamp(base.Add(1500*time.Microsecond)))
	grandchild.End(trace.WithTimestamp(base.Add(2 * time.Millisecond)))
	child.AddEvent("exception", trace.WithTimestamp(base.Add(2500*time.Microsecond)), trace.WithAttributes(
		attribute.String("exception.type", "System.InvalidOperationException"),
		attribute.String("exception.message", "boom"),
	))
	child.SetStatus(codes.Error, "boom")
	child.End(trace.WithTimestamp(base.Add(3 * time.Millisecond)))
	root.End(trace.WithTimestamp(base.Add(5 * time.Millisecond)))
	return exp.ExportSpans(ctx, rec.Ended())
}

// waitSpans waits up to 5s for n spans.
func waitSpans(t *testing.T, s *Sink, n int) []Span {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	spans, err := s.WaitSpans(ctx, n)
	if err != nil {
		t.Fatalf("WaitSpans(%d): %v (got %d)", n, err, len(spans))
	}
	return spans
}

func byName(spans []Span) map[string]Span {
	m := make(map[string]Span, len(spans))
	for _, s := range spans {
		m[s.Name] = s
	}
	return m
}

var hexID = regexp.MustCompile(`^[0-9a-f]+$`)

// checkFixture compares the received fixture trace field by field.
func checkFixture(t *testing.T, spans []Span) {
	t.Helper()
	if len(spans) != 3 {
		t.Fatalf("got %d spans, want 3", len(spans))
	}
	m := byName(spans)
	root, child, grandchild := m["GET /orders"], m["Orders.Load"], m["Db.Query"]
	for _, s := range spans {
		if len(s.TraceID) != 32 || len(s.SpanID) != 16 || !hexID.MatchString(s.TraceID+s.SpanID) {
			t.Errorf("%s: ids %q %q, want lowercase hex of 16 and 8 bytes", s.Name, s.TraceID, s.SpanID)
		}
		if s.TraceID != root.TraceID {
			t.Errorf("%s: trace %s, want the root's %s", s.Name, s.TraceID, root.TraceID)
		}
		if s.Scope != "clrotel/test" || s.Resource["service.name"] != "shop" {
			t.Errorf("%s: scope %q, resource %v", s.Name, s.Scope, s.Resource)
		}
	}
	if root.ParentSpanID != "" || child.ParentSpanID != root.SpanID || grandchild.ParentSpanID != child.SpanID {
		t.Errorf("parents: root %q, child %q (root %s), grandchild %q (child %s)",
			root.ParentSpanID, child.ParentSpanID, root.SpanID, grandchild.ParentSpanID, child.SpanID)
	}
	if root.Kind != "server" || child.Kind != "internal" {
		t.Errorf("kinds %q %q", root.Kind, child.Kind)
	}
	if !child.Start.Equal(base.Add(time.Millisecond)) || !child.End.Equal(base.Add(3*time.Millisecond)) || child.Duration() != 2*time.Millisecond {
		t.Errorf("child times %v .. %v (%v)", child.Start, child.End, child.Duration())
	}
	wantAttrs := map[string]any{
		"s": "v", "i": int64(-7), "f": 1.5, "b": true,
		"ss": []any{"x", "y"}, "is": []any{int64(1), int64(2)},
	}
	if !reflect.DeepEqual(child.Attrs, wantAttrs) {
		t.Errorf("attrs\n got %#v\nwant %#v", child.Attrs, wantAttrs)
	}
	if len(root.Attrs) != 0 || root.Attrs == nil {
		t.Errorf("root attrs %#v, want empty and not nil", root.Attrs)
	}
	wantEvent := Event{
		Name: "exception",
		Time: base.Add(2500 * time.Microsecond),
		Attrs: map[string]any{
			"exception.type":    "System.InvalidOperationException",
			"exception.message": "boom",
		},
	}
	if len(child.Events) != 1 || child.Events[0].Name != wantEvent.Name || !child.Events[0].Time.Equal(wantEvent.Time) ||
		!reflect.DeepEqual(child.Events[0].Attrs, wantEvent.Attrs) {
		t.Errorf("events\n got %+v\nwant [%+v]", child.Events, wantEvent)
	}
	if child.StatusCode != "error" || child.StatusMsg != "boom" || root.StatusCode != "unset" {
		t.Errorf("status: child %q %q, root %q", child.StatusCode, child.StatusMsg, root.StatusCode)
	}
}

func TestSinkReceivesSDKExports(t *testing.T) {
	tests := []struct {
		name string
		opts []otlptracegrpc.Option
	}{
		{"plain", nil},
		{"gzip", []otlptracegrpc.Option{otlptracegrpc.WithCompressor("gzip")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := listen(t)
			if got, want := s.Endpoint(), "http://"+s.Addr(); got != want {
				t.Errorf("Endpoint %q, want %q", got, want)
			}
			if !strings.HasPrefix(s.Addr(), "127.0.0.1:") {
				t.Errorf("Addr %q", s.Addr())
			}
			opts := append([]otlptracegrpc.Option{otlptracegrpc.WithInsecure()}, tt.opts...)
			if err := exportFixture(s.Addr(), opts...); err != nil {
				t.Fatal(err)
			}
			checkFixture(t, waitSpans(t, s, 3))
			if got := s.Requests(); got != 1 {
				t.Errorf("Requests %d, want 1", got)
			}
			if got := s.Count(); got != 3 {
				t.Errorf("Count %d, want 3", got)
			}
			if got := len(s.Headers()); got != 1 {
				t.Errorf("%d headers, want 1", got)
			}
		})
	}
}

func TestSinkTLS(t *testing.T) {
	serverCfg, pool := selfSigned(t)
	s := listen(t, WithTLS(serverCfg))
	if got, want := s.Endpoint(), "https://"+s.Addr(); got != want {
		t.Errorf("Endpoint %q, want %q", got, want)
	}
	creds := credentials.NewClientTLSFromCert(pool, "")
	if err := exportFixture(s.Addr(), otlptracegrpc.WithTLSCredentials(creds)); err != nil {
		t.Fatal(err)
	}
	checkFixture(t, waitSpans(t, s, 3))

	// A plain-text exporter cannot talk to it.
	s.Reset()
	if err := exportFixture(s.Addr(), otlptracegrpc.WithInsecure(), otlptracegrpc.WithTimeout(time.Second)); err == nil {
		t.Error("a plain-text export to the TLS receiver succeeded")
	}
	if n := len(s.Spans()); n != 0 {
		t.Errorf("%d spans from the plain-text exporter", n)
	}
}

// selfSigned makes a certificate for 127.0.0.1 that signs itself, and the
// pool that trusts it.
func selfSigned(t *testing.T) (*tls.Config, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "otlpsink test"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key, Leaf: cert}}}, pool
}

func TestSinkExportError(t *testing.T) {
	tests := []struct {
		name string
		err  error
	}{
		{"plain error", errors.New("nope")},
		{"status error", status.Error(grpccodes.ResourceExhausted, "nope")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := listen(t, WithExportError(func() error { return tt.err }))
			err := exportFixture(s.Addr(), otlptracegrpc.WithInsecure())
			if err == nil || !strings.Contains(err.Error(), "nope") {
				t.Fatalf("exporter error %v, want one saying nope", err)
			}
			if got := s.Requests(); got != 1 {
				t.Errorf("Requests %d, want 1", got)
			}
			if n := len(s.Spans()); n != 0 || s.Count() != 0 {
				t.Errorf("a failed export stored %d spans (count %d)", n, s.Count())
			}
		})
	}
}

func TestSinkExportErrorCanRecover(t *testing.T) {
	var calls atomic.Int32
	s := listen(t, WithExportError(func() error {
		if calls.Add(1) == 1 {
			return status.Error(grpccodes.Unavailable, "not yet")
		}
		return nil
	}))
	if err := exportFixture(s.Addr(), otlptracegrpc.WithInsecure()); err == nil {
		t.Fatal("first export succeeded")
	}
	if err := exportFixture(s.Addr(), otlptracegrpc.WithInsecure()); err != nil {
		t.Fatal(err)
	}
	checkFixture(t, waitSpans(t, s, 3))
	if got := s.Requests(); got != 2 {
		t.Errorf("Requests %d, want 2", got)
	}
}

func TestSinkDelay(t *testing.T) {
	const delay = 200 * time.Millisecond
	s := listen(t, WithDelay(delay))
	start := time.Now()
	if err := exportFixture(s.Addr(), otlptracegrpc.WithInsecure()); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took < delay {
		t.Errorf("export answered after %v, want at least %v", took, delay)
	}
}

func TestSinkCountOnly(t *testing.T) {
	s := listen(t, WithCountOnly())
	for range 2 {
		if err := exportFixture(s.Addr(), otlptracegrpc.WithInsecure()); err != nil {
			t.Fatal(err)
		}
	}
	spans := s.WaitIdle(context.Background(), 50*time.Millisecond)
	if s.Count() != 6 || s.Requests() != 2 || len(spans) != 0 || len(s.Headers()) != 0 {
		t.Errorf("count %d, requests %d, %d spans stored; want 6, 2, none", s.Count(), s.Requests(), len(spans))
	}
	var b bytes.Buffer
	if err := s.ExportJSON(&b); err != nil || b.String() != "{}\n" {
		t.Errorf("ExportJSON = %q, %v", b.String(), err)
	}
}

func TestSinkSpanFunc(t *testing.T) {
	var mu sync.Mutex
	var names []string
	s := listen(t, WithSpanFunc(func(sp Span) {
		mu.Lock()
		defer mu.Unlock()
		names = append(names, sp.Name)
	}))
	if err := exportFixture(s.Addr(), otlptracegrpc.WithInsecure()); err != nil {
		t.Fatal(err)
	}
	spans := s.WaitIdle(context.Background(), 50*time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if s.Count() != 3 || len(names) != 3 || len(spans) != 0 {
		t.Errorf("count %d, %d spans handed over (%v), %d stored; want 3, 3, none", s.Count(), len(names), names, len(spans))
	}
}

// WithSpansFunc hands over each request's spans at once, in a slice the
// func may keep.
func TestSinkSpansFunc(t *testing.T) {
	var mu sync.Mutex
	var batches [][]Span
	s := listen(t, WithSpansFunc(func(spans []Span) {
		mu.Lock()
		defer mu.Unlock()
		batches = append(batches, spans)
	}))
	if err := exportFixture(s.Addr(), otlptracegrpc.WithInsecure()); err != nil {
		t.Fatal(err)
	}
	s.WaitIdle(context.Background(), 50*time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	var names []string
	for _, b := range batches {
		if len(b) == 0 {
			t.Error("an empty batch handed over")
		}
		for _, sp := range b {
			names = append(names, sp.Name)
		}
	}
	slices.Sort(names)
	if s.Count() != 3 || len(names) != 3 || len(batches) > s.Requests() {
		t.Errorf("count %d, spans handed over %v in %d batches for %d requests; want 3 spans, a batch at most per request",
			s.Count(), names, len(batches), s.Requests())
	}
}

// With a span func the requests are kept for ExportJSON only when asked.
func TestSinkSpanFuncRawKept(t *testing.T) {
	for _, keep := range []bool{false, true} {
		opts := []Option{WithSpanFunc(func(Span) {})}
		if keep {
			opts = append(opts, WithRawKept())
		}
		s := listen(t, opts...)
		if err := exportFixture(s.Addr(), otlptracegrpc.WithInsecure()); err != nil {
			t.Fatal(err)
		}
		s.WaitIdle(context.Background(), 50*time.Millisecond)
		var b bytes.Buffer
		if err := s.ExportJSON(&b); err != nil {
			t.Fatal(err)
		}
		if got := strings.Count(b.String(), `"spanId"`); (got == 3) != keep || (got == 0) == keep {
			t.Errorf("kept %v: ExportJSON holds %d spans\n%s", keep, got, b.String())
		}
	}
}

func TestWaitSpansTimeout(t *testing.T) {
	s := listen(t)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	spans, err := s.WaitSpans(ctx, 1)
	if !errors.Is(err, context.DeadlineExceeded) || len(spans) != 0 {
		t.Fatalf("WaitSpans = %d spans, %v; want none and the deadline", len(spans), err)
	}
	if spans, err := s.WaitSpans(context.Background(), 0); err != nil || len(spans) != 0 {
		t.Fatalf("WaitSpans(0) = %d spans, %v", len(spans), err)
	}
}

func TestWaitIdle(t *testing.T) {
	const quiet = 100 * time.Millisecond
	t.Run("nothing arrives", func(t *testing.T) {
		s := listen(t)
		start := time.Now()
		spans := s.WaitIdle(context.Background(), quiet)
		if took := time.Since(start); len(spans) != 0 || took < quiet {
			t.Fatalf("%d spans after %v", len(spans), took)
		}
	})
	t.Run("context ends first", func(t *testing.T) {
		s := listen(t)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		start := time.Now()
		s.WaitIdle(ctx, time.Hour)
		if took := time.Since(start); took > 5*time.Second {
			t.Fatalf("returned after %v", took)
		}
	})
	t.Run("waits out an export in progress", func(t *testing.T) {
		const delay = 300 * time.Millisecond
		s := listen(t, WithDelay(delay))
		done := make(chan error, 1)
		go func() { done <- exportFixture(s.Addr(), otlptracegrpc.WithInsecure()) }()
		for s.Requests() == 0 {
			time.Sleep(5 * time.Millisecond)
		}
		spans := s.WaitIdle(context.Background(), quiet)
		if len(spans) != 3 {
			t.Errorf("WaitIdle returned %d spans while an export was in progress, want 3", len(spans))
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	})
}

func TestReset(t *testing.T) {
	s := listen(t)
	if err := exportFixture(s.Addr(), otlptracegrpc.WithInsecure()); err != nil {
		t.Fatal(err)
	}
	waitSpans(t, s, 3)
	s.Reset()
	if len(s.Spans()) != 0 || s.Requests() != 0 || s.Count() != 0 || len(s.Headers()) != 0 {
		t.Fatalf("after Reset: %d spans, %d requests, count %d", len(s.Spans()), s.Requests(), s.Count())
	}
	var b bytes.Buffer
	if err := s.ExportJSON(&b); err != nil || b.String() != "{}\n" {
		t.Fatalf("ExportJSON after Reset = %q, %v", b.String(), err)
	}
}

func TestExportJSON(t *testing.T) {
	s := listen(t)
	for range 2 {
		if err := exportFixture(s.Addr(), otlptracegrpc.WithInsecure()); err != nil {
			t.Fatal(err)
		}
	}
	spans := waitSpans(t, s, 6)
	var b bytes.Buffer
	if err := s.ExportJSON(&b); err != nil {
		t.Fatal(err)
	}

	// It reads back as an ExportTraceServiceRequest, the two exports of
	// the same resource and scope merged.
	var req collectortrace.ExportTraceServiceRequest
	if err := protojson.Unmarshal(b.Bytes(), &req); err != nil {
		t.Fatalf("protojson: %v\n%s", err, b.String())
	}
	n := 0
	for _, rs := range req.GetResourceSpans() {
		for _, ss := range rs.GetScopeSpans() {
			n += len(ss.GetSpans())
		}
	}
	if n != 6 || len(req.GetResourceSpans()) != 1 || len(req.GetResourceSpans()[0].GetScopeSpans()) != 1 {
		t.Errorf("JSON holds %d spans in %d resource spans, want 6 in 1 (with 1 scope)", n, len(req.GetResourceSpans()))
	}

	// Ids are hex and enums numbers, as OTLP/JSON has them.
	var doc struct {
		ResourceSpans []struct {
			ScopeSpans []struct {
				Spans []struct {
					TraceID      string `json:"traceId"`
					SpanID       string `json:"spanId"`
					ParentSpanID string `json:"parentSpanId"`
					Kind         int    `json:"kind"`
					Name         string `json:"name"`
				} `json:"spans"`
			} `json:"scopeSpans"`
		} `json:"resourceSpans"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	got := doc.ResourceSpans[0].ScopeSpans[0].Spans
	if len(got) != len(spans) {
		t.Fatalf("%d spans in JSON, %d received", len(got), len(spans))
	}
	for i, sp := range got {
		want := spans[i]
		if sp.TraceID != want.TraceID || sp.SpanID != want.SpanID || sp.ParentSpanID != want.ParentSpanID || sp.Name != want.Name {
			t.Errorf("span %d in JSON: %+v, want ids %s/%s/%s of %s", i, sp, want.TraceID, want.SpanID, want.ParentSpanID, want.Name)
		}
		if sp.Kind == 0 {
			t.Errorf("span %d: kind not a number: %+v", i, sp)
		}
	}
	if !bytes.HasSuffix(b.Bytes(), []byte("}\n")) || bytes.Count(b.Bytes(), []byte("\n")) != 1 {
		t.Errorf("want one line of JSON, got %q", b.String())
	}
}

func TestCloseStopsAStuckExport(t *testing.T) {
	s, err := Listen("127.0.0.1:0", WithDelay(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- exportFixture(s.Addr(), otlptracegrpc.WithInsecure()) }()
	for s.Requests() == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	start := time.Now()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > closeTimeout+2*time.Second {
		t.Errorf("Close took %v", took)
	}
	if err := <-done; err == nil {
		t.Error("the stuck export succeeded")
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestListenError(t *testing.T) {
	s := listen(t)
	if _, err := Listen(s.Addr()); err == nil || !strings.Contains(err.Error(), "otlpsink") {
		t.Fatalf("Listen on a used port: %v", err)
	}
}

func TestWaitClientsGone(t *testing.T) {
	t.Run("the exporter has exited", func(t *testing.T) {
		s := listen(t)
		if err := exportFixture(s.Addr(), otlptracegrpc.WithInsecure()); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		// The exporter waited for its answer and closed its connection:
		// nothing is left to wait for, however long the quiet period.
		if spans := s.WaitClientsGone(ctx, time.Hour); len(spans) != 3 || ctx.Err() != nil {
			t.Fatalf("%d spans (%v), want the 3 exported as soon as the client is gone", len(spans), ctx.Err())
		}
	})
	t.Run("a client still connected", func(t *testing.T) {
		s := listen(t)
		c, err := net.Dial("tcp", s.Addr())
		if err != nil {
			t.Fatal(err)
		}
		for s.openConns() == 0 { // accepted
			time.Sleep(time.Millisecond)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		done := make(chan []Span, 1)
		go func() { done <- s.WaitClientsGone(ctx, time.Hour) }()
		select {
		case <-done:
			t.Fatal("returned while a client was connected and the quiet period not over")
		default:
		}
		c.Close()
		<-done
		if ctx.Err() != nil {
			t.Fatal("still waiting after the client went")
		}
	})
}
