package sampling

// HookLimiter is a rate limiter as the C hook holds it (LimiterParams):
// an interval of 0 is no limit.
type HookLimiter struct{ Interval, Tolerance int64 }

// LowerBoundLimiter is the hook's limiter for the method's guaranteed
// rate (LowerBound traces a second, a bucket of at least one).
func (m MethodSetting) LowerBoundLimiter() HookLimiter {
	iv, tol := LimiterParams(m.LowerBound, max(m.LowerBound, 1))
	return HookLimiter{iv, tol}
}

// HookLimits are the service-wide limiters of c with st the remote
// strategy in force, as the hook holds them: the strategy's rate limit
// (StrategyLimit) and CLROTEL_RATE_LIMIT's.
func (c Config) HookLimits(st *Strategy) (strategy, rate HookLimiter) {
	strategy.Interval, strategy.Tolerance = LimiterParams(c.StrategyLimit(st))
	if l := NewLimiter(c.RateLimit, c.Burst); l != nil {
		rate.Interval, rate.Tolerance = l.Params()
	}
	return strategy, rate
}
