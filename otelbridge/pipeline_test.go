package otelbridge

import (
	"context"
	"testing"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/clrotel/clrotel/otlpsink"
)

// TestForceFlushWakesWhenUploadsEnd: a flush is woken by the end of the
// last pending upload, not by a clock. An earlier batch's end (no flush
// waiting) must not end a later flush early, and a flush whose batches all
// end must return: with a lost wake-up it would wait for its context.
func TestForceFlushWakesWhenUploadsEnd(t *testing.T) {
	release := make(chan struct{})
	c := &memClient{hook: func(ctx context.Context, n int) error {
		if n == 1 {
			return nil
		}
		return awaitOrCancel(ctx, release)
	}}
	b, pipe, _ := newTestBridge(t, ExportOptions{Client: c, MaxBatchSize: 1, Uploaders: 1})
	m := NewMethod(MethodInfo{FunctionName: "A.B.C"})
	th := NewThread(1)
	span := func() {
		b.Enter(th, 1, m, trace.TraceID{})
		b.Exit(th, 2, ExitReturn)
	}
	// The first batch ends with nobody flushing: its wake-up stays behind.
	span()
	deadline := time.Now().Add(10 * time.Second)
	for pipe.Stats().Exported < 1 {
		if time.Now().After(deadline) {
			t.Fatal("first batch never uploaded")
		}
		time.Sleep(time.Millisecond)
	}
	span()
	span()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- pipe.ForceFlush(ctx) }()
	select {
	case err := <-done:
		t.Fatalf("flush returned (%v) while 2 batches were blocked", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatalf("flush not woken after its batches ended: %v", err)
	}
	if got := pipe.Stats().Exported; got != 3 {
		t.Errorf("%d spans exported, want 3", got)
	}
}

// TestWarmConnectsBeforeTheFirstSpan: Warm has the default OTLP/gRPC client
// send one request with no spans, so the collector has the connection
// before any span ends; the spans then come as usual. With a custom client
// Warm does nothing.
func TestWarmConnectsBeforeTheFirstSpan(t *testing.T) {
	sink, err := otlpsink.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", sink.Endpoint())
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "")
	pipe, err := NewPipeline(context.Background(), ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b := New(pipe)
	pipe.Warm()
	pipe.Warm() // once
	deadline := time.Now().Add(10 * time.Second)
	for sink.Requests() < 1 {
		if time.Now().After(deadline) {
			t.Fatal("no request reached the collector after Warm")
		}
		time.Sleep(time.Millisecond)
	}
	if n, c := sink.Requests(), sink.Count(); n != 1 || c != 0 {
		t.Fatalf("after Warm: %d requests, %d spans; want 1 request with none", n, c)
	}
	th := NewThread(1)
	b.Enter(th, 1, NewMethod(MethodInfo{FunctionName: "A.B.C"}), trace.TraceID{})
	b.Exit(th, 2, ExitReturn)
	if err := pipe.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := sink.Count(); n != 1 {
		t.Errorf("%d spans received, want 1", n)
	}
	if st := pipe.Stats(); st.Exported != 1 || st.Failed != 0 || st.Lost != 0 {
		t.Errorf("stats %+v, want 1 exported", st)
	}

	mc := &memClient{}
	_, custom, _ := newTestBridge(t, ExportOptions{Client: mc})
	custom.Warm()
	time.Sleep(20 * time.Millisecond)
	mc.mu.Lock()
	started, reqs := mc.started, len(mc.requests)
	mc.mu.Unlock()
	if started != 0 || reqs != 0 {
		t.Errorf("custom client after Warm: %d starts, %d requests; want none", started, reqs)
	}
}
