package otelbridge

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// memClient is an otlptrace.Client that keeps what it is sent, decoded the
// way a collector decodes it (a marshalled ExportTraceServiceRequest).
type memClient struct {
	mu       sync.Mutex
	requests []*coltracepb.ExportTraceServiceRequest
	fail     error         // returned by every upload
	block    chan struct{} // uploads wait until it is closed
	stopped  bool
	started  int // Start calls
	// hook, when set, answers the n-th upload (from 1) instead.
	hook  func(ctx context.Context, n int) error
	calls int
}

func (c *memClient) Start(context.Context) error {
	c.mu.Lock()
	c.started++
	c.mu.Unlock()
	return nil
}
func (c *memClient) Stop(context.Context) error {
	c.mu.Lock()
	c.stopped = true
	c.mu.Unlock()
	return nil
}

func (c *memClient) UploadTraces(ctx context.Context, rs []*tracepb.ResourceSpans) error {
	if c.hook != nil {
		c.mu.Lock()
		c.calls++
		n := c.calls
		c.mu.Unlock()
		return c.hook(ctx, n)
	}
	if c.block != nil {
		select {
		case <-c.block:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if c.fail != nil {
		return c.fail
	}
	wire, err := proto.Marshal(&coltracepb.ExportTraceServiceRequest{ResourceSpans: rs})
	if err != nil {
		return err
	}
	var req coltracepb.ExportTraceServiceRequest
	if err := proto.Unmarshal(wire, &req); err != nil {
		return err
	}
	c.mu.Lock()
	c.requests = append(c.requests, &req)
	c.mu.Unlock()
	return nil
}

func (c *memClient) spans() []*tracepb.Span {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*tracepb.Span
	for _, r := range c.requests {
		for _, rs := range r.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				out = append(out, ss.Spans...)
			}
		}
	}
	return out
}

func newTestBridge(t *testing.T, opts ExportOptions) (*Bridge, *Pipeline, *memClient) {
	t.Helper()
	c, _ := opts.Client.(*memClient)
	if c == nil {
		c = &memClient{}
		opts.Client = c
	}
	pipe, err := NewPipeline(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pipe.Shutdown(context.Background()) })
	return New(pipe), pipe, c
}

// flushed returns every span exported so far.
func flushed(t *testing.T, p *Pipeline, c *memClient) []*tracepb.Span {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := p.ForceFlush(ctx); err != nil {
		t.Fatal(err)
	}
	return c.spans()
}

func attrs(kvs []*commonpb.KeyValue) map[string]any {
	m := map[string]any{}
	for _, kv := range kvs {
		switch v := kv.Value.Value.(type) {
		case *commonpb.AnyValue_StringValue:
			m[kv.Key] = v.StringValue
		case *commonpb.AnyValue_IntValue:
			m[kv.Key] = v.IntValue
		case *commonpb.AnyValue_BoolValue:
			m[kv.Key] = v.BoolValue
		case *commonpb.AnyValue_DoubleValue:
			m[kv.Key] = v.DoubleValue
		default:
			m[kv.Key] = kv.Value
		}
	}
	return m
}

