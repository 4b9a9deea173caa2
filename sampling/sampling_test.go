package sampling

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
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
		env       []string
		sampler   string
		bound     uint64
		wantError string
	}{
		{nil, ParentBasedAlwaysOn, AlwaysBound, ""},
		{[]string{"OTEL_TRACES_SAMPLER", "always_off"}, AlwaysOff, 0, ""},
		{[]string{"OTEL_TRACES_SAMPLER", "ALWAYS_ON"}, AlwaysOn, AlwaysBound, ""},
		{[]string{"OTEL_TRACES_SAMPLER", "parentbased_always_off"}, ParentBasedAlwaysOff, 0, ""},
		{[]string{"OTEL_TRACES_SAMPLER", "traceidratio", "OTEL_TRACES_SAMPLER_ARG", "0.25"}, TraceIDRatio, 1 << 61, ""},
		{[]string{"OTEL_TRACES_SAMPLER", "parentbased_traceidratio", "OTEL_TRACES_SAMPLER_ARG", "0.5"}, ParentBasedTraceIDRatio, 1 << 62, ""},
		{[]string{"OTEL_TRACES_SAMPLER", "traceidratio"}, TraceIDRatio, AlwaysBound, ""}, // ratio defaults to 1
		{[]string{"OTEL_TRACES_SAMPLER", "traceidratio", "OTEL_TRACES_SAMPLER_ARG", "0"}, TraceIDRatio, 0, ""},
		{[]string{"OTEL_TRACES_SAMPLER", "traceidratio", "OTEL_TRACES_SAMPLER_ARG", "1.5"}, "", 0, "ratio from 0 to 1"},
		{[]string{"OTEL_TRACES_SAMPLER", "traceidratio", "OTEL_TRACES_SAMPLER_ARG", "half"}, "", 0, "ratio from 0 to 1"},
		{[]string{"OTEL_TRACES_SAMPLER", "jaeger_probably"}, "", 0, "want always_on"},
		{[]string{"OTEL_TRACES_SAMPLER", "jaeger_remote"}, JaegerRemote, Bound(DefaultInitialSampleRate), ""},
		{[]string{"OTEL_TRACES_SAMPLER", "parentbased_jaeger_remote", "OTEL_TRACES_SAMPLER_ARG", "endpoint=http://j:5778,initialSamplingRate=0.5"}, ParentBasedJaegerRemote, 1 << 62, ""},
		{[]string{"OTEL_TRACES_SAMPLER", "jaeger_remote", "OTEL_TRACES_SAMPLER_ARG", "pollingIntervalMs=abc"}, "", 0, "pollingIntervalMs"},
	}
	for _, tt := range tests {
		c, err := FromEnv(Default(), env(tt.env...))
		if tt.wantError != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantError) {
				t.Errorf("%v: err %v, want %q", tt.env, err, tt.wantError)
			}
			if c.Sampler != ParentBasedAlwaysOn {
				t.Errorf("%v: a bad value changed the sampler to %q", tt.env, c.Sampler)
			}
			continue
		}
		if err != nil || c.Sampler != tt.sampler || c.DefaultBound() != tt.bound {
			t.Errorf("%v: %q bound %d (%v), want %q %d", tt.env, c.Sampler, c.DefaultBound(), err, tt.sampler, tt.bound)
		}
	}
}

func randomID(r *rand.Rand) [16]byte {
	var id [16]byte
	binary.LittleEndian.PutUint64(id[:8], r.Uint64())
	binary.LittleEndian.PutUint64(id[8:], r.Uint64())
	return id
}

// The ratio decision is the OpenTelemetry Go SDK's, bit for bit, so the
// decision is consistent with other services' SDKs for the same trace id.
func TestRatioMatchesSDK(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, ratio := range []float64{0, 0.001, 0.25, 0.5, 0.999, 1} {
		sdk := sdktrace.TraceIDRatioBased(ratio)
		bound := Bound(ratio)
		for i := 0; i < 20000; i++ {
			id := randomID(r)
			res := sdk.ShouldSample(sdktrace.SamplingParameters{ParentContext: context.Background(), TraceID: trace.TraceID(id)})
			if got, want := Sampled(id, bound), res.Decision == sdktrace.RecordAndSample; got != want {
				t.Fatalf("ratio %v, id %x: clrotel %v, SDK %v", ratio, id, got, want)
			}
		}
	}
}

// Parent-based samplers decide like the SDK's for a root (no parent), which
// is what every in-process trace root is.
func TestParentBasedRoots(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	cases := []struct {
		c   Config
		sdk sdktrace.Sampler
	}{
		{Config{Sampler: ParentBasedAlwaysOn}, sdktrace.ParentBased(sdktrace.AlwaysSample())},
		{Config{Sampler: ParentBasedAlwaysOff}, sdktrace.ParentBased(sdktrace.NeverSample())},
		{Config{Sampler: ParentBasedTraceIDRatio, Ratio: 0.3}, sdktrace.ParentBased(sdktrace.TraceIDRatioBased(0.3))},
	}
	for _, tc := range cases {
		for i := 0; i < 5000; i++ {
			id := randomID(r)
			res := tc.sdk.ShouldSample(sdktrace.SamplingParameters{ParentContext: context.Background(), TraceID: trace.TraceID(id)})
			if got := tc.c.Decide("Any.Type.Method", id); got != (res.Decision == sdktrace.RecordAndSample) {
				t.Fatalf("%s id %x: %v, SDK %v", tc.c.Sampler, id, got, res.Decision)
			}
		}
	}
}

