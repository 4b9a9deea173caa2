#!/usr/bin/env bash
# Builds, once, the trace backends the end-to-end path tests use, from the Go
# module proxy, into .deps/backends/:
#   otelcol   an OpenTelemetry Collector (ocb v0.162.0: otlp receiver,
#             memory_limiter and batch processors, otlp and debug exporters)
#   jaeger    Jaeger v2 (github.com/jaegertracing/jaeger v1.76.0, cmd/jaeger)
# The Collector's contrib jaegerremotesampling extension is not built: the
# module proxy refuses github.com/open-telemetry/opentelemetry-collector-contrib/
# extension/jaegerremotesampling@v0.162.0 (403, "This module version is not
# available") and has no other version ocb v0.162.0 could use (404), so the
# remote sampling tests use Jaeger v2's own remote_sampling extension.
# Idempotent: a binary that exists is not rebuilt. Takes ~15 minutes cold on
# 2 cores. Nothing here is committed: the sources come from the module proxy.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="$PWD/.deps/backends"
mkdir -p "$OUT"
log() { printf 'backends: %s\n' "$*" >&2; }

if [ ! -x "$OUT/otelcol" ]; then
  log "building the OpenTelemetry Collector (ocb v0.162.0)"
  work=$(mktemp -d)
  GOBIN="$work/bin" go install go.opentelemetry.io/collector/cmd/builder@v0.162.0
  cat > "$work/builder.yaml" <<YAML
dist:
  name: otelcol
  description: OpenTelemetry Collector for clrotel's tests
  output_path: $work/dist
receivers:
  - gomod: go.opentelemetry.io/collector/receiver/otlpreceiver v0.162.0
processors:
  - gomod: go.opentelemetry.io/collector/processor/batchprocessor v0.162.0
  - gomod: go.opentelemetry.io/collector/processor/memorylimiterprocessor v0.162.0
exporters:
  - gomod: go.opentelemetry.io/collector/exporter/otlpexporter v0.162.0
  - gomod: go.opentelemetry.io/collector/exporter/debugexporter v0.162.0
YAML
  (cd "$work" && "$work/bin/builder" --config builder.yaml)
  cp "$work/dist/otelcol" "$OUT/otelcol.partial" && mv "$OUT/otelcol.partial" "$OUT/otelcol"
  rm -rf "$work"
  log "otelcol built"
fi

if [ ! -x "$OUT/jaeger" ]; then
  log "building Jaeger v2 (v1.76.0 cmd/jaeger)"
  dir=$(go mod download -json github.com/jaegertracing/jaeger@v1.76.0 | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
  work=$(mktemp -d)
  cp -r "$dir/." "$work/src"
  chmod -R u+w "$work/src"
  (cd "$work/src" && GOFLAGS=-mod=mod go build -trimpath -o "$OUT/jaeger.partial" ./cmd/jaeger)
  mv "$OUT/jaeger.partial" "$OUT/jaeger"
  rm -rf "$work"
  log "jaeger built"
fi
log "ok"
