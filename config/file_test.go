package config

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/clrotel/clrotel/sampling"
)

const goodFile = `
include: ["Acme.*"]
exclude: ["*.get_*"]
capture:
  enabled: true
  exclude: ["Acme.Secrets.*"]
  max_string: 64
  redact: [iban]
  statics: [Acme.Shop.Settings.MaxItems]
sampling:
  sampler: parentbased_traceidratio
  ratio: 0.25
  rate_limit: 100
  burst: 20
  min_duration: 1ms
  rules:
    - match: "Acme.Health.*"
      sample: never
    - match: "Acme.Orders.*"
      sample: "0.5"
export:
  queue_size: 4096
  interval: 200ms
  cpu_percent: 7
limits:
  ring_kb: 256
  max_spans_per_trace: 500
  max_value_spans_per_trace: 20
fold:
  min_calls: 200
  max_duration: 10us
  exempt: ["Acme.Shop.Cart.*"]
  rejit: false
  rejit_period: 20ms
serving:
  after: 5s
  children: 64
  entry: ["Acme.Api.*.Handle"]
log:
  level: info
`

func files(m map[string]string) func(string) ([]byte, error) {
	return func(p string) ([]byte, error) {
		if s, ok := m[p]; ok {
			return []byte(s), nil
		}
		return nil, fmt.Errorf("open %s: %w", p, os.ErrNotExist)
	}
}

func TestLoadFileThenEnv(t *testing.T) {
	c, err := Load(env("CLROTEL_CONFIG", "/etc/clrotel.yaml"), files(map[string]string{"/etc/clrotel.yaml": goodFile}))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.Include, []string{"Acme.*"}) || c.MaxString != 64 || c.RingBytes != 256<<10 || c.LogLevel != "info" ||
		c.ExportQueue != 4096 || c.ExportInterval != 200*time.Millisecond || c.ExportCPU != 0.07 || c.Redact[0] != "iban" || c.Statics[0] != "Acme.Shop.Settings.MaxItems" {
		t.Errorf("file not applied: %+v", c)
	}
	if !c.Fold.Enabled || c.Fold.ReJIT.Enabled || c.Fold.MinCalls != 200 || c.Fold.MaxDuration != 10*time.Microsecond || c.Fold.Exempt[0] != "Acme.Shop.Cart.*" || c.MaxSpansPerTrace != 500 ||
		c.Fold.ReJIT.Interval != 20*time.Millisecond {
		t.Errorf("fold not applied: %+v, %d spans per trace", c.Fold, c.MaxSpansPerTrace)
	}
	if c.Serving.After != 5*time.Second || c.Serving.Children != 64 || !reflect.DeepEqual(c.Serving.Entry, []string{"Acme.Api.*.Handle"}) {
		t.Errorf("serving not applied: %+v", c.Serving)
	}
	if c.MaxValueSpansPerTrace != 20 {
		t.Errorf("limits.max_value_spans_per_trace not applied: %d", c.MaxValueSpansPerTrace)
	}
	s := c.Sampling
	if s.Sampler != sampling.ParentBasedTraceIDRatio || s.Ratio != 0.25 || s.RateLimit != 100 || s.Burst != 20 || s.MinDurationNs != 1e6 || len(s.Rules) != 2 || s.Rules[1].Ratio != 0.5 {
		t.Errorf("sampling not applied: %+v", s)
	}
	// The environment wins over the file.
	c, err = Load(env("CLROTEL_CONFIG", "/etc/clrotel.yaml", "CLROTEL_INCLUDE", "Other.*", "OTEL_TRACES_SAMPLER", "always_off", "CLROTEL_MAX_STRING", "8"),
		files(map[string]string{"/etc/clrotel.yaml": goodFile}))
	if err != nil || c.Include[0] != "Other.*" || c.Sampling.Sampler != sampling.AlwaysOff || c.MaxString != 8 || c.Sampling.Ratio != 0.25 {
		t.Errorf("env over file: %+v %v", c, err)
	}
}

