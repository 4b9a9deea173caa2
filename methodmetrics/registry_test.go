package methodmetrics

import (
	"context"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

func TestBucket(t *testing.T) {
	for _, c := range []struct {
		ns   int64
		want int
	}{
		{0, 0}, {1000, 0}, {1001, 1}, {2000, 1}, {15 * int64(time.Second), nBuckets - 2}, {16 * int64(time.Second), nBuckets - 1},
	} {
		if got := bucket(c.ns); got != c.want {
			t.Errorf("bucket(%d) = %d, want %d", c.ns, got, c.want)
		}
	}
}

func TestWanted(t *testing.T) {
	s := Settings{Enabled: true, Include: []string{"Acme.*.Get*"}}
	for _, c := range []struct {
		fn   string
		want bool
	}{{"Acme.Box.Get", true}, {"Acme.Box.Set", false}} {
		if got := s.Wanted(c.fn); got != c.want || s.KeepHooks(c.fn) != c.want {
			t.Errorf("Wanted(%q) = %v, want %v", c.fn, got, c.want)
		}
	}
	s.Enabled = false
	if s.Wanted("Acme.Box.Get") {
		t.Error("wanted with metrics off")
	}
}

// point is one data point as the test compares it.
type point struct {
	calls  int64
	count  uint64
	sumMs  float64
	bucket map[int]uint64 // non-zero buckets
	attrs  attribute.Set
}

func produce(t *testing.T, r *Registry) map[string]point {
	t.Helper()
	sms, err := r.Produce(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]point{}
	if len(sms) == 0 {
		return out
	}
	if len(sms) != 1 || len(sms[0].Metrics) != 2 {
		t.Fatalf("produced %+v", sms)
	}
	ms := sms[0].Metrics
	if ms[0].Name != "traces.span.metrics.calls" || ms[1].Name != "traces.span.metrics.duration" || ms[1].Unit != "ms" {
		t.Fatalf("metrics %q %q (%s)", ms[0].Name, ms[1].Name, ms[1].Unit)
	}
	sum := ms[0].Data.(metricdata.Sum[int64])
	h := ms[1].Data.(metricdata.Histogram[float64])
	if !sum.IsMonotonic || sum.Temporality != metricdata.CumulativeTemporality || h.Temporality != metricdata.CumulativeTemporality {
		t.Fatalf("want cumulative monotonic: %+v %+v", sum, h.Temporality)
	}
	for i, dp := range sum.DataPoints {
		name, _ := dp.Attributes.Value(KeySpanName)
		status, _ := dp.Attributes.Value(KeyStatusCode)
		hp := h.DataPoints[i]
		p := point{calls: dp.Value, count: hp.Count, sumMs: hp.Sum, bucket: map[int]uint64{}, attrs: dp.Attributes}
		var n uint64
		for b, c := range hp.BucketCounts {
			n += c
			if c > 0 {
				p.bucket[b] = c
			}
		}
		if n != hp.Count || len(hp.BucketCounts) != len(hp.Bounds)+1 || !hp.Attributes.Equals(&dp.Attributes) {
			t.Errorf("%s: histogram count %d, buckets sum %d, %d buckets for %d bounds", name.AsString(), hp.Count, n, len(hp.BucketCounts), len(hp.Bounds))
		}
		out[name.AsString()+" "+status.AsString()] = p
	}
	return out
}

func TestProduce(t *testing.T) {
	r := New(Settings{Enabled: true, Include: []string{"Acme.Wanted"}}, "shop", instrumentation.Scope{Name: "test"})
	plain := r.Series("A.dll!Acme.Plain()", "Acme.Plain", 0)
	wanted := r.Series("A.dll!Acme.Wanted()", "Acme.Wanted", 0)
	hot := r.Series("A.dll!Acme.Hot()", "Acme.Hot", 2) // shaped as a server span
	if r.Series("A.dll!Acme.Hot()", "Acme.Hot", 0) != hot {
		t.Fatal("a second Series call made a second series")
	}
	plain.Observe(int64(3*time.Millisecond), false)
	wanted.Observe(int64(3*time.Millisecond), false)
	wanted.Observe(int64(500*time.Microsecond), true)
	for range 250 {
		hot.Observe(1500, false) // 1.5 µs: bucket 1
	}

	// Nothing folded yet: only the wanted method is exported.
	got := produce(t, r)
	if len(got) != 2 || got["A.dll!Acme.Wanted() STATUS_CODE_UNSET"].calls != 1 || got["A.dll!Acme.Wanted() STATUS_CODE_ERROR"].calls != 1 {
		t.Fatalf("before folding: %+v", got)
	}
	if p := got["A.dll!Acme.Wanted() STATUS_CODE_ERROR"]; p.bucket[8] != 1 || p.sumMs != 0.5 {
		t.Errorf("failed call: %+v", p)
	}
	wp := got["A.dll!Acme.Wanted() STATUS_CODE_UNSET"]
	svc, _ := wp.attrs.Value(KeyServiceName)
	kind, _ := wp.attrs.Value(KeySpanKind)
	fn, _ := wp.attrs.Value(KeyFunctionName)
	if svc.AsString() != "shop" || kind.AsString() != SpanKindInternal || fn.AsString() != "Acme.Wanted" {
		t.Errorf("attributes %v", wp.attrs)
	}

	// Hot folds: 1000 calls of 10 µs in all, then 3000 more of 20 ns on
	// average; its 250 spans before folding are counted too.
	r.Refresh = func() { hot.SetFolded(1000, 10_000_000, false) }
	got = produce(t, r)
	p := got["A.dll!Acme.Hot() STATUS_CODE_UNSET"]
	if p.calls != 1250 || p.count != 1250 || p.bucket[1] != 250 || p.bucket[3] != 1000 {
		t.Fatalf("folded: %+v", p)
	}
	r.Refresh = func() { hot.SetFolded(4000, 10_060_000, true) }
	got = produce(t, r)
	p = got["A.dll!Acme.Hot() STATUS_CODE_UNSET"]
	if p.calls != 4250 || p.bucket[0] != 3000 || p.bucket[3] != 1000 {
		t.Fatalf("folded again: %+v", p)
	}
	if k, _ := p.attrs.Value(KeySpanKind); k.AsString() != SpanKindServer {
		t.Errorf("span.kind %v, want the method's", k)
	}
	if v, ok := p.attrs.Value(KeyCountedUntil); !ok || v.AsString() != "rejit" {
		t.Errorf("unhooked series without %s: %v", KeyCountedUntil, p.attrs)
	}
	// A racing store read back smaller is ignored: counts never go down.
	r.Refresh = func() { hot.SetFolded(3999, 10_000_000, true) }
	if p := produce(t, r)["A.dll!Acme.Hot() STATUS_CODE_UNSET"]; p.calls != 4250 {
		t.Errorf("after a smaller total: %d calls", p.calls)
	}
	if _, ok := got["A.dll!Acme.Plain() STATUS_CODE_UNSET"]; ok {
		t.Error("a method neither folded nor named is exported")
	}
}

func TestProduceEmpty(t *testing.T) {
	r := New(DefaultSettings(), "svc", instrumentation.Scope{})
	r.Series("x", "X", 0).Observe(10, false)
	if sms, err := r.Produce(context.Background()); err != nil || sms != nil {
		t.Errorf("Produce with nothing metered = %v, %v; want nothing", sms, err)
	}
}

func TestTop(t *testing.T) {
	r := New(DefaultSettings(), "svc", instrumentation.Scope{})
	a, b := r.Series("a", "A", 0), r.Series("b", "B", 0)
	for i := range 100 {
		a.Observe(int64(i+1)*int64(time.Microsecond), i == 0) // 1..100 µs
	}
	b.Observe(int64(time.Millisecond), false)
	r.Refresh = func() { b.SetFolded(1000, 1000*1500, true) }
	top := r.Top(0)
	if len(top) != 2 || top[0].Name != "b" || top[0].Calls != 1001 || top[0].Folded != 1000 || !top[0].Unhooked {
		t.Fatalf("top %+v", top)
	}
	if got := top[1]; got.Calls != 100 || got.Errors != 1 || got.P50 != 50*time.Microsecond || got.P99 != 100*time.Microsecond {
		t.Errorf("a: %+v", got)
	}
	if got := r.Top(1); len(got) != 1 || got[0].Name != "b" {
		t.Errorf("Top(1) = %+v", got)
	}
}

// TestActivate: OnActive runs once, at the first series of a named method
// or the first Activate, never for other methods.
func TestActivate(t *testing.T) {
	r := New(Settings{Enabled: true, Include: []string{"Acme.Named"}}, "svc", instrumentation.Scope{})
	n := 0
	r.OnActive = func() { n++ }
	r.Series("a", "Acme.Other", 0)
	if n != 0 || r.Active() {
		t.Fatalf("active after an unnamed method: %d", n)
	}
	r.Series("b", "Acme.Named", 0)
	r.Series("b", "Acme.Named", 0)
	r.Activate()
	if n != 1 || !r.Active() {
		t.Errorf("OnActive ran %d times, want 1", n)
	}
	r2 := New(DefaultSettings(), "svc", instrumentation.Scope{})
	r2.OnActive = func() { n++ }
	r2.Activate()
	r2.Activate()
	if n != 2 {
		t.Errorf("Activate: OnActive ran %d times in all, want 2", n)
	}
}
