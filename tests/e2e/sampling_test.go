package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const incSpan = "Basic.exe!Acme.Shop.Tiny.Inc(Int32 x)"

func rootsRun(t *testing.T, rt dotnetRuntime, n string, env map[string]string) run {
	t.Helper()
	e := map[string]string{"CLROTEL_INCLUDE": "Acme.Shop.Tiny.Inc", "CLROTEL_LOG_LEVEL": "info"}
	for k, v := range env {
		e[k] = v
	}
	r := runApp(t, rt, "Basic", []string{"roots", n}, runOpts{profiler: true, env: e})
	if r.ExitCode != 0 || !strings.Contains(r.Stdout, "roots "+n) {
		t.Fatalf("exit %d stdout %q\n%s", r.ExitCode, r.Stdout, r.Stderr)
	}
	return r
}

// sampledRoots counts the roots the sampler kept in a rootsRun: those
// received, and those shed whole after it kept them (a capture buffer
// half full, which a loaded machine makes by draining it late).
func sampledRoots(t *testing.T, r run) int {
	t.Helper()
	return len(byName(r.Spans, incSpan)) + readAccount(t, r.Stderr).shedTraces
}

func TestSamplerAlwaysOff(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		for _, s := range []string{"always_off", "parentbased_always_off"} {
			r := runApp(t, rt, "Basic", []string{"all"}, runOpts{profiler: true, env: map[string]string{"OTEL_TRACES_SAMPLER": s}})
			if r.ExitCode != 0 || len(r.Spans) != 0 {
				t.Errorf("%s: exit %d, %d spans", s, r.ExitCode, len(r.Spans))
			}
		}
	})
}

// A 0.25 ratio over 4,000 roots: the count must fall in the binomial 99.9%
// interval, and every sampled trace id must satisfy the ratio rule (the
// decision is the trace id's, consistent across services).
func TestSamplerRatio(t *testing.T) {
	const n, p = 4000, 0.25
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		r := rootsRun(t, rt, "4000", map[string]string{"OTEL_TRACES_SAMPLER": "traceidratio", "OTEL_TRACES_SAMPLER_ARG": "0.25"})
		got := sampledRoots(t, r)
		if lo, hi := binomialInterval(n, p); got < lo || got > hi {
			t.Fatalf("%d of %d roots sampled at 0.25, want %d..%d", got, n, lo, hi)
		}
		for _, s := range r.Spans {
			// The ratio rule on the id's last 8 bytes: x>>1 < 0.25*2^63, so
			// x < 2^62: the top two bits of byte 8 are zero.
			if s.TraceID[16] > '3' {
				t.Fatalf("trace %s sampled against the ratio rule", s.TraceID)
			}
		}
	})
}

func TestSamplingRuleNever(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		r := runApp(t, rt, "Basic", []string{"names"}, runOpts{profiler: true, env: map[string]string{
			"CLROTEL_INCLUDE":        "Acme.Shop.*",
			"CLROTEL_SAMPLING_RULES": "Acme.Shop.Cart.Put=never, Acme.Shop.*=always",
		}})
		for _, s := range r.Spans {
			if strings.Contains(s.Name, ".Put(") {
				t.Errorf("never-rule method traced: %s", s.Name)
			}
		}
		if len(byName(r.Spans, "Basic.exe!Acme.Shop.Cart.Add(Acme.Shop.Item item, Int32 quantity)")) != 1 {
			t.Errorf("Add (always) missing:\n%s", dumpSpans(r.Spans))
		}
	})
}

func TestRateLimit(t *testing.T) {
	rt := runtimes[0]
	start := time.Now()
	r := rootsRun(t, rt, "20000", map[string]string{"CLROTEL_RATE_LIMIT": "50", "CLROTEL_RATE_BURST": "20"})
	elapsed := time.Since(start).Seconds()
	got := sampledRoots(t, r)
	if got < 20 || float64(got) > 20+50*(elapsed+0.5) {
		t.Fatalf("%d traces at 50/s with a burst of 20 over %.1f s", got, elapsed)
	}
}

// A bad sampler setting is reported, naming the variable, and the app runs
// traced on the default sampler.
func TestBadSamplerSetting(t *testing.T) {
	rt := runtimes[0]
	r := runApp(t, rt, "Basic", []string{"names"}, runOpts{profiler: true, env: map[string]string{"OTEL_TRACES_SAMPLER": "sometimes"}})
	if r.ExitCode != 0 || len(r.Spans) == 0 {
		t.Fatalf("exit %d, %d spans", r.ExitCode, len(r.Spans))
	}
	if !strings.Contains(r.Stderr, `OTEL_TRACES_SAMPLER="sometimes"`) {
		t.Errorf("stderr does not name the bad setting:\n%s", r.Stderr)
	}
}

func TestConfigFile(t *testing.T) {
	rt := runtimes[0]
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(good, []byte("include: [\"Acme.Shop.*\"]\nsampling:\n  rules:\n    - match: Acme.Shop.Cart.Put\n      sample: never\ncapture:\n  enabled: false\n"), 0o644)
	os.WriteFile(bad, []byte("sampling:\n  sampler: sometimes\n"), 0o644)

	r := runApp(t, rt, "Basic", []string{"names"}, runOpts{profiler: true, env: map[string]string{"CLROTEL_CONFIG": good}})
	if len(r.Spans) == 0 {
		t.Fatalf("no spans:\n%s", r.Stderr)
	}
	for _, s := range r.Spans {
		if strings.HasPrefix(s.Name, "Basic.exe!Program.") || strings.Contains(s.Name, ".Put(") {
			t.Errorf("span against the file's include and rules: %s", s.Name)
		}
		if _, ok := s.Attrs["dotnet.arg.quantity"]; ok {
			t.Errorf("values captured with capture.enabled false")
		}
	}

	// A bad file: the app runs traced on defaults, and says where and why.
	r = runApp(t, rt, "Basic", []string{"names"}, runOpts{profiler: true, env: map[string]string{"CLROTEL_CONFIG": bad}})
	if r.ExitCode != 0 || len(byName(r.Spans, "Basic.exe!Program.Main(String[] args)")) != 1 {
		t.Fatalf("exit %d, %d spans", r.ExitCode, len(r.Spans))
	}
	if !strings.Contains(r.Stderr, bad+`:2: sampling.sampler: want always_on`) || !strings.Contains(r.Stderr, `; found "sometimes"`) ||
		strings.Count(r.Stderr, "sampling.sampler") != 1 {
		t.Errorf("stderr:\n%s", r.Stderr)
	}
}
