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
	}
	for _, tt := range tests {
		lookup := func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok }
		if got := ExportWarnings(lookup); len(got) != tt.want {
			t.Errorf("%s: %q, want %d warnings", tt.name, got, tt.want)
		}
	}
}
