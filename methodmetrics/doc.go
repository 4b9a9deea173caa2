// Package methodmetrics keeps a call counter and a duration histogram per
// traced method, folded calls included, and hands them to the OpenTelemetry
// metric SDK as a [go.opentelemetry.io/otel/sdk/metric.Producer]: the SDK's
// periodic reader collects them every OTEL_METRIC_EXPORT_INTERVAL and its
// OTLP exporter sends them.
//
// Names and attributes are the OpenTelemetry Collector spanmetrics
// connector's (traces.span.metrics.calls and .duration in milliseconds, by
// service.name, span.name, span.kind and status.code), so dashboards built
// on that connector read them the same way (docs/user-guide.md, "Method
// metrics").
//
// It owns which methods are exported (Settings: the ones that fold, and
// those the user names), the per-method aggregation, and how folded calls,
// known to the hooks only as totals, enter the histogram. Spans are
// observed on the exporter's side (package otelbridge, as each span ends);
// the hooks' folded totals are read through a Source before each
// collection. Export starts the periodic export only once there is
// something to export, and ends it at exit. It must not touch the runtime or the C side, and nothing here
// runs on the app's threads.
package methodmetrics
