package main

import (
	"context"

	"go.opentelemetry.io/otel/sdk/instrumentation"

	"github.com/clrotel/clrotel/methodmetrics"
	"github.com/clrotel/clrotel/otelbridge"
)

// startMetrics sets the method metrics up when they are on: the registry
// the bridge counts spans into, the hooks' folded totals read into it
// before each collection, and its export (package methodmetrics decides
// the rest).
func (p *profiler) startMetrics() {
	if !p.cfg.Metrics.Enabled {
		return
	}
	reg := methodmetrics.New(p.cfg.Metrics, p.pipe.ServiceName(), instrumentation.Scope{Name: otelbridge.ScopeName, Version: version})
	reg.Refresh = func() { p.readFolded(reg) }
	e := &methodmetrics.Export{Registry: reg, Stalled: p.pipe.Stalled, StalledWait: otelbridge.StalledWait, Warnf: p.log.Warnf,
		Start: func() (methodmetrics.Exporter, error) {
			return otelbridge.NewMetricsPipeline(context.Background(), p.pipe, otelbridge.MetricsOptions{Registry: reg})
		}}
	// Called on the drainer's goroutine: the export starts beside it.
	reg.OnActive = func() { go e.Begin() }
	p.bridge.SetMetrics(reg)
	p.metrics = e
}

// readFolded hands the registry each function's folded totals, which the
// hooks keep in its C block, and whether it was re-JIT-compiled without
// hooks (its totals stop there).
func (p *profiler) readFolded(reg *methodmetrics.Registry) {
	p.funcs.Each(func(_ uint32, f *function) {
		if e, ok := f.folded(); ok && f.method != nil {
			f.method.MetricSeries(reg).SetFolded(e.Calls, uint64(e.Time), e.Unhooked)
		}
	})
}

// keepHooks reports whether a folded function keeps its hooks: its metrics
// were asked for by name.
func (p *profiler) keepHooks(f *function) bool {
	return f.method != nil && p.cfg.Metrics.KeepHooks(f.method.Function)
}
