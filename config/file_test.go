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
metrics:
  enabled: false
  include: ["Acme.Shop.Pricing.*"]
no_code:
  targets:
    - target: {assembly: {name: Acme}, type: Acme.Api.OrdersController, method: Post}
      span:
        name: POST /orders
        kind: server
        attributes:
          - {name: order.id, value_source: "arguments[0].Id", type: int}
        status:
          rules:
            - {condition: "return.StatusCode >= 500", code: error}
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
	if c.Metrics.Enabled || !reflect.DeepEqual(c.Metrics.Include, []string{"Acme.Shop.Pricing.*"}) {
		t.Errorf("metrics not applied: %+v", c.Metrics)
	}
	if c.NoCode == nil || len(c.NoCode.Targets) != 1 || c.NoCode.Targets[0].Name != "POST /orders" || len(c.NoCode.Targets[0].Status) != 1 {
		t.Errorf("no_code not applied: %+v", c.NoCode)
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
		{"unknown top key", "inclde: [x]\n", `f.yaml:1: inclde: unknown key (a typo?): the file takes the keys async, capture, exclude, export, fold, include, limits, log, metrics, no_code, sampling, serving`},
		{"unknown nested key", "sampling:\n  ratoi: 0.5\n", `f.yaml:2: sampling.ratoi: unknown key (a typo?): sampling takes the keys burst, min_duration, rate_limit, ratio, remote, rules, sampler`},
		{"wrong type", "capture:\n  max_string: lots\n", `f.yaml:2: capture.max_string: want a whole number from 0 to 1048576; found "lots"`},
		{"negative", "capture:\n  max_string: -3\n", `f.yaml:2: capture.max_string: want a whole number from 0 to 1048576; found -3`},
		{"a list for a section", "capture: [a]\n", `f.yaml:1: capture: want capture takes the keys depth, enabled, exclude,`},
		{"a section for a list", "include:\n  a: b\n", `f.yaml:2: include: want a list, e.g. ["Acme.*"]; found a mapping of keys`},
		{"a word for a switch", "async: sometimes\n", `f.yaml:1: async: want true or false; found "sometimes"`},
		{"a rule's unknown key", "sampling:\n  rules:\n    - {match: A.*, sample: never, weight: 2}\n", `f.yaml:3: sampling.rules.0.weight: unknown key (a typo?): sampling.rules.0 takes the keys match, sample`},
		{"bad yaml", "include: [a\n", "f.yaml:"},
		{"ratio out of range", "sampling:\n  ratio: 1.5\n", "f.yaml:2: sampling.ratio: want a ratio from 0 to 1; found 1.5"},
		{"bad sampler", "sampling:\n  sampler: sometimes\n", `f.yaml:2: sampling.sampler: want always_on`},
		{"bad rate", "sampling:\n  rate_limit: -1\n", "f.yaml:2: sampling.rate_limit"},
		{"bad burst", "sampling:\n  burst: 0\n", "f.yaml:2: sampling.burst: want a whole number from 1 to 1048576; found 0"},
		{"bad duration", "sampling:\n  min_duration: soon\n", `f.yaml:2: sampling.min_duration: want a duration, e.g. 500ms or 2s; found "soon"`},
		{"rule without match", "sampling:\n  rules:\n    - sample: never\n", "f.yaml:3: sampling.rules.0.match: want a glob over Namespace.Type.Method; found none"},
		{"bad rule", "sampling:\n  rules:\n    - match: A.*\n      sample: often\n", `f.yaml:4: sampling.rules.0.sample: want always, never or a ratio from 0 to 1; found "often"`},
		{"ring not power of two", "limits:\n  ring_kb: 100\n", "f.yaml:2: limits.ring_kb: want a power of two from 4 to 1048576; found 100"},
		{"ring burst not power of two", "limits:\n  ring_burst_kb: 100\n", "f.yaml:2: limits.ring_burst_kb: want 0 or a power of two up to 2097152; found 100"},
		{"threads", "limits:\n  max_threads: 0\n", "f.yaml:2: limits.max_threads"},
		{"depth", "limits:\n  max_depth: 1\n", "f.yaml:2: limits.max_depth"},
		{"log level", "log:\n  level: loud\n", `f.yaml:2: log.level: want error, warn, info or debug; found "loud"`},
		{"value bytes", "capture:\n  value_bytes: 1\n", "f.yaml:2: capture.value_bytes"},
		{"statics", "capture:\n  statics: [NoDot]\n", `f.yaml:2: capture.statics.0: want Namespace.Type.Field; found "NoDot"`},
		{"empty pattern", "include: [\"\"]\n", "f.yaml:1: include.0: want a glob over Namespace.Type.Method; found an empty pattern"},
		{"export interval", "export:\n  interval: 5\n", "f.yaml:2: export.interval"},
		{"fold min calls", "fold:\n  min_calls: 0\n", "f.yaml:2: fold.min_calls"},
		{"fold duration", "fold:\n  max_duration: short\n", "f.yaml:2: fold.max_duration"},
		{"fold switch", "fold:\n  enabled: sometimes\n", "f.yaml:2:"},
		{"fold re-JIT switch", "fold:\n  rejit: later\n", "f.yaml:2:"},
		{"fold re-JIT period", "fold:\n  rejit_period: soon\n", "f.yaml:2: fold.rejit_period"},
		{"serving age", "serving:\n  after: long\n", "f.yaml:2: serving.after"},
		{"serving children", "serving:\n  children: -1\n", "f.yaml:2:"},
		{"serving entry", "serving:\n  entry: [\"\"]\n", "f.yaml:2: serving.entry.0: want a glob over Namespace.Type.Method; found an empty pattern"},
		{"metrics include", "metrics:\n  include: [\"\"]\n", "f.yaml:2: metrics.include.0: want a glob over Namespace.Type.Method; found an empty pattern"},
		{"metrics switch", "metrics:\n  enabled: sometimes\n", "f.yaml:2:"},
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

// Every problem of a file is reported at once, in line order, each with
// its key's path, what the key takes and what was found.
func TestFileErrorsAllAtOnce(t *testing.T) {
	file := `include: Acme.*
capture:
  max_string: -3
  depth: 40
  enabled: maybe
sampling:
  ratio: 1.5
  sampel: always_on
  rules:
    - {match: "", sample: often}
limits: {ring_kb: 100}
log: {level: loud}
no_code:
  targets:
    - target: {type: Acme.Shop, method: Order}
      span:
        name: order
        kind: serverr
        attributes:
          - {name: order.id, value_source: "arguments[0].Id +"}
`
	_, err := ParseFile("f.yaml", []byte(file))
	want := []string{
		`f.yaml:1: include: want a list, e.g. ["Acme.*"]; found "Acme.*"`,
		`f.yaml:3: capture.max_string: want a whole number from 0 to 1048576; found -3`,
		`f.yaml:4: capture.depth: want a whole number from 0 to 16; found 40`,
		`f.yaml:5: capture.enabled: want true or false; found "maybe"`,
		`f.yaml:7: sampling.ratio: want a ratio from 0 to 1; found 1.5`,
		`f.yaml:8: sampling.sampel: unknown key (a typo?): sampling takes the keys burst, min_duration, rate_limit, ratio, remote, rules, sampler`,
		`f.yaml:10: sampling.rules.0.match: want a glob over Namespace.Type.Method; found none`,
		`f.yaml:10: sampling.rules.0.sample: want always, never or a ratio from 0 to 1; found "often"`,
		`f.yaml:11: limits.ring_kb: want a power of two from 4 to 1048576; found 100`,
		`f.yaml:12: log.level: want error, warn, info or debug; found "loud"`,
		`f.yaml:18:15: no_code.targets.0.span.kind: want internal, server, client, producer or consumer; found "serverr"`,
		`f.yaml:20:62: no_code.targets.0.span.attributes.0.value_source: the expression ends too soon in "arguments[0].Id +"`,
	}
	if err == nil {
		t.Fatal("no error")
	}
	if got := strings.Split(err.Error(), "\n"); !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// The whole-number keys and their ranges are one table: each key of File
// that takes a whole number has a range, and each range names such a key.
func TestU32Ranges(t *testing.T) {
	seen := map[string]bool{}
	eachU32(&File{}, func(key string, _ *uint32) {
		seen[key] = true
		if _, ok := u32Ranges[key]; !ok {
			t.Errorf("%s takes a whole number but has no range in u32Ranges", key)
		}
	})
	for key := range u32Ranges {
		if !seen[key] {
			t.Errorf("u32Ranges has %s, which is no whole-number key of File", key)
		}
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

// Files that took the YAML decoder quadratic time and memory (it compares
// every key of a mapping with every other and reports each equal pair, again
// at each alias of the mapping: 4 KiB of one repeated key cost 10 s and
// 1.2 GB), or a list of errors as long as the file: each is refused with one
// error, or its errors are listed up to maxErrors and then counted.
// Asserted on the errors, never on time.
func TestFileBounds(t *testing.T) {
	rep := strings.Repeat
	keys := func(n int) string { // k0: 0, k1: 0, ...
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "k%d: 0, ", i)
		}
		return b.String()
	}
	laughs := "x0: &x0 [a, a, a, a, a, a, a, a, a, a]\n" // ten times as many nodes at each level
	for i := 1; i < 6; i++ {
		laughs += fmt.Sprintf("x%d: &x%d [%s]\n", i, i, strings.TrimSuffix(rep(fmt.Sprintf("*x%d, ", i-1), 10), ", "))
	}
	tests := []struct {
		name, yaml string
		want       string // in the error; "" for a file that is used
		lines      int    // of the error
	}{
		{"a key 300 times", "{" + rep("a, ", 300) + "}", "f.yaml:1: a mapping of 300 keys: at most 64", 1},
		{"a key 40 times: each copy once", rep("a: 0\n", 40), `f.yaml:40: mapping key "a" already defined at line 1`, 39},
		{"a nested key twice", "sampling:\n  ratio: 0.5\n  ratio: 0.6\n", `f.yaml:3: mapping key "ratio" already defined at line 2`, 1},
		{"65 keys", "sampling: {" + keys(65) + "}\n", "f.yaml:1: a mapping of 65 keys: at most 64", 1},
		{"64 keys", "sampling: {" + keys(64) + "}\n", `f.yaml:1: sampling.k63: unknown key (a typo?)`, 64},
		{"aliases past the node bound", laughs, "f.yaml: more than 65536 keys and values, counting those that aliases repeat", 1},
		{"a mapping aliased 90 times", "sampling:\n  remote: &m {" + keys(60) + "}\n  rules: [" + rep("*m, ", 90) + "]\n",
			"f.yaml: and 5540 more problems", 101}, // 60 unknown keys, 90 times more, and each rule without match or sample
		{"500 empty patterns", "include: [" + rep(`"", `, 500) + "]\n", "f.yaml: and 400 more problems", 101},
		{"over 256 KiB", rep("#\n", 128<<10+1), "f.yaml: 262146 bytes: a configuration file is at most 262144", 1},
		{"256 KiB", rep("#\n", 128<<10), "", 0},
		{"an alias", "include: [Acme.*]\nfold:\n  exempt: &p [Acme.Cart.*]\ncapture:\n  exclude: *p\n", "", 0},
		{"a merge", "fold: &f {enabled: true}\nserving:\n  <<: *f\n", `f.yaml:1: serving.enabled: unknown key (a typo?)`, 1},
		{"an anchor inside itself", "include: &a [*a]\n", "f.yaml:1:", 1},
		{"a mapping merged into itself", "capture: &c\n  <<: *c\n", "f.yaml:", 1},
		{"a good merge", "x: &c {max_string: 8}\ncapture:\n  <<: *c\n  depth: 2\n", `f.yaml:1: x: unknown key`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseFile("f.yaml", []byte(tt.yaml))
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %.300v, want %q", err, tt.want)
			}
			if n := strings.Count(err.Error(), "\n") + 1; n != tt.lines {
				t.Fatalf("%d lines of errors, want %d; the first: %.300s", n, tt.lines, err)
			}
		})
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
			if es, ok := err.(FileErrors); !ok || len(es) > maxErrors+1 {
				t.Fatalf("%T of %d errors, want FileErrors of at most %d", err, strings.Count(err.Error(), "\n")+1, maxErrors+1)
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

func TestFilePath(t *testing.T) {
	for _, tc := range []struct {
		env    map[string]string
		want   string
		wantOK bool
	}{
		{nil, "", false},
		{map[string]string{"CLROTEL_CONFIG": "  "}, "  ", false},
		{map[string]string{"CLROTEL_CONFIG": "/etc/clrotel.yaml"}, "/etc/clrotel.yaml", true},
	} {
		path, ok := FilePath(func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok })
		if ok != tc.wantOK || ok && path != tc.want {
			t.Errorf("FilePath(%v) = %q, %v; want %q, %v", tc.env, path, ok, tc.want, tc.wantOK)
		}
	}
}