func TestRules(t *testing.T) {
	c := Config{Sampler: TraceIDRatio, Ratio: 0.5, Rules: []Rule{
		{Pattern: "Acme.Health.*", Action: Never},
		{Pattern: "Acme.Orders.Place*", Action: Always},
		{Pattern: "Acme.*", Action: Ratio, Ratio: 0.1},
		{Pattern: "Acme.Orders.*", Action: Never}, // never reached for Acme.Orders.*: first match wins
	}}
	for name, want := range map[string]uint64{
		"Acme.Health.Check":      0,
		"Acme.Orders.PlaceOrder": AlwaysBound,
		"Acme.Orders.Cancel":     Bound(0.1),
		"Other.Thing.Do":         Bound(0.5),
	} {
		if got := c.RootBound(name); got != want {
			t.Errorf("RootBound(%s) = %d, want %d", name, got, want)
		}
	}
}

func TestParseRule(t *testing.T) {
	for in, want := range map[string]Rule{
		"Acme.*=always":          {Pattern: "Acme.*", Action: Always},
		" Acme.Health.* = never": {Pattern: "Acme.Health.*", Action: Never},
		"*.Get*=0.05":            {Pattern: "*.Get*", Action: Ratio, Ratio: 0.05},
	} {
		if got, err := ParseRule(in); err != nil || got != want {
			t.Errorf("ParseRule(%q) = %+v, %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "Acme.*", "=always", "Acme.*=sometimes", "Acme.*=2", "Acme.*=-0.1"} {
		if _, err := ParseRule(bad); err == nil {
			t.Errorf("ParseRule(%q) accepted", bad)
		}
	}
}

func TestLimiter(t *testing.T) {
	if NewLimiter(0, 5) != nil {
		t.Fatal("rate 0 must mean no limiter")
	}
	l := NewLimiter(10, 3) // a token every 100 ms, 3 at most
	now := int64(1e9)
	allowed := 0
	for i := 0; i < 10; i++ { // a burst at one instant
		if l.Allow(now) {
			allowed++
		}
	}
	if allowed != 3 {
		t.Fatalf("burst allowed %d, want 3", allowed)
	}
	if l.Allow(now + 50e6) {
		t.Fatal("a token came back too early")
	}
	if !l.Allow(now + 100e6) {
		t.Fatal("no token after one interval")
	}
	// Over 10 s at a steady 1000 requests/s, about 10*10 (+ burst) pass.
	allowed = 0
	for ts := now + 1e9; ts < now+11e9; ts += 1e6 {
		if l.Allow(ts) {
			allowed++
		}
	}
	if allowed < 99 || allowed > 103 {
		t.Fatalf("steady state allowed %d in 10 s, want about 100", allowed)
	}
}

func TestSetting(t *testing.T) {
	m := MethodNames{Select: "Acme.Shop.Cart.Add", Span: "Shop.dll!Acme.Shop.Cart.Add(Int32 n)", Function: "Acme.Shop.Cart.Add"}
	remote := Default()
	remote.Sampler, remote.Remote.InitialRate = JaegerRemote, 0.5
	ruled := remote
	ruled.Rules = []Rule{{Pattern: "Acme.Shop.Cart.*", Action: Always}}
	perOp := func(ops map[string]float64) *Strategy {
		return &Strategy{Probability: 0.25, LowerBound: 1, Operations: ops}
	}
	tests := []struct {
		name string
		c    Config
		st   *Strategy
		want MethodSetting
	}{
		{"not remote ignores a strategy", Config{Sampler: TraceIDRatio, Ratio: 0.5}, &Strategy{Probability: 0}, MethodSetting{Bound: 1 << 62}},
		{"initial rate", remote, nil, MethodSetting{Bound: 1 << 62}},
		{"probabilistic", remote, &Strategy{Probability: 0.25}, MethodSetting{Bound: 1 << 61}},
		{"rate limiting", remote, &Strategy{MaxTracesPerSecond: 3}, MethodSetting{Bound: AlwaysBound}},
		{"per-operation default", remote, perOp(map[string]float64{"Other": 0}), MethodSetting{Bound: 1 << 61, LowerBound: 1}},
		{"per-operation by span name", remote, perOp(map[string]float64{m.Span: 0, m.Function: 1}), MethodSetting{Bound: 0, LowerBound: 1}},
		{"per-operation by function name", remote, perOp(map[string]float64{m.Function: 0.5}), MethodSetting{Bound: 1 << 62, LowerBound: 1}},
		{"a rule wins", ruled, perOp(map[string]float64{m.Span: 0}), MethodSetting{Bound: AlwaysBound}},
	}
	for _, tt := range tests {
		if got := tt.c.Setting(m, tt.st); got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
	if r, b := remote.StrategyLimit(&Strategy{MaxTracesPerSecond: 0.5}); r != 0.5 || b != 1 {
		t.Errorf("limit %v burst %v", r, b)
	}
}
