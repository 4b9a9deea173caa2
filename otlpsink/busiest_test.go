package otlpsink

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestBusiest(t *testing.T) {
	at := time.Unix(1000, 0)
	span := func(name string, d time.Duration) Span { return Span{Name: name, Start: at, End: at.Add(d)} }
	spans := []Span{
		span("A", time.Millisecond), span("A", 3*time.Millisecond), span("A", 2*time.Millisecond),
		span("B", 5*time.Microsecond),
		span("C", time.Millisecond), span("C", time.Millisecond),
	}
	bounds := []float64{0.001, 0.01, 1}
	attrs := func(status string, rejit bool) map[string]any {
		m := map[string]any{"span.name": "B", "status.code": status}
		if rejit {
			m["clrotel.counted_until"] = "rejit"
		}
		return m
	}
	points := []Point{
		{Metric: "traces.span.metrics.calls", Kind: "sum", Cumulative: true, Attrs: attrs("STATUS_CODE_UNSET", false), Value: 500},
		{Metric: "traces.span.metrics.calls", Kind: "sum", Cumulative: true, Attrs: attrs("STATUS_CODE_UNSET", true), Value: 998},
		{Metric: "traces.span.metrics.calls", Kind: "sum", Cumulative: true, Attrs: attrs("STATUS_CODE_ERROR", false), Value: 2},
		{Metric: "traces.span.metrics.duration", Kind: "histogram", Cumulative: true, Attrs: attrs("STATUS_CODE_UNSET", true),
			Count: 998, Bounds: bounds, BucketCounts: []uint64{0, 998, 0, 0}},
		{Metric: "traces.span.metrics.duration", Kind: "histogram", Cumulative: true, Attrs: attrs("STATUS_CODE_ERROR", false),
			Count: 2, Bounds: bounds, BucketCounts: []uint64{0, 0, 2, 0}},
	}
	got := Busiest(spans, points, 0)
	want := []MethodStat{
		{Name: "B", Calls: 1000, Spans: 1, Folded: true, Rejitted: true, P50: 10 * time.Microsecond, P99: 10 * time.Microsecond},
		{Name: "A", Calls: 3, Spans: 3, P50: 2 * time.Millisecond, P99: 3 * time.Millisecond},
		{Name: "C", Calls: 2, Spans: 2, P50: time.Millisecond, P99: time.Millisecond},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	if top := Busiest(spans, points, 1); len(top) != 1 || top[0].Name != "B" {
		t.Errorf("Busiest(1) = %+v", top)
	}
	for d, want := range map[time.Duration]string{2026861844: "2.03s", 12138 * time.Nanosecond: "12.1µs", 471: "471ns", 0: "0s"} {
		if got := round3(d).String(); got != want {
			t.Errorf("round3(%v) = %s, want %s", d, got, want)
		}
	}
	var b bytes.Buffer
	if err := WriteBusiest(&b, got); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 4 || !strings.Contains(lines[1], "1000") || !strings.Contains(lines[1], "re-JIT") || !strings.HasSuffix(lines[2], "no       A") {
		t.Errorf("table:\n%s", b.String())
	}
}
