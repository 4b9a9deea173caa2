package csample

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/clrotel/clrotel/sampling"
)

func TestDecisionParity(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	bounds := []uint64{0, 1, sampling.Bound(0.001), sampling.Bound(0.25), sampling.Bound(0.5), sampling.Bound(0.999), 1<<63 - 1, sampling.AlwaysBound}
	for i := 0; i < 200000; i++ {
		var tid [16]byte
		binary.LittleEndian.PutUint64(tid[:8], r.Uint64())
		binary.LittleEndian.PutUint64(tid[8:], r.Uint64())
		if i%1000 == 0 { // the edges of the comparison too
			binary.BigEndian.PutUint64(tid[8:], (bounds[i/1000%len(bounds)]<<1)|uint64(i&1))
		}
		b := bounds[i%len(bounds)]
		if got, want := Sampled(tid, b), sampling.Sampled(tid, b); got != want {
			t.Fatalf("tid %x bound %d: C %v, Go %v", tid, b, got, want)
		}
	}
}

func TestRateLimiterParity(t *testing.T) {
	for _, tc := range []struct {
		rate  float64
		burst int
	}{{10, 1}, {10, 3}, {1000, 50}, {0.5, 2}} {
		ref := sampling.NewLimiter(tc.rate, tc.burst)
		iv, tol := ref.Params()
		c := NewLimiter(iv, tol)
		r := rand.New(rand.NewPCG(9, uint64(tc.burst)))
		now := int64(1e12)
		for i := 0; i < 100000; i++ {
			now += int64(r.IntN(int(iv/2 + 1)))
			if got, want := c.Allow(now), ref.Allow(now); got != want {
				t.Fatalf("rate %v burst %d, step %d at %d: C %v, Go %v", tc.rate, tc.burst, i, now, got, want)
			}
		}
	}
}

// The C decision with a strategy block (per-method bounds, per-method
// guaranteed rates, a strategy's rate limit, the configured rate limit)
// matches sampling.Plan, call for call.
func TestStrategyParity(t *testing.T) {
	methods := []sampling.MethodNames{
		{Select: "Acme.A.Run", Span: "App.dll!Acme.A.Run()", Function: "Acme.A.Run"},
		{Select: "Acme.B.Get", Span: "App.dll!Acme.B.Get(Int32 id)", Function: "Acme.B.Get"},
		{Select: "Acme.Health.Ping", Span: "App.dll!Acme.Health.Ping()", Function: "Acme.Health.Ping"},
		{Select: "Acme.C.Put", Span: "App.dll!Acme.C.Put(String k)", Function: "Acme.C.Put"},
	}
	remote := func(c sampling.Config) sampling.Config { c.Sampler = sampling.JaegerRemote; return c }
	withRules := func(c sampling.Config) sampling.Config {
		c.Rules = []sampling.Rule{{Pattern: "Acme.Health.*", Action: sampling.Never}}
		return c
	}
	limited := func(c sampling.Config) sampling.Config { c.RateLimit, c.Burst = 300, 5; return c }
	perOp := &sampling.Strategy{Probability: 0.1, LowerBound: 2.5, Operations: map[string]float64{
		"App.dll!Acme.B.Get(Int32 id)": 0.6, "Acme.C.Put": 0, "Acme.A.Run": 1,
	}}
	tests := []struct {
		name string
		c    sampling.Config
		st   *sampling.Strategy
	}{
		{"initial rate", remote(sampling.Default()), nil},
		{"probabilistic", remote(sampling.Default()), &sampling.Strategy{Probability: 0.3}},
		{"rate limiting", remote(sampling.Default()), &sampling.Strategy{MaxTracesPerSecond: 40}},
		{"rate limiting below 1/s", remote(sampling.Default()), &sampling.Strategy{MaxTracesPerSecond: 0.5}},
		{"per operation", remote(sampling.Default()), perOp},
		{"per operation, rules, rate limit", limited(withRules(remote(sampling.Default()))), perOp},
		{"ratio and rate limit, no remote", limited(withRules(sampling.Config{Sampler: sampling.TraceIDRatio, Ratio: 0.5})), perOp},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			plan := tc.c.NewPlan(methods, tc.st)
			blk := NewBlock(tc.c, tc.st, methods)
			defer blk.Free()
			r := rand.New(rand.NewPCG(11, 12))
			now := int64(1e12)
			var kept int
			for i := 0; i < 100000; i++ {
				now += int64(r.IntN(2_000_000)) // 0-2 ms apart
				var tid [16]byte
				binary.LittleEndian.PutUint64(tid[:8], r.Uint64())
				binary.LittleEndian.PutUint64(tid[8:], r.Uint64())
				m := r.IntN(len(methods))
				got, want := blk.Decide(m, tid, now), plan.Decide(m, tid, now)
				if got != want {
					t.Fatalf("call %d, method %d, tid %x at %d: C %v, Go %v", i, m, tid, now, got, want)
				}
				if got == sampling.Kept {
					kept++
				}
			}
			t.Logf("%d of 100000 kept", kept)
		})
	}
}

// The reclamation of replaced strategy blocks (strategy.c, with the
// profiler's quiesce.Wait): readers deciding in a loop, as the hook does,
// never hold a block that was retired. The control retires blocks at once,
// without the barrier and the wait, and must be caught.
func TestStrategyReclaim(t *testing.T) {
	for _, mb := range []bool{true, false} {
		got, err := StressReclaim(2, 1000, mb, false)
		if err != nil {
			t.Fatal(err)
		}
		if got.Violations != 0 || got.Decisions == 0 {
			t.Fatalf("membarrier %v: %d decisions, %d with a retired block", mb, got.Decisions, got.Violations)
		}
		t.Logf("membarrier %v: %d decisions, none with a retired block", mb, got.Decisions)
	}
	control, err := StressReclaim(2, 1000, true, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("control (no barrier, no wait): %d of %d decisions caught a retired block", control.Violations, control.Decisions)
	if control.Violations == 0 {
		t.Errorf("the control retired blocks at once and no reader noticed: the check is blind")
	}
}

// A root joining a caller's trace under a parent-based sampler: the
// caller's flag decides, whatever the root sampler and the method's bound
// say, and CLROTEL_RATE_LIMIT still caps what is kept.
func TestParentDecision(t *testing.T) {
	methods := []sampling.MethodNames{{Select: "Acme.M", Span: "M()", Function: "Acme.M"}}
	for _, tc := range []struct {
		cfg  sampling.Config
		want []sampling.Decision // sampled, sampled, unsampled, sampled at the same instant
	}{
		{sampling.Config{Sampler: sampling.ParentBasedAlwaysOff},
			[]sampling.Decision{sampling.Kept, sampling.Kept, sampling.NotSampled, sampling.Kept}},
		{sampling.Config{Sampler: sampling.ParentBasedAlwaysOn, RateLimit: 1, Burst: 2},
			[]sampling.Decision{sampling.Kept, sampling.Kept, sampling.NotSampled, sampling.RateLimited}},
	} {
		b := NewBlock(tc.cfg, nil, methods)
		var got []sampling.Decision
		for _, sampled := range []bool{true, true, false, true} {
			got = append(got, b.DecideParent(sampled, 1e9))
		}
		b.Free()
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: decisions %v, want %v", tc.cfg.Sampler, got, tc.want)
				break
			}
		}
	}
}