func TestBridgeNestsPerThread(t *testing.T) {
	b, pipe, c := newTestBridge(t, ExportOptions{})
	outer := NewMethod(MethodInfo{Module: "Shop.dll", Assembly: "Shop", FunctionName: "Acme.Shop.Cart.Add", Params: "Acme.Shop.Item item, Int32 quantity", ReturnType: "Void"})
	inner := NewMethod(MethodInfo{Module: "Shop.dll", FunctionName: "Acme.Shop.Cart.Check", ReturnType: "Boolean"})
	t1, t2 := NewThread(11), NewThread(12)
	tid := trace.TraceID{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}

	b.Enter(t1, 1000, outer, tid, attribute.Int64("dotnet.arg.quantity", 3))
	b.Enter(t2, 1500, outer, trace.TraceID{})
	b.Enter(t1, 2000, inner, trace.TraceID{})
	b.Exit(t1, 3000, ExitReturn, attribute.Bool("dotnet.return", true))
	b.Exit(t2, 3500, ExitUnwind)
	b.Exit(t1, 4000, ExitTailcall)
	if b.Exit(t1, 5000, ExitReturn) {
		t.Fatal("Exit on an empty stack reported true")
	}

	spans := flushed(t, pipe, c)
	if len(spans) != 3 {
		t.Fatalf("got %d spans, want 3", len(spans))
	}
	byStart := map[uint64]*tracepb.Span{}
	for _, s := range spans {
		byStart[s.StartTimeUnixNano] = s
		if len(s.SpanId) != 8 || len(s.TraceId) != 16 || s.Kind != tracepb.Span_SPAN_KIND_INTERNAL || s.Flags != 0x101 {
			t.Errorf("span %q: ids %x/%x kind %v flags %#x", s.Name, s.TraceId, s.SpanId, s.Kind, s.Flags)
		}
	}
	root1, root2, child := byStart[1000], byStart[1500], byStart[2000]
	if root1.Name != "Shop.dll!Acme.Shop.Cart.Add(Acme.Shop.Item item, Int32 quantity)" {
		t.Errorf("name %q", root1.Name)
	}
	if trace.TraceID(root1.TraceId) != tid || len(root1.ParentSpanId) != 0 {
		t.Errorf("root trace id %x parent %x, want the hook's %v and none", root1.TraceId, root1.ParentSpanId, tid)
	}
	if string(child.ParentSpanId) != string(root1.SpanId) || trace.TraceID(child.TraceId) != tid {
		t.Errorf("child not under root1")
	}
	if len(root2.ParentSpanId) != 0 || trace.TraceID(root2.TraceId) == tid || !trace.TraceID(root2.TraceId).IsValid() {
		t.Errorf("thread 2's call must start its own trace")
	}
	if root2.Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR || root2.Status.GetMessage() != "exception" {
		t.Errorf("unwound span status %v", root2.Status)
	}
	if root1.Status.GetCode() != tracepb.Status_STATUS_CODE_UNSET {
		t.Errorf("returned span status %v", root1.Status)
	}
	if child.EndTimeUnixNano != 3000 || attrs(child.Attributes)["dotnet.return"] != true {
		t.Errorf("child end %d attrs %v", child.EndTimeUnixNano, attrs(child.Attributes))
	}
	got := attrs(root1.Attributes)
	for k, want := range map[string]any{
		"code.function.name":        "Acme.Shop.Cart.Add",
		"dotnet.method.return_type": "Void",
		"dotnet.module":             "Shop.dll",
		"dotnet.assembly":           "Shop",
		"thread.id":                 int64(11),
		"clrotel.end_reason":        "tailcall",
		"dotnet.arg.quantity":       int64(3),
	} {
		if got[k] != want {
			t.Errorf("attribute %s = %#v, want %#v", k, got[k], want)
		}
	}
	if _, ok := got["clrotel.dropped_calls"]; ok {
		t.Errorf("dropped_calls without drops")
	}
}

func TestBridgeAbandon(t *testing.T) {
	b, pipe, c := newTestBridge(t, ExportOptions{})
	m := NewMethod(MethodInfo{FunctionName: "A.B.C"})
	th := NewThread(1)
	for i := 0; i < 5; i++ {
		b.Enter(th, int64(i), m, trace.TraceID{})
	}
	b.Abandon(th, int64(time.Second))
	spans := flushed(t, pipe, c)
	if th.Depth() != 0 || len(spans) != 5 {
		t.Fatalf("depth %d, ended %d", th.Depth(), len(spans))
	}
	for _, s := range spans {
		if s.Name != "A.B.C()" || attrs(s.Attributes)["clrotel.end_reason"] != "abandoned" {
			t.Errorf("%q %v", s.Name, attrs(s.Attributes))
		}
	}
}

