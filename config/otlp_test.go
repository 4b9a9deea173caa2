package config

import "testing"

func TestExportWarnings(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want int
	}{
		{"nothing set", nil, 0},
		{"https, secure", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "https://c:4317"}, 0},
		{"http, insecure", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4317", "OTEL_EXPORTER_OTLP_INSECURE": "true"}, 0},
		{"https, insecure", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "HTTPS://c:4317", "OTEL_EXPORTER_OTLP_INSECURE": "TRUE"}, 1},
		{"traces https, general insecure", map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "https://c:4317", "OTEL_EXPORTER_OTLP_INSECURE": "true"}, 1},
		{"traces insecure false wins", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "https://c:4317", "OTEL_EXPORTER_OTLP_INSECURE": "true", "OTEL_EXPORTER_OTLP_TRACES_INSECURE": "false"}, 0},
		// Exceptions are span events: the default forms say so.
		{"exceptions as span events", map[string]string{"OTEL_SEMCONV_EXCEPTION_SIGNAL_OPT_IN": "span"}, 0},
		{"exceptions as span events, and logs", map[string]string{"OTEL_SEMCONV_EXCEPTION_SIGNAL_OPT_IN": "span/dup"}, 0},
		{"exceptions as logs", map[string]string{"OTEL_SEMCONV_EXCEPTION_SIGNAL_OPT_IN": "logs"}, 1},
		{"exceptions as logs, and https insecure", map[string]string{"OTEL_SEMCONV_EXCEPTION_SIGNAL_OPT_IN": "logs", "OTEL_EXPORTER_OTLP_ENDPOINT": "https://c:4317", "OTEL_EXPORTER_OTLP_INSECURE": "true"}, 2},
	}
	for _, tt := range tests {
		lookup := func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok }
		if got := ExportWarnings(lookup); len(got) != tt.want {
			t.Errorf("%s: %q, want %d warnings", tt.name, got, tt.want)
		}
	}
}
