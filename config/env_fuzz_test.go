package config

import (
	"math"
	"strings"
	"testing"

	"github.com/clrotel/clrotel/sampling"
)

// FuzzFromEnv feeds arbitrary values to the variables that need parsing:
// whatever they hold, FromEnv returns a usable configuration (bad values
// fall back and are reported), never panics.
func FuzzFromEnv(f *testing.F) {
	f.Add("traceidratio", "0.25", "Acme.*,*.Get*", "Acme.*=never;*.Get*=0.5", "64", "100", "1ms")
	f.Add("parentbased_traceidratio", "NaN", ",,", "=", "3", "-1", "-5s")
	f.Add("ALWAYS_OFF", "1e400", "*", "x=2", "4294967296", "1.5", "1h")
	f.Add("", "", "", "", "", "", "")
	f.Fuzz(func(t *testing.T, sampler, arg, include, rules, ringKB, rate, minDur string) {
		env := map[string]string{
			"OTEL_TRACES_SAMPLER":     sampler,
			"OTEL_TRACES_SAMPLER_ARG": arg,
			"CLROTEL_INCLUDE":         include,
			"CLROTEL_SAMPLING_RULES":  rules,
			"CLROTEL_RING_KB":         ringKB,
			"CLROTEL_RATE_LIMIT":      rate,
			"CLROTEL_MIN_DURATION":    minDur,
			"OTEL_BSP_SCHEDULE_DELAY": ringKB,
		}
		c, err := FromEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
		if err != nil && !strings.HasPrefix(err.Error(), "config: ") {
			t.Fatalf("error without context: %v", err)
		}
		switch c.Sampling.Sampler {
		case sampling.AlwaysOn, sampling.AlwaysOff, sampling.TraceIDRatio,
			sampling.ParentBasedAlwaysOn, sampling.ParentBasedAlwaysOff, sampling.ParentBasedTraceIDRatio:
		default:
			t.Fatalf("sampler %q", c.Sampling.Sampler)
		}
		if r := c.Sampling.Ratio; math.IsNaN(r) || r < 0 || r > 1 {
			t.Fatalf("ratio %v", r)
		}
		for _, r := range c.Sampling.Rules {
			if r.Pattern == "" || math.IsNaN(r.Ratio) || r.Ratio < 0 || r.Ratio > 1 {
				t.Fatalf("rule %+v", r)
			}
		}
		if c.RingBytes == 0 || c.RingBytes&(c.RingBytes-1) != 0 {
			t.Fatalf("ring %d bytes", c.RingBytes)
		}
		if c.Sampling.RateLimit < 0 || math.IsNaN(c.Sampling.RateLimit) || math.IsInf(c.Sampling.RateLimit, 0) {
			t.Fatalf("rate limit %v", c.Sampling.RateLimit)
		}
		if c.Sampling.MinDurationNs < 0 || c.ExportInterval <= 0 {
			t.Fatalf("min duration %d, export interval %v", c.Sampling.MinDurationNs, c.ExportInterval)
		}
		for _, p := range c.Include {
			if p == "" || strings.TrimSpace(p) != p {
				t.Fatalf("pattern %q", p)
			}
		}
	})
}