func TestExceptionEvents(t *testing.T) {
	b, pipe, c := newTestBridge(t, ExportOptions{})
	m := NewMethod(MethodInfo{FunctionName: "A.B.Run"})
	th := NewThread(1)
	b.Enter(th, 10, m, trace.TraceID{}) // catches
	b.Enter(th, 20, m, trace.TraceID{}) // unwound
	b.Enter(th, 30, m, trace.TraceID{}) // throws, unwound
	b.Throw(th, 35, Exception{Type: "System.InvalidOperationException", Message: "bad state"})
	b.Exit(th, 36, ExitUnwind)
	b.Exit(th, 37, ExitUnwind)
	b.Catch(th, 38)
	b.Exit(th, 50, ExitReturn)
	// A second thread dies of an unhandled exception.
	th2 := NewThread(2)
	b.Enter(th2, 100, m, trace.TraceID{})
	b.Enter(th2, 110, m, trace.TraceID{})
	b.Throw(th2, 120, Exception{Type: "System.Exception", MessageNull: true})
	b.AbandonUnhandled(th2, 130)

	byStart := map[uint64]*tracepb.Span{}
	for _, s := range flushed(t, pipe, c) {
		byStart[s.StartTimeUnixNano] = s
	}
	for start, want := range map[uint64]struct {
		events []string
		status string // "" for unset
	}{
		30:  {[]string{"exception"}, "System.InvalidOperationException: bad state"},
		20:  {[]string{"exception"}, "System.InvalidOperationException: bad state"},
		10:  {[]string{"exception.caught"}, ""},
		110: {[]string{"exception"}, "unhandled System.Exception"},
		100: {[]string{"exception"}, "unhandled System.Exception"},
	} {
		s := byStart[start]
		if s == nil {
			t.Fatalf("no span started at %d", start)
		}
		var names []string
		for _, e := range s.Events {
			names = append(names, e.Name)
		}
		if len(names) != len(want.events) || (len(names) > 0 && names[0] != want.events[0]) {
			t.Errorf("span %d events %v, want %v", start, names, want.events)
		}
		if want.status == "" && s.Status.GetCode() != tracepb.Status_STATUS_CODE_UNSET ||
			want.status != "" && (s.Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR || s.Status.GetMessage() != want.status) {
			t.Errorf("span %d status %v, want %q", start, s.Status, want.status)
		}
	}
	ev := byStart[30].Events[0]
	a := attrs(ev.Attributes)
	if ev.TimeUnixNano != 35 || a["exception.type"] != "System.InvalidOperationException" || a["exception.message"] != "bad state" ||
		a["exception.stacktrace"] != "   at A.B.Run()\n   at A.B.Run()\n   at A.B.Run()" {
		t.Errorf("throw event %d %v", ev.TimeUnixNano, a)
	}
	if a := attrs(byStart[110].Events[0].Attributes); a["dotnet.exception.message_null"] != true {
		t.Errorf("null message not marked: %v", a)
	}
}

