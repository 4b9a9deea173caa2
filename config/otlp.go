package config

import (
	"fmt"
	"strings"
)

// ExportWarnings reports export settings that are valid but probably not
// meant: OTLP exporter settings the exporter (otlptracegrpc) reads itself
// and follows silently, and an exception signal clrotel does not export.
func ExportWarnings(lookup func(string) (string, bool)) []string {
	get := func(traces, general string) (string, string) {
		if v, ok := lookup(traces); ok && v != "" {
			return traces, v
		}
		v, _ := lookup(general)
		return general, v
	}
	var out []string
	_, endpoint := get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT")
	insecureVar, insecure := get("OTEL_EXPORTER_OTLP_TRACES_INSECURE", "OTEL_EXPORTER_OTLP_INSECURE")
	if strings.HasPrefix(strings.ToLower(endpoint), "https://") && strings.EqualFold(strings.TrimSpace(insecure), "true") {
		out = append(out, fmt.Sprintf("%s=true: spans go to %s without TLS, in plain text, although the endpoint says https", insecureVar, endpoint))
	}
	if v, _ := lookup("OTEL_SEMCONV_EXCEPTION_SIGNAL_OPT_IN"); v != "" && !strings.HasPrefix(v, "span") {
		out = append(out, fmt.Sprintf("OTEL_SEMCONV_EXCEPTION_SIGNAL_OPT_IN=%s: clrotel exports no logs; exceptions stay span events", v))
	}
	return out
}
