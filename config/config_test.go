package config

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/clrotel/clrotel/shedding"
)

func env(kv ...string) func(string) (string, bool) {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestFromEnv(t *testing.T) {
	tests := []struct {
		name    string
		env     []string
		check   func(Config) bool
		wantErr string
	}{
		{"defaults", nil, func(c Config) bool { return reflect.DeepEqual(c, Default()) }, ""},
		{"patterns", []string{"CLROTEL_INCLUDE", " Acme.*, ,Shop.Cart.*", "CLROTEL_EXCLUDE", "*.get_*"},
			func(c Config) bool {
				return reflect.DeepEqual(c.Include, []string{"Acme.*", "Shop.Cart.*"}) && reflect.DeepEqual(c.Exclude, []string{"*.get_*"})
			}, ""},
		{"ring", []string{"CLROTEL_RING_KB", "64"}, func(c Config) bool { return c.RingBytes == 64<<10 }, ""},
		{"ring not power of two", []string{"CLROTEL_RING_KB", "100"}, nil, "power of two"},
		{"ring grows in bursts by default", nil, func(c Config) bool { return c.RingCapacity() == DefaultBurstBytes && c.RingBytes == 512<<10 }, ""},
		{"ring burst", []string{"CLROTEL_RING_BURST_KB", "2048"}, func(c Config) bool { return c.RingCapacity() == 2048<<10 }, ""},
		{"ring burst off", []string{"CLROTEL_RING_BURST_KB", "0"}, func(c Config) bool { return c.RingCapacity() == c.RingBytes }, ""},
		{"ring burst below the ring", []string{"CLROTEL_RING_KB", "1024", "CLROTEL_RING_BURST_KB", "64"}, func(c Config) bool { return c.RingCapacity() == 1024<<10 }, ""},
		{"ring burst not power of two", []string{"CLROTEL_RING_BURST_KB", "3000"}, nil, "CLROTEL_RING_BURST_KB=3000: want 0 or a power of two"},
		{"threads out of range", []string{"CLROTEL_MAX_THREADS", "0"}, nil, "CLROTEL_MAX_THREADS"},
		{"threads garbage", []string{"CLROTEL_MAX_THREADS", "lots"}, nil, "whole number"},
		{"log level", []string{"CLROTEL_LOG_LEVEL", "loud"}, nil, "CLROTEL_LOG_LEVEL"},
		{"batch span processor variables", []string{"OTEL_BSP_MAX_QUEUE_SIZE", "100", "OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "10", "OTEL_BSP_SCHEDULE_DELAY", "250"},
			func(c Config) bool {
				return c.ExportQueue == 100 && c.ExportBatch == 10 && c.ExportInterval == 250*time.Millisecond
			}, ""},
		{"schedule delay garbage", []string{"OTEL_BSP_SCHEDULE_DELAY", "5s"}, nil, "OTEL_BSP_SCHEDULE_DELAY"},
		{"folding on by default", nil, func(c Config) bool {
			return c.Fold.Enabled && c.Fold.MinCalls == 250 && c.Fold.MaxDuration == 20*time.Microsecond && c.MaxSpansPerTrace == 10000
		}, ""},
		{"folding settings", []string{"CLROTEL_FOLD", "off", "CLROTEL_FOLD_MIN_CALLS", "50", "CLROTEL_FOLD_MAX_US", "20",
			"CLROTEL_FOLD_EXEMPT", "Acme.A.*, Acme.B.Get", "CLROTEL_MAX_SPANS_PER_TRACE", "0"},
			func(c Config) bool {
				return !c.Fold.Enabled && c.Fold.MinCalls == 50 && c.Fold.MaxDuration == 20*time.Microsecond &&
					reflect.DeepEqual(c.Fold.Exempt, []string{"Acme.A.*", "Acme.B.Get"}) && c.MaxSpansPerTrace == 0
			}, ""},
		{"value spans per trace", nil, func(c Config) bool { return c.MaxValueSpansPerTrace == DefaultValueSpansPerTrace }, ""},
		{"value spans per trace set", []string{"CLROTEL_MAX_VALUE_SPANS_PER_TRACE", "0"}, func(c Config) bool { return c.MaxValueSpansPerTrace == 0 }, ""},
		{"value spans per trace garbage", []string{"CLROTEL_MAX_VALUE_SPANS_PER_TRACE", "-1"}, nil, "CLROTEL_MAX_VALUE_SPANS_PER_TRACE"},
		{"fold switch garbage", []string{"CLROTEL_FOLD", "sometimes"}, nil, "CLROTEL_FOLD"},
		{"re-JIT on by default", nil, func(c Config) bool { return c.Fold.ReJIT.Enabled && c.Fold.ReJIT.Interval > 0 }, ""},
		{"re-JIT off", []string{"CLROTEL_FOLD_REJIT", "off"}, func(c Config) bool { return !c.Fold.ReJIT.Enabled }, ""},
		{"re-JIT period", []string{"CLROTEL_FOLD_REJIT_MS", "7"}, func(c Config) bool { return c.Fold.ReJIT.Interval == 7*time.Millisecond }, ""},
		{"re-JIT period out of range", []string{"CLROTEL_FOLD_REJIT_MS", "0"}, func(c Config) bool { return c.Fold.ReJIT.Interval == Default().Fold.ReJIT.Interval }, "CLROTEL_FOLD_REJIT_MS"},
		{"re-JIT garbage", []string{"CLROTEL_FOLD_REJIT", "later"}, nil, "CLROTEL_FOLD_REJIT"},
		{"metrics on by default, for folded methods", nil, func(c Config) bool { return c.Metrics.Enabled && len(c.Metrics.Include) == 0 }, ""},
		{"metrics settings", []string{"CLROTEL_METRICS", "off", "CLROTEL_METRICS_INCLUDE", "Acme.*.Get, Acme.Run"},
			func(c Config) bool {
				return !c.Metrics.Enabled && reflect.DeepEqual(c.Metrics.Include, []string{"Acme.*.Get", "Acme.Run"})
			}, ""},
		{"metrics switch garbage", []string{"CLROTEL_METRICS", "maybe"}, nil, "CLROTEL_METRICS"},
		{"metric interval", []string{"OTEL_METRIC_EXPORT_INTERVAL", "1000"}, func(c Config) bool { return true }, ""},
		{"metric interval garbage", []string{"OTEL_METRIC_EXPORT_INTERVAL", "10s"}, nil, "OTEL_METRIC_EXPORT_INTERVAL"},
		{"no-code file", []string{"OTEL_EXPERIMENTAL_FILE_BASED_CONFIGURATION_ENABLED", "true", "OTEL_CONFIG_FILE", " /etc/otel.yaml "},
			func(c Config) bool { return c.NoCodeFile == "/etc/otel.yaml" }, ""},
		{"no-code file not enabled", []string{"OTEL_CONFIG_FILE", "/etc/otel.yaml"}, func(c Config) bool { return c.NoCodeFile == "" }, ""},
		{"async on by default", nil, func(c Config) bool { return c.Async && c.AsyncMaxPending == 65536 }, ""},
		{"export CPU budget by default", nil, func(c Config) bool { return c.ExportCPU == shedding.DefaultBudget }, ""},
		{"export CPU budget", []string{"CLROTEL_EXPORT_CPU_PERCENT", "12"}, func(c Config) bool { return c.ExportCPU == 0.12 }, ""},
		{"export CPU budget off", []string{"CLROTEL_EXPORT_CPU_PERCENT", "0"}, func(c Config) bool { return c.ExportCPU == 0 }, ""},
		{"export CPU budget out of range", []string{"CLROTEL_EXPORT_CPU_PERCENT", "101"}, func(c Config) bool { return c.ExportCPU == shedding.DefaultBudget }, "CLROTEL_EXPORT_CPU_PERCENT"},
		{"async settings", []string{"CLROTEL_ASYNC", "off", "CLROTEL_ASYNC_MAX_PENDING", "100"}, func(c Config) bool {
			return !c.Async && c.AsyncMaxPending == 100
		}, ""},
		{"async switch garbage", []string{"CLROTEL_ASYNC", "maybe"}, nil, "CLROTEL_ASYNC"},
		{"async bound zero", []string{"CLROTEL_ASYNC_MAX_PENDING", "0"}, nil, "CLROTEL_ASYNC_MAX_PENDING"},
		{"fold min calls zero", []string{"CLROTEL_FOLD_MIN_CALLS", "0"}, nil, "CLROTEL_FOLD_MIN_CALLS"},
		{"serving by default", nil, func(c Config) bool {
			return c.Serving.After == time.Second && c.Serving.Children == 32 && c.Serving.Entry == nil
		}, ""},
		{"serving settings", []string{"CLROTEL_SERVING_AFTER_MS", "250", "CLROTEL_SERVING_CHILDREN", "0", "CLROTEL_ENTRY", "Acme.Api.*.Handle, Acme.Jobs.Run"},
			func(c Config) bool {
				return c.Serving.After == 250*time.Millisecond && c.Serving.Children == 0 &&
					reflect.DeepEqual(c.Serving.Entry, []string{"Acme.Api.*.Handle", "Acme.Jobs.Run"})
			}, ""},
		{"serving age off", []string{"CLROTEL_SERVING_AFTER_MS", "0"}, func(c Config) bool { return c.Serving.After == 0 }, ""},
		{"serving age garbage", []string{"CLROTEL_SERVING_AFTER_MS", "1s"}, nil, "CLROTEL_SERVING_AFTER_MS"},
		{"serving children garbage", []string{"CLROTEL_SERVING_CHILDREN", "-2"}, nil, "CLROTEL_SERVING_CHILDREN"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := FromEnv(env(tt.env...))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one mentioning %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(c) {
				t.Fatalf("config %+v", c)
			}
		})
	}
}
