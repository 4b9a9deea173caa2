package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/clrotel/clrotel/otlpsink"
)

// methodPoints returns the data points of metric name for the method whose
// span name contains method, in the order received.
func methodPoints(pts []otlpsink.Point, name, method string) []otlpsink.Point {
	var out []otlpsink.Point
	for _, p := range pts {
		if sn, _ := p.Attrs["span.name"].(string); p.Metric == name && strings.Contains(sn, method) {
			out = append(out, p)
		}
	}
	return out
}

// TestMethodMetrics: method metrics through the repository's
// collector-config.yaml in a real OpenTelemetry Collector, whose metrics
// pipeline exports to an OTLP receiver. Fold rejit N calls Get(), Step()
// and Rec() N times each, sleeps 2 s, and calls them N times again; all
// three fold. Get() is named in CLROTEL_METRICS_INCLUDE, so it keeps its
// hooks when it folds: its calls counter, exported every 200 ms, grows
// from one export to the next and ends at exactly 2N, its first calls
// (spans) and its folded ones together, and its duration histogram counts
// as many calls. Step() gets metrics because it folds (the default), is
// re-JIT-compiled without hooks during the sleep, and its series says its
// count stops there. With capture on and off, on both runtimes.
func TestMethodMetrics(t *testing.T) {
	const n = 5000
	metrics, err := otlpsink.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer metrics.Close()
	traces, err := otlpsink.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer traces.Close()
	grpcAddr := collector(t, "JAEGER_OTLP_ENDPOINT="+traces.Addr(), "TEMPO_OTLP_ENDPOINT="+traces.Addr(), "METRICS_OTLP_ENDPOINT="+metrics.Addr())

	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		want := runApp(t, rt, "Fold", []string{"rejit", fmt.Sprint(n)}, runOpts{})
		for _, capture := range []string{"on", "off"} {
			t.Run("capture="+capture, func(t *testing.T) {
				service := fmt.Sprintf("clrotel-metrics-%s-%s-%d", rt.Name, capture, time.Now().UnixNano())
				r := runApp(t, rt, "Fold", []string{"rejit", fmt.Sprint(n)}, runOpts{profilerNoSink: true, env: map[string]string{
					"OTEL_EXPORTER_OTLP_ENDPOINT": "http://" + grpcAddr,
					"OTEL_SERVICE_NAME":           service,
					"OTEL_METRIC_EXPORT_INTERVAL": "200",
					"CLROTEL_METRICS_INCLUDE":     "Acme.Fold.Box.Get",
					"CLROTEL_CAPTURE":             capture,
					"CLROTEL_LOG_LEVEL":           "info",
				}})
				if r.ExitCode != want.ExitCode || r.Stdout != want.Stdout {
					t.Fatalf("traced run differs: exit %d\n%s\nwant\n%s\n%s", r.ExitCode, r.Stdout, want.Stdout, r.Stderr)
				}
				if strings.Contains(r.Stderr, "metrics not exported") {
					t.Errorf("export failed:\n%s", r.Stderr)
				}
				// The collector batches for up to 1 s: wait for the last
				// export of Get's count.
				var pts []otlpsink.Point
				deadline := time.Now().Add(20 * time.Second)
				for {
					pts = nil
					for _, p := range metrics.Points() {
						if p.Attrs["service.name"] == service {
							pts = append(pts, p)
						}
					}
					calls := methodPoints(pts, "traces.span.metrics.calls", "Box.Get()")
					if len(calls) > 0 && calls[len(calls)-1].Value >= 2*n || time.Now().After(deadline) {
						break
					}
					time.Sleep(200 * time.Millisecond)
				}
				calls := methodPoints(pts, "traces.span.metrics.calls", "Box.Get()")
				durs := methodPoints(pts, "traces.span.metrics.duration", "Box.Get()")
				if len(calls) == 0 || len(durs) != len(calls) {
					t.Fatalf("%d calls points and %d duration points for Get(); all points:\n%+v\n%s", len(calls), len(durs), pts, r.Stderr)
				}
				last := calls[len(calls)-1]
				if last.Value != 2*n {
					t.Errorf("Get() counted %d calls, want %d", last.Value, 2*n)
				}
				if d := durs[len(durs)-1]; d.Count != 2*n || d.Unit != "ms" {
					t.Errorf("Get()'s duration histogram counts %d calls (%s), want %d", d.Count, d.Unit, 2*n)
				}
				// The counts over the export intervals: cumulative, never
				// going down, and seen before the end (the program sleeps
				// 2 s between its halves).
				grew := false
				for i, p := range calls {
					if !p.Cumulative || p.Attrs["span.kind"] != "SPAN_KIND_INTERNAL" || p.Attrs["status.code"] != "STATUS_CODE_UNSET" ||
						p.Attrs["code.function.name"] != "Acme.Fold.Box.Get" || p.Attrs["clrotel.counted_until"] != nil {
						t.Errorf("point %d: %+v", i, p)
					}
					if i > 0 && p.Value < calls[i-1].Value {
						t.Errorf("count went down: %d then %d", calls[i-1].Value, p.Value)
					}
					if p.Value > 0 && p.Value < 2*n {
						grew = true
					}
				}
				if !grew {
					t.Errorf("no export before the end: counts %v", pointValues(calls))
				}
				t.Logf("Get() calls over the exports: %v", pointValues(calls))
				// Step() is metered because it folded, and counted until its
				// re-JIT without hooks.
				step := methodPoints(pts, "traces.span.metrics.calls", "Box.Step(")
				if len(step) == 0 {
					t.Fatalf("no metrics for the folded Step()")
				}
				t.Logf("Step() calls over the exports: %v", pointValues(step))
				if p := step[len(step)-1]; p.Attrs["clrotel.counted_until"] != "rejit" || p.Value < 250 || p.Value >= 2*n {
					t.Errorf("Step(): %d calls, attributes %v; want it counted until re-JIT", p.Value, p.Attrs)
				}
				// Mark() neither folds nor is named: no metrics.
				if m := methodPoints(pts, "traces.span.metrics.calls", "Box.Mark("); len(m) != 0 {
					t.Errorf("Mark() has metrics: %+v", m)
				}
			})
		}
	})
}

func pointValues(pts []otlpsink.Point) []int64 {
	out := make([]int64, len(pts))
	for i, p := range pts {
		out[i] = p.Value
	}
	return out
}
