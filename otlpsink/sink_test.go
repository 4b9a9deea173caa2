package otlpsink

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"
)

// export sends a small nested trace to addr with the real SDK exporter.
func export(t *testing.T, addr string, opts ...otlptracegrpc.Option) error {
	t.Helper()
	ctx := context.Background()
	exp, err := otlptracegrpc.New(ctx, append([]otlptracegrpc.Option{otlptracegrpc.WithEndpoint(addr), otlptracegrpc.WithInsecure(),
		otlptracegrpc.WithRetry(otlptracegrpc.RetryConfig{Enabled: false})}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	tr := tp.Tracer("test")
	base := time.Unix(1700000000, 0)
	ctx, root := tr.Start(ctx, "root", trace.WithTimestamp(base))
	_, child := tr.Start(ctx, "child", trace.WithTimestamp(base.Add(time.Millisecond)),
		trace.WithAttributes(attribute.String("s", "v"), attribute.Int64("i", -7), attribute.Float64("f", 1.5), attribute.Bool("b", true), attribute.StringSlice("l", []string{"x", "y"})))
	child.AddEvent("exception", trace.WithAttributes(attribute.String("exception.type", "System.Exception"), attribute.String("exception.message", "boom")))
	child.SetStatus(codes.Error, "boom")
	child.End(trace.WithTimestamp(base.Add(3 * time.Millisecond)))
	root.End(trace.WithTimestamp(base.Add(5 * time.Millisecond)))
	err = exp.ExportSpans(ctx, rec.Ended())
	_ = exp.Shutdown(ctx)
	return err
}

func TestSinkReceivesSDKSpans(t *testing.T) {
	for _, gzip := range []bool{false, true} {
		s, err := Listen("127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		var opts []otlptracegrpc.Option
		if gzip {
			opts = append(opts, otlptracegrpc.WithCompressor("gzip"))
		}
		if err := export(t, s.Addr(), opts...); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		spans, err := s.WaitSpans(ctx, 2)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		var root, child Span
		for _, sp := range spans {
			if sp.Name == "root" {
				root = sp
			} else {
				child = sp
			}
		}
		if root.ParentSpanID != "" || child.ParentSpanID != root.SpanID || child.TraceID != root.TraceID {
			t.Errorf("structure: root %+v child %+v", root, child)
		}
		if child.Attrs["s"] != "v" || child.Attrs["i"] != int64(-7) || child.Attrs["f"] != 1.5 || child.Attrs["b"] != true || len(child.Attrs["l"].([]any)) != 2 {
			t.Errorf("attrs %v", child.Attrs)
		}
		if child.StatusCode != "error" || child.StatusMsg != "boom" || len(child.Events) != 1 || child.Duration() != 2*time.Millisecond {
			t.Errorf("child %+v", child)
		}
		if s.Requests() < 1 || child.Scope != "test" || child.Kind != "internal" {
			t.Errorf("requests %d scope %q kind %q", s.Requests(), child.Scope, child.Kind)
		}

		var buf bytes.Buffer
		if err := s.ExportJSON(&buf); err != nil {
			t.Fatal(err)
		}
		var req collectortrace.ExportTraceServiceRequest
		if err := protojson.Unmarshal(buf.Bytes(), &req); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				n += len(ss.Spans)
			}
		}
		if n != 2 {
			t.Errorf("JSON holds %d spans", n)
		}
		s.Close()
	}
}

func TestSinkExportError(t *testing.T) {
	s, err := Listen("127.0.0.1:0", WithExportError(func() error { return errors.New("nope") }))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := export(t, s.Addr()); err == nil {
		t.Fatal("exporter saw no error")
	}
	if len(s.Spans()) != 0 {
		t.Fatal("failed export stored spans")
	}
}

func TestWaitIdleReturnsAfterQuiet(t *testing.T) {
	s, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	start := time.Now()
	spans := s.WaitIdle(context.Background(), 100*time.Millisecond)
	if len(spans) != 0 || time.Since(start) < 100*time.Millisecond {
		t.Fatalf("%d spans after %v", len(spans), time.Since(start))
	}
}

func TestWriteTree(t *testing.T) {
	base := time.Unix(1700000000, 0)
	spans := []Span{
		{TraceID: "t1", SpanID: "b", ParentSpanID: "a", Name: "Child2", Start: base.Add(2 * time.Millisecond), End: base.Add(3 * time.Millisecond), Attrs: map[string]any{"k": "v"}},
		{TraceID: "t1", SpanID: "a", Name: "Root", Start: base, End: base.Add(10 * time.Millisecond), Attrs: map[string]any{"thread.id": int64(7)}, Resource: map[string]any{"service.name": "shop"}},
		{TraceID: "t1", SpanID: "c", ParentSpanID: "a", Name: "Child1", Start: base.Add(time.Millisecond), End: base.Add(time.Millisecond + 1500*time.Nanosecond), StatusCode: "error", StatusMsg: "System.Exception: boom",
			Events: []Event{{Name: "exception", Attrs: map[string]any{"exception.type": "System.Exception", "exception.message": "boom"}}}},
		{TraceID: "t2", SpanID: "x", ParentSpanID: "gone", Name: "Lost", Start: base.Add(time.Second), End: base.Add(time.Second + 500)},
	}
	var b strings.Builder
	if err := WriteTree(&b, spans, TreeOptions{Attrs: true, Hide: MethodKeys}); err != nil {
		t.Fatal(err)
	}
	want := `trace t1  (3 spans, service shop)
└─ Root  10.000ms  [thread 7]
   ├─ Child1  1.5µs
   │     ERROR: System.Exception: boom
   │     ! exception: System.Exception: boom
   └─ Child2  1.000ms
         k="v"
trace t2  (1 spans, service )
└─ Lost  500ns (orphan)
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	_ = WriteTree(&b, spans, TreeOptions{MaxSpans: 2})
	if !strings.Contains(b.String(), "... 2 more spans") {
		t.Errorf("MaxSpans output:\n%s", b.String())
	}
}