func TestMinDuration(t *testing.T) {
	b, pipe, c := newTestBridge(t, ExportOptions{})
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
	spans := flushed(t, pipe, c)
	if len(spans) != 3 {
		t.Fatalf("%d spans exported, want 3 (root, long child, failed child)", len(spans))
	}
	for _, s := range spans {
		dropped, _ := attrs(s.Attributes)["clrotel.dropped_short_spans"].(int64)
		switch s.StartTimeUnixNano {
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

func TestDroppedCallsOnRoots(t *testing.T) {
	b, pipe, c := newTestBridge(t, ExportOptions{})
	m := NewMethod(MethodInfo{FunctionName: "A.B.C"})
	th := NewThread(1)
	b.SetDroppedCalls(42)
	b.Enter(th, 1, m, trace.TraceID{})
	b.Enter(th, 2, m, trace.TraceID{})
	b.Exit(th, 3, ExitReturn)
	b.Exit(th, 4, ExitReturn)
	for _, s := range flushed(t, pipe, c) {
		got, ok := attrs(s.Attributes)["clrotel.dropped_calls"]
		if root := len(s.ParentSpanId) == 0; root != ok || ok && got != int64(42) {
			t.Errorf("span at %d (root %v): dropped_calls %v", s.StartTimeUnixNano, root, got)
		}
	}
}

func TestAttributeTypes(t *testing.T) {
	b, pipe, c := newTestBridge(t, ExportOptions{})
	m := NewMethod(MethodInfo{FunctionName: "A.B.C"})
	th := NewThread(1)
	long := string(make([]byte, 300)) // a length that takes two varint bytes
	b.Enter(th, 1, m, trace.TraceID{},
		attribute.String("s", long),
		attribute.Float64("f", -2.5),
		attribute.Int64("neg", -7),
		attribute.StringSlice("ss", []string{"a", "", "c"}),
		attribute.Int64Slice("is", []int64{1, -2}),
		attribute.BoolSlice("bs", []bool{true, false}),
		attribute.Float64Slice("fs", []float64{0.5}),
	)
	b.Exit(th, 2, ExitReturn)
	spans := flushed(t, pipe, c)
	if len(spans) != 1 {
		t.Fatalf("%d spans", len(spans))
	}
	a := attrs(spans[0].Attributes)
	if a["s"] != long || a["f"] != -2.5 || a["neg"] != int64(-7) {
		t.Errorf("scalars: %v %v", a["f"], a["neg"])
	}
	arr := func(k string) []*commonpb.AnyValue { return a[k].(*commonpb.AnyValue).GetArrayValue().GetValues() }
	if ss := arr("ss"); len(ss) != 3 || ss[0].GetStringValue() != "a" || ss[2].GetStringValue() != "c" {
		t.Errorf("string slice %v", ss)
	}
	if is := arr("is"); len(is) != 2 || is[1].GetIntValue() != -2 {
		t.Errorf("int slice %v", is)
	}
	if bs := arr("bs"); len(bs) != 2 || !bs[0].GetBoolValue() || bs[1].GetBoolValue() {
		t.Errorf("bool slice %v", bs)
	}
	if fs := arr("fs"); len(fs) != 1 || fs[0].GetDoubleValue() != 0.5 {
		t.Errorf("float slice %v", fs)
	}
}

func TestBatching(t *testing.T) {
	tests := []struct {
		name          string
		opts          ExportOptions
		spans         int
		wantRequests  int
		flushExplicit bool
	}{
		{"by count", ExportOptions{MaxBatchSize: 10, BatchTimeout: time.Hour}, 35, 4, true},
		{"by bytes", ExportOptions{MaxBatchSize: 1000, MaxBatchBytes: 1000, BatchTimeout: time.Hour}, 40, 0, true},
		{"by timeout", ExportOptions{MaxBatchSize: 1000, BatchTimeout: 20 * time.Millisecond}, 5, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, pipe, c := newTestBridge(t, tt.opts)
			m := NewMethod(MethodInfo{Module: "M.dll", FunctionName: "A.B.C", Params: "Int32 x"})
			th := NewThread(1)
			for i := 0; i < tt.spans; i++ {
				b.Enter(th, int64(i), m, trace.TraceID{})
				b.Exit(th, int64(i)+1, ExitReturn)
			}
			if tt.flushExplicit {
				flushed(t, pipe, c)
			} else {
				deadline := time.Now().Add(5 * time.Second)
				for len(c.spans()) < tt.spans && time.Now().Before(deadline) {
					time.Sleep(5 * time.Millisecond)
				}
			}
			c.mu.Lock()
			n := len(c.requests)
			c.mu.Unlock()
			if got := len(c.spans()); got != tt.spans {
				t.Fatalf("%d spans exported, want %d", got, tt.spans)
			}
			if tt.wantRequests > 0 && n != tt.wantRequests {
				t.Errorf("%d requests, want %d", n, tt.wantRequests)
			}
			if tt.opts.MaxBatchBytes > 0 && n < 2 {
				t.Errorf("%d requests: the byte bound did not split batches", n)
			}
			if s := pipe.Stats(); s.Exported != uint64(tt.spans) || s.Failed != 0 || s.Lost != 0 {
				t.Errorf("stats %+v", s)
			}
		})
	}
}

func TestResourceAndScope(t *testing.T) {
	t.Setenv("OTEL_SERVICE_NAME", "")
	t.Setenv("OTEL_RESOURCE_ATTRIBUTES", "deployment.environment=test")
	b, pipe, c := newTestBridge(t, ExportOptions{ServiceName: "svc", Version: "1.2.3", ResourceAttrs: []attribute.KeyValue{attribute.String("process.runtime.name", ".NET")}})
	th := NewThread(1)
	b.Enter(th, 1, NewMethod(MethodInfo{FunctionName: "A.B.C"}), trace.TraceID{})
	b.Exit(th, 2, ExitReturn)
	flushed(t, pipe, c)
	rs := c.requests[0].ResourceSpans
	if len(rs) != 1 || len(rs[0].ScopeSpans) != 1 {
		t.Fatalf("shape %v", rs)
	}
	res := attrs(rs[0].Resource.Attributes)
	for k, want := range map[string]any{"service.name": "svc", "process.runtime.name": ".NET", "deployment.environment": "test", "telemetry.sdk.language": "go"} {
		if res[k] != want {
			t.Errorf("resource %s = %v, want %v", k, res[k], want)
		}
	}
	if sc := rs[0].ScopeSpans[0].Scope; sc.Name != ScopeName || sc.Version != "1.2.3" {
		t.Errorf("scope %v", sc)
	}
}

func TestExportFailuresAreCountedAndReported(t *testing.T) {
	var mu sync.Mutex
	var reports []error
	c := &memClient{fail: errors.New("collector says no")}
	b, pipe, _ := newTestBridge(t, ExportOptions{Client: c, MaxBatchSize: 5, OnError: func(err error) {
		mu.Lock()
		reports = append(reports, err)
		mu.Unlock()
	}})
	m := NewMethod(MethodInfo{FunctionName: "A.B.C"})
	th := NewThread(1)
	for i := 0; i < 12; i++ {
		b.Enter(th, 1, m, trace.TraceID{})
		b.Exit(th, 2, ExitReturn)
	}
	flushed(t, pipe, c)
	if s := pipe.Stats(); s.Failed != 12 || s.Exported != 0 {
		t.Errorf("stats %+v, want 12 failed", s)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reports) != 1 {
		t.Fatalf("%d reports within the interval, want 1: %v", len(reports), reports)
	}
	if !errors.Is(reports[0], c.fail) {
		t.Errorf("report %v does not wrap the upload error", reports[0])
	}
	// What failed after the first report is reported at shutdown.
	mu.Unlock()
	if err := pipe.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if len(reports) != 2 || !strings.Contains(reports[1].Error(), "7 spans in 2 requests") {
		t.Errorf("reports after shutdown: %v; want a second one for the 7 spans of 2 later requests", reports)
	}
}

// A collector that never answers holds the queue, not the caller forever:
// Shutdown gives up at its deadline and counts what it could not send.
func TestShutdownBoundedWithStuckCollector(t *testing.T) {
	c := &memClient{block: make(chan struct{})}
	defer close(c.block)
	b, pipe, _ := newTestBridge(t, ExportOptions{Client: c, MaxBatchSize: 4, MaxQueueSize: 8, Uploaders: 1})
	m := NewMethod(MethodInfo{FunctionName: "A.B.C"})
	th := NewThread(1)
	done := make(chan struct{})
	go func() {
		// 1 batch uploading + 2 queued + 1 filling: all fit without waiting.
		for i := 0; i < 14; i++ {
			b.Enter(th, 1, m, trace.TraceID{})
			b.Exit(th, 2, ExitReturn)
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("adding spans waited though the queue had room")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := pipe.Shutdown(ctx)
	if err == nil || time.Since(start) > 3*time.Second {
		t.Fatalf("shutdown: %v after %v", err, time.Since(start))
	}
	if s := pipe.Stats(); s.Lost+s.Failed != 14 || s.Exported != 0 {
		t.Errorf("stats %+v: want all 14 lost or failed", s)
	}
	if !c.stopped {
		t.Error("client not stopped")
	}
}

// After a failed upload, the exit flush does not wait out its deadline on a
// collector that does not answer.
func TestShutdownGivesUpEarlyOnFailingCollector(t *testing.T) {
	c := &memClient{hook: func(ctx context.Context, n int) error {
		if n == 1 {
			return errors.New("unavailable")
		}
		<-ctx.Done() // hung
		return ctx.Err()
	}}
	b, pipe, _ := newTestBridge(t, ExportOptions{Client: c, MaxBatchSize: 1, Uploaders: 1})
	m := NewMethod(MethodInfo{FunctionName: "A.B.C"})
	th := NewThread(1)
	b.Enter(th, 1, m, trace.TraceID{})
	b.Exit(th, 2, ExitReturn)
	for deadline := time.Now().Add(5 * time.Second); pipe.Stats().Failed == 0; {
		if time.Now().After(deadline) {
			t.Fatal("first upload never failed")
		}
		time.Sleep(time.Millisecond)
	}
	for i := 0; i < 3; i++ {
		b.Enter(th, 1, m, trace.TraceID{})
		b.Exit(th, 2, ExitReturn)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	err := pipe.Shutdown(ctx)
	if took := time.Since(start); !errors.Is(err, ErrStalled) || took > 3*StalledWait {
		t.Fatalf("shutdown after %v: %v; want ErrStalled within about %v", took, err, StalledWait)
	}
	if s := pipe.Stats(); s.Exported != 0 || s.Failed+s.Lost != 4 {
		t.Errorf("stats %+v: want the 4 spans failed or lost", s)
	}
}

// A healthy collector gets the whole deadline: a slow answer is waited for.
func TestShutdownWaitsForAnsweringCollector(t *testing.T) {
	c := &memClient{hook: func(ctx context.Context, n int) error {
		return awaitOrCancel(ctx, time.After(300*time.Millisecond))
	}}
	b, pipe, _ := newTestBridge(t, ExportOptions{Client: c, MaxBatchSize: 1, Uploaders: 1})
	m := NewMethod(MethodInfo{FunctionName: "A.B.C"})
	th := NewThread(1)
	for i := 0; i < 4; i++ {
		b.Enter(th, 1, m, trace.TraceID{})
		b.Exit(th, 2, ExitReturn)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := pipe.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if s := pipe.Stats(); s.Exported != 4 {
		t.Errorf("stats %+v: want all 4 exported", s)
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
		// The same rules for metrics, from their own variable.
		menv := map[string]string{"OTEL_EXPORTER_OTLP_METRICS_ENDPOINT": tt.traces, "OTEL_EXPORTER_OTLP_ENDPOINT": tt.all}
		if got := MetricsEndpointAddr(func(k string) string { return menv[k] }); got != tt.want {
			t.Errorf("metrics %q/%q: %q, want %q", tt.traces, tt.all, got, tt.want)
		}
	}
}

// Shutdown asks the collector nothing (no probe, no stall watch) only when
// no span waits: none being batched, none queued or uploading.
func TestPipelineIdle(t *testing.T) {
	release := make(chan struct{})
	c := &memClient{hook: func(ctx context.Context, n int) error {
		<-release
		return nil
	}}
	b, pipe, _ := newTestBridge(t, ExportOptions{Client: c, MaxBatchSize: 2, Uploaders: 1})
	if !pipe.idle() {
		t.Fatal("a new pipeline is not idle")
	}
	m := NewMethod(MethodInfo{FunctionName: "A.B.C"})
	th := NewThread(1)
	b.Enter(th, 1, m, trace.TraceID{})
	b.Exit(th, 2, ExitReturn)
	if pipe.idle() {
		t.Error("idle with a span in the batch being filled")
	}
	b.Enter(th, 1, m, trace.TraceID{})
	b.Exit(th, 2, ExitReturn) // the batch is full: handed to the uploader, which waits
	if pipe.idle() {
		t.Error("idle with a batch uploading")
	}
	close(release)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := pipe.ForceFlush(ctx); err != nil {
		t.Fatal(err)
	}
	if !pipe.idle() {
		t.Error("not idle once every span was sent")
	}
	if err := pipe.Shutdown(ctx); err != nil || pipe.Stats().Exported != 2 {
		t.Errorf("shutdown: %v, stats %+v", err, pipe.Stats())
	}
}

// The client starts with the first span, once, and a pipeline that never
// got one neither starts nor stops it: an app in which nothing is traced
// pays for no exporter.
func TestPipelineStartsWithFirstSpan(t *testing.T) {
	_, idle, c := newTestBridge(t, ExportOptions{})
	if err := idle.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if c.started != 0 || c.stopped {
		t.Errorf("no span: client started %d times, stopped %v", c.started, c.stopped)
	}
	b, pipe, c := newTestBridge(t, ExportOptions{})
	if c.started != 0 {
		t.Fatalf("client started before any span")
	}
	m := NewMethod(MethodInfo{FunctionName: "A.B.C"})
	th := NewThread(1)
	for i := 0; i < 3; i++ {
		b.Enter(th, 1, m, trace.TraceID{})
		b.Exit(th, 2, ExitReturn)
	}
	if err := pipe.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if c.started != 1 || !c.stopped || pipe.Stats().Exported != 3 || len(c.spans()) != 3 {
		t.Errorf("client started %d times, stopped %v; stats %+v", c.started, c.stopped, pipe.Stats())
	}
}

// awaitOrCancel waits for ch, or for ctx to end (its error).
func awaitOrCancel[T any](ctx context.Context, ch <-chan T) error {
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// TestKindAndStatus: a method's kind is its spans'; a status set on the
// innermost span applies when its call returns (OK with no message, or
// an error with its description), and not when it unwinds.
func TestKindAndStatus(t *testing.T) {
	b, pipe, c := newTestBridge(t, ExportOptions{})
	m := NewMethod(MethodInfo{FunctionName: "Acme.Serve"})
	m.Kind = 2
	th := NewThread(1)
	for _, tt := range []struct {
		set  Status
		kind ExitKind
	}{{StatusOK, ExitReturn}, {StatusError, ExitReturn}, {StatusOK, ExitUnwind}, {StatusUnset, ExitReturn}} {
		b.Enter(th, 1, m, trace.TraceID{})
		b.SetStatus(th, tt.set, "declined")
		b.Exit(th, 2, tt.kind)
	}
	spans := flushed(t, pipe, c)
	if len(spans) != 4 {
		t.Fatalf("%d spans", len(spans))
	}
	want := []struct {
		code tracepb.Status_StatusCode
		msg  string
	}{{tracepb.Status_STATUS_CODE_OK, ""}, {tracepb.Status_STATUS_CODE_ERROR, "declined"}, {tracepb.Status_STATUS_CODE_ERROR, "exception"}, {tracepb.Status_STATUS_CODE_UNSET, ""}}
	for i, s := range spans {
		if s.Kind != tracepb.Span_SPAN_KIND_SERVER || s.GetStatus().GetCode() != want[i].code || s.GetStatus().GetMessage() != want[i].msg {
			t.Errorf("span %d: kind %v, status %v", i, s.Kind, s.GetStatus())
		}
	}
}
