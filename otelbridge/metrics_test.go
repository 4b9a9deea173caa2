package otelbridge

import (
	"context"
	"sync"
	"testing"

	"github.com/clrotel/clrotel/methodmetrics"
	"github.com/clrotel/clrotel/serving"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/trace"
)

// memExporter keeps the metrics exported to it.
type memExporter struct {
	mu      sync.Mutex
	exports []metricdata.ResourceMetrics
}

func (e *memExporter) Temporality(k sdkmetric.InstrumentKind) metricdata.Temporality {
	return sdkmetric.DefaultTemporalitySelector(k)
}
func (e *memExporter) Aggregation(k sdkmetric.InstrumentKind) sdkmetric.Aggregation {
	return sdkmetric.DefaultAggregationSelector(k)
}
func (e *memExporter) Export(_ context.Context, rm *metricdata.ResourceMetrics) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.exports = append(e.exports, *rm)
	return nil
}
func (e *memExporter) ForceFlush(context.Context) error { return nil }
func (e *memExporter) Shutdown(context.Context) error   { return nil }

// calls returns each span name's calls in the last export, by status.
func (e *memExporter) calls() map[string]int64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := map[string]int64{}
	if len(e.exports) == 0 {
		return out
	}
	for _, sm := range e.exports[len(e.exports)-1].ScopeMetrics {
		for _, m := range sm.Metrics {
			sum, ok := m.Data.(metricdata.Sum[int64])
			if !ok {
				continue
			}
			for _, dp := range sum.DataPoints {
				name, _ := dp.Attributes.Value(methodmetrics.KeySpanName)
				status, _ := dp.Attributes.Value(methodmetrics.KeyStatusCode)
				out[name.AsString()+" "+status.AsString()] += dp.Value
			}
		}
	}
	return out
}

// TestBridgeMetrics: every call that makes a span is counted in its
// method's metrics, those left out as too short too, failed ones under
// their status; the metrics go out through the metric SDK's reader with the traces' resource,
// and nothing is exported while no method is metered.
func TestBridgeMetrics(t *testing.T) {
	b, pipe, _ := newTestBridge(t, ExportOptions{ServiceName: "svc"})
	reg := methodmetrics.New(methodmetrics.Settings{Enabled: true, Include: []string{"Acme.Get"}}, pipe.ServiceName(), instrumentation.Scope{Name: ScopeName})
	b.SetMetrics(reg)
	b.SetMinDuration(1000)
	exp := &memExporter{}
	mp, err := NewMetricsPipeline(context.Background(), pipe, MetricsOptions{Registry: reg, Exporter: exp})
	if err != nil {
		t.Fatal(err)
	}
	outer := NewMethod(MethodInfo{Module: "A.dll", FunctionName: "Acme.Run"})
	get := NewMethod(MethodInfo{Module: "A.dll", FunctionName: "Acme.Get"})

	if err := mp.ForceFlush(context.Background()); err != nil || len(exp.exports) != 0 {
		t.Fatalf("nothing metered: %d exports (%v)", len(exp.exports), err)
	}
	th := NewThread(1)
	b.Enter(th, 0, outer, trace.TraceID{})
	b.Enter(th, 10, get, trace.TraceID{})
	b.Exit(th, 5000, ExitReturn) // kept
	b.Enter(th, 6000, get, trace.TraceID{})
	b.Exit(th, 6100, ExitReturn) // too short: no span, still a call
	b.Enter(th, 7000, get, trace.TraceID{})
	b.Exit(th, 9000, ExitUnwind) // failed
	b.Exit(th, 10000, ExitReturn)

	if err := mp.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := exp.calls()
	want := map[string]int64{"A.dll!Acme.Get() STATUS_CODE_UNSET": 2, "A.dll!Acme.Get() STATUS_CODE_ERROR": 1}
	if len(got) != len(want) || got["A.dll!Acme.Get() STATUS_CODE_UNSET"] != 2 || got["A.dll!Acme.Get() STATUS_CODE_ERROR"] != 1 {
		t.Errorf("calls %v, want %v (Run neither folded nor named)", got, want)
	}
	if svc, _ := exp.exports[len(exp.exports)-1].Resource.Set().Value("service.name"); svc.AsString() != "svc" {
		t.Errorf("resource service.name %q", svc.AsString())
	}
	// Run is in the registry all the same, for the exit table.
	if top := reg.Top(0); len(top) != 2 {
		t.Errorf("Top: %+v", top)
	}
}

// TestHeldCallsCounted: the first calls of a thread's outermost frame,
// held until its fate is known (firstcalls.go), count in their method's
// metrics when they end, not when they are exported, and once.
func TestHeldCallsCounted(t *testing.T) {
	b, pipe, _ := newTestBridge(t, ExportOptions{ServiceName: "svc"})
	reg := methodmetrics.New(methodmetrics.Settings{Enabled: true, Include: []string{"Acme.Get"}}, pipe.ServiceName(), instrumentation.Scope{Name: ScopeName})
	b.SetMetrics(reg)
	b.SetServing(serving.Default())
	loop := NewMethod(MethodInfo{Module: "A.dll", FunctionName: "Acme.Run"})
	get := NewMethod(MethodInfo{Module: "A.dll", FunctionName: "Acme.Get"})
	gets := func() uint64 {
		for _, s := range reg.Top(0) {
			if s.Function == "Acme.Get" {
				return s.Calls
			}
		}
		return 0
	}
	th := NewThread(1)
	b.Enter(th, 1, loop, trace.TraceID{1})
	for i := int64(0); i < 3; i++ {
		b.Enter(th, 10+i*10, get, trace.TraceID{})
		b.Exit(th, 15+i*10, ExitReturn)
	}
	if len(th.held) != 3 {
		t.Fatalf("%d spans held, want 3", len(th.held))
	}
	if n := gets(); n != 3 {
		t.Errorf("held: Get counted %d calls, want 3", n)
	}
	b.Exit(th, 100, ExitReturn) // released nested
	if n := gets(); n != 3 {
		t.Errorf("released: Get counted %d calls, want 3", n)
	}
}