// Every field wrong in turn: each error names the file, the line and the
// field, and says what is expected.
func TestFileErrors(t *testing.T) {
	tests := []struct {
		name, yaml, want string
	}{
		{"unknown top key", "inclde: [x]\n", `f.yaml:1: unknown key "inclde"`},
		{"unknown nested key", "sampling:\n  ratoi: 0.5\n", `f.yaml:2: unknown key "ratoi"`},
		{"wrong type", "capture:\n  max_string: lots\n", "f.yaml:2:"},
		{"bad yaml", "include: [a\n", "f.yaml:"},
		{"ratio out of range", "sampling:\n  ratio: 1.5\n", "f.yaml:2: sampling.ratio: 1.5: want a ratio from 0 to 1"},
		{"bad sampler", "sampling:\n  sampler: sometimes\n", `f.yaml:2: sampling.sampler: "sometimes": want always_on`},
		{"bad rate", "sampling:\n  rate_limit: -1\n", "f.yaml:2: sampling.rate_limit"},
		{"bad burst", "sampling:\n  burst: 0\n", "f.yaml:2: sampling.burst: 0 is out of range"},
		{"bad duration", "sampling:\n  min_duration: soon\n", `f.yaml:2: sampling.min_duration: "soon" is not a duration`},
		{"rule without match", "sampling:\n  rules:\n    - sample: never\n", "f.yaml:3: sampling.rules.0.match: missing"},
		{"bad rule", "sampling:\n  rules:\n    - match: A.*\n      sample: often\n", `f.yaml:4: sampling.rules.0.sample: "often"`},
		{"ring not power of two", "limits:\n  ring_kb: 100\n", "f.yaml:2: limits.ring_kb: 100: want a power of two"},
		{"threads", "limits:\n  max_threads: 0\n", "f.yaml:2: limits.max_threads"},
		{"depth", "limits:\n  max_depth: 1\n", "f.yaml:2: limits.max_depth"},
		{"log level", "log:\n  level: loud\n", `f.yaml:2: log.level: "loud"`},
		{"value bytes", "capture:\n  value_bytes: 1\n", "f.yaml:2: capture.value_bytes"},
		{"statics", "capture:\n  statics: [NoDot]\n", `f.yaml:2: capture.statics.0: "NoDot": want Namespace.Type.Field`},
		{"empty pattern", "include: [\"\"]\n", "f.yaml:1: include.0: empty pattern"},
		{"export interval", "export:\n  interval: 5\n", "f.yaml:2: export.interval"},
		{"fold min calls", "fold:\n  min_calls: 0\n", "f.yaml:2: fold.min_calls"},
		{"fold duration", "fold:\n  max_duration: short\n", "f.yaml:2: fold.max_duration"},
		{"fold switch", "fold:\n  enabled: sometimes\n", "f.yaml:2:"},
		{"fold re-JIT switch", "fold:\n  rejit: later\n", "f.yaml:2:"},
		{"fold re-JIT period", "fold:\n  rejit_period: soon\n", "f.yaml:2: fold.rejit_period"},
		{"serving age", "serving:\n  after: long\n", "f.yaml:2: serving.after"},
		{"serving children", "serving:\n  children: -1\n", "f.yaml:2:"},
		{"serving entry", "serving:\n  entry: [\"\"]\n", "f.yaml:2: serving.entry.0: empty pattern"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseFile("f.yaml", []byte(tt.yaml))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

// A broken file is not used at all: defaults and the environment apply, and
// the error says why.
func TestLoadBrokenFile(t *testing.T) {
	c, err := Load(env("CLROTEL_CONFIG", "f.yaml", "CLROTEL_MAX_STRING", "8"), files(map[string]string{"f.yaml": "include: [A.*]\nsampling:\n  ratio: 7\n"}))
	if err == nil || !strings.Contains(err.Error(), "f.yaml:3: sampling.ratio") || !strings.Contains(err.Error(), "not used") {
		t.Fatalf("err = %v", err)
	}
	if c.Include != nil || c.MaxString != 8 {
		t.Fatalf("broken file applied, or env lost: %+v", c)
	}
	_, err = Load(env("CLROTEL_CONFIG", "missing.yaml"), files(nil))
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
}

func TestEmptyFile(t *testing.T) {
	if _, err := ParseFile("e.yaml", nil); err != nil {
		t.Fatal(err)
	}
}

func FuzzParseFile(f *testing.F) {
	f.Add([]byte(goodFile))
	f.Add([]byte("sampling:\n  rules:\n    - match: A.*\n      sample: often\n"))
	f.Add([]byte("limits: {ring_kb: 3}"))
	f.Add([]byte("include: [a\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fl, err := ParseFile("fuzz.yaml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.yaml") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		c := Default()
		fl.apply(&c)
	})
}

func FuzzSamplingRule(f *testing.F) {
	for _, s := range []string{"A.*=always", "A.*=never", "*.Get*=0.05", "=", "x=1e400", "a=NaN"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := sampling.ParseRule(s)
		if err == nil && (r.Pattern == "" || r.Ratio < 0 || r.Ratio > 1) {
			t.Fatalf("ParseRule(%q) accepted %+v", s, r)
		}
	})
}
