package sampling

import "testing"

func TestLowerBoundLimiter(t *testing.T) {
	for _, tc := range []struct {
		lower float64
		want  HookLimiter
	}{
		{0, HookLimiter{}},
		{0.5, HookLimiter{Interval: 2e9}},  // a bucket of one
		{1, HookLimiter{Interval: 1e9}},    // a bucket of one
		{4, HookLimiter{2.5e8, 3 * 2.5e8}}, // a bucket of four
		{2.5, HookLimiter{4e8, 1.5 * 4e8}}, // a fractional bucket
	} {
		if got := (MethodSetting{LowerBound: tc.lower}).LowerBoundLimiter(); got != tc.want {
			t.Errorf("LowerBound %v: %+v; want %+v", tc.lower, got, tc.want)
		}
	}
}

func TestHookLimits(t *testing.T) {
	remote := Default()
	remote.Sampler = JaegerRemote
	limited := remote
	limited.RateLimit, limited.Burst = 10, 5
	for _, tc := range []struct {
		name           string
		c              Config
		st             *Strategy
		strategy, rate HookLimiter
	}{
		{"nothing", Default(), nil, HookLimiter{}, HookLimiter{}},
		{"no strategy yet", remote, nil, HookLimiter{}, HookLimiter{}},
		{"probabilistic", remote, &Strategy{Probability: 0.5}, HookLimiter{}, HookLimiter{}},
		{"rate limiting", remote, &Strategy{MaxTracesPerSecond: 4}, HookLimiter{2.5e8, 3 * 2.5e8}, HookLimiter{}},
		{"rate limiting, below one a second", remote, &Strategy{MaxTracesPerSecond: 0.5}, HookLimiter{Interval: 2e9}, HookLimiter{}},
		{"CLROTEL_RATE_LIMIT too", limited, &Strategy{MaxTracesPerSecond: 4}, HookLimiter{2.5e8, 3 * 2.5e8}, HookLimiter{1e8, 4e8}},
	} {
		s, r := tc.c.HookLimits(tc.st)
		if s != tc.strategy || r != tc.rate {
			t.Errorf("%s: HookLimits = %+v, %+v; want %+v, %+v", tc.name, s, r, tc.strategy, tc.rate)
		}
	}
}
