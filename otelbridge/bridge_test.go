package otelbridge

import (
	"context"
	"testing"
	"time"

	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

func newTestBridge(t *testing.T) (*Bridge, *tracetest.SpanRecorder) {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec), sdktrace.WithIDGenerator(IDGenerator{}))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	return New(tp.Tracer(ScopeName)), rec
}

func TestBridgeNestsPerThread(t *testing.T) {
	b, rec := newTestBridge(t)
	outer := NewMethod(MethodInfo{Module: "Shop.dll", Assembly: "Shop", FunctionName: "Acme.Shop.Cart.Add", Params: "Acme.Shop.Item item, Int32 quantity", ReturnType: "Void"})
	inner := NewMethod(MethodInfo{Module: "Shop.dll", FunctionName: "Acme.Shop.Cart.Check", ReturnType: "Boolean"})
	t1, t2 := NewThread(11), NewThread(12)
	tid := trace.TraceID{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}

	b.Enter(t1, 1000, outer, tid)
	b.Enter(t2, 1500, outer, trace.TraceID{})
	b.Enter(t1, 2000, inner, trace.TraceID{})
	b.Exit(t1, 3000, ExitReturn)
	b.Exit(t2, 3500, ExitUnwind)
	b.Exit(t1, 4000, ExitTailcall)
	if b.Exit(t1, 5000, ExitReturn) {
		t.Fatal("Exit on an empty stack reported true")
	}

	spans := rec.Ended()
	if len(spans) != 3 {
		t.Fatalf("got %d spans, want 3", len(spans))
	}
	byStart := map[int64]sdktrace.ReadOnlySpan{}
	for _, s := range spans {
		byStart[s.StartTime().UnixNano()] = s
	}
	root1, root2, child := byStart[1000], byStart[1500], byStart[2000]
	if root1.Name() != "Shop.dll!Acme.Shop.Cart.Add(Acme.Shop.Item item, Int32 quantity)" {
		t.Errorf("name %q", root1.Name())
	}
	if root1.SpanContext().TraceID() != tid {
		t.Errorf("root trace id %v, want the hook's %v", root1.SpanContext().TraceID(), tid)
	}
	if child.Parent().SpanID() != root1.SpanContext().SpanID() || child.SpanContext().TraceID() != tid {
		t.Errorf("child not under root1")
	}
	if root2.Parent().IsValid() || root2.SpanContext().TraceID() == tid {
		t.Errorf("thread 2's call must start its own trace")
	}
	if root2.Status().Code != codes.Error {
		t.Errorf("unwound span status %v", root2.Status())
	}
	if got := child.EndTime().UnixNano(); got != 3000 {
		t.Errorf("child end %d", got)
	}
	attrs := map[string]string{}
	for _, kv := range root1.Attributes() {
		attrs[string(kv.Key)] = kv.Value.Emit()
	}
	for k, want := range map[string]string{
		"code.function.name":        "Acme.Shop.Cart.Add",
		"dotnet.method.return_type": "Void",
		"dotnet.module":             "Shop.dll",
		"dotnet.assembly":           "Shop",
		"thread.id":                 "11",
		"clrotel.end_reason":        "tailcall",
	} {
		if attrs[k] != want {
			t.Errorf("attribute %s = %q, want %q", k, attrs[k], want)
		}
	}
}

func TestBridgeAbandon(t *testing.T) {
	b, rec := newTestBridge(t)
	m := NewMethod(MethodInfo{FunctionName: "A.B.C"})
	th := NewThread(1)
	for i := 0; i < 5; i++ {
		b.Enter(th, int64(i), m, trace.TraceID{})
	}
	b.Abandon(th, int64(time.Second))
	if th.Depth() != 0 || len(rec.Ended()) != 5 {
		t.Fatalf("depth %d, ended %d", th.Depth(), len(rec.Ended()))
	}
	if rec.Ended()[0].Name() != "A.B.C()" {
		t.Errorf("name without module: %q", rec.Ended()[0].Name())
	}
}

func TestEndpointAddr(t *testing.T) {
	tests := []struct{ traces, all, want string }{
		{"", "", "localhost:4317"},
		{"", "http://127.0.0.1:4317", "127.0.0.1:4317"},
		{"", "https://collector.example:443", "collector.example:443"},
		{"http://t:55680", "http://127.0.0.1:4317", "t:55680"},
		{"", "http://collector", "collector:4317"},
		{"", "collector:9999", "collector:9999"},
		{"", "http://[::1]:4317", "[::1]:4317"},
	}
	for _, tt := range tests {
		env := map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": tt.traces, "OTEL_EXPORTER_OTLP_ENDPOINT": tt.all}
		if got := EndpointAddr(func(k string) string { return env[k] }); got != tt.want {
			t.Errorf("%q/%q: %q, want %q", tt.traces, tt.all, got, tt.want)
		}
	}
}

func TestMinDuration(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	pipe, err := NewPipeline(context.Background(), ExportOptions{Exporter: exp})
	if err != nil {
		t.Fatal(err)
	}
	b := New(pipe.Tracer)
	b.SetMinDuration(1000)
	m := NewMethod(MethodInfo{FunctionName: "A.B.C"})
	th := NewThread(1)
	b.Enter(th, 0, m, trace.TraceID{})  // root: kept whatever its length
	b.Enter(th, 10, m, trace.TraceID{}) // long child: kept
	b.Enter(th, 20, m, trace.TraceID{}) // short grandchild: dropped
	b.Exit(th, 30, ExitReturn)
	b.Exit(th, 5000, ExitReturn)
	b.Enter(th, 5100, m, trace.TraceID{}) // short child: dropped
	b.Enter(th, 5110, m, trace.TraceID{}) // its short child: dropped too
	b.Exit(th, 5120, ExitReturn)
	b.Exit(th, 5200, ExitReturn)
	b.Enter(th, 6000, m, trace.TraceID{}) // short but failed: kept
	b.Exit(th, 6001, ExitUnwind)
	b.Exit(th, 9000, ExitReturn)
	// (The in-memory exporter forgets everything on Shutdown: flush instead.)
	if err := pipe.Provider.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	spans := exp.GetSpans()
	if len(spans) != 3 {
		t.Fatalf("%d spans exported, want 3 (root, long child, failed child)", len(spans))
	}
	for _, s := range spans {
		var dropped int64 = -1
		for _, kv := range s.Attributes {
			if kv.Key == KeyDroppedShort {
				dropped = kv.Value.AsInt64()
			}
		}
		switch s.StartTime.UnixNano() {
		case 0:
			if dropped != 2 {
				t.Errorf("root counts %d dropped, want 2", dropped)
			}
		case 10:
			if dropped != 1 {
				t.Errorf("long child counts %d dropped, want 1", dropped)
			}
		}
	}
}
