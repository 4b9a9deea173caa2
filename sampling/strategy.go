package sampling

import (
	"math"

	"github.com/clrotel/clrotel/naming"
)

// Strategy is what a remote sampler (Jaeger's sampling API) says about one
// service, in clrotel's terms. The zero Strategy samples nothing.
type Strategy struct {
	// Probability is the service's probabilistic rate; with Operations, the
	// rate of methods that no entry names.
	Probability float64
	// MaxTracesPerSecond, when above 0, is a rate-limiting strategy: every
	// root is a candidate and at most this many traces a second are kept
	// (a bucket of max(rate, 1) traces, as Jaeger's SDKs do).
	MaxTracesPerSecond float64
	// Operations are per-operation probabilities, by operation name (a
	// method's span name, or its code.function.name). With them,
	// LowerBound guarantees each method that many traces a second whatever
	// its probability (Jaeger's "guaranteed throughput" sampler).
	Operations map[string]float64
	LowerBound float64
}

// PerOperation reports whether s has per-operation entries.
func (s Strategy) PerOperation() bool { return s.Operations != nil }

// Equal reports whether two strategies decide the same.
func (s Strategy) Equal(o Strategy) bool {
	if s.Probability != o.Probability || s.MaxTracesPerSecond != o.MaxTracesPerSecond ||
		s.LowerBound != o.LowerBound || (s.Operations == nil) != (o.Operations == nil) || len(s.Operations) != len(o.Operations) {
		return false
	}
	for k, v := range s.Operations {
		if w, ok := o.Operations[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// MethodNames are the names a method is known by when its sampling is
// resolved: Select (Namespace.Type.Method, what rules match), Span (the
// span name) and Function (code.function.name).
type MethodNames struct {
	Select, Span, Function string
}

// MethodSetting is the sampling of traces rooted at one method, as the C
// hook holds it: a trace-id bound, and a guaranteed rate (traces a second,
// 0 for none) that samples a root the bound refused.
type MethodSetting struct {
	Bound      uint64
	LowerBound float64
}

// Setting resolves the sampling of traces rooted at method m, with st the
// remote strategy in force (nil: none received yet). The first matching
// rule wins; then a remote sampler's strategy (an operation entry naming
// the span name, else the code.function.name, else the default); then the
// configured sampler.
func (c Config) Setting(m MethodNames, st *Strategy) MethodSetting {
	for _, r := range c.Rules {
		if !naming.Match(r.Pattern, m.Select) {
			continue
		}
		switch r.Action {
		case Always:
			return MethodSetting{Bound: AlwaysBound}
		case Never:
			return MethodSetting{Bound: 0}
		case Ratio:
			return MethodSetting{Bound: Bound(r.Ratio)}
		}
	}
	if !c.IsRemote() {
		return MethodSetting{Bound: c.DefaultBound()}
	}
	if st == nil {
		return MethodSetting{Bound: Bound(c.Remote.InitialRate)}
	}
	if st.MaxTracesPerSecond > 0 {
		return MethodSetting{Bound: AlwaysBound}
	}
	if !st.PerOperation() {
		return MethodSetting{Bound: Bound(st.Probability)}
	}
	p, ok := st.Operations[m.Span]
	if !ok {
		p, ok = st.Operations[m.Function]
	}
	if !ok {
		p = st.Probability
	}
	return MethodSetting{Bound: Bound(p), LowerBound: st.LowerBound}
}

// StrategyLimit is the service-wide rate limit of a strategy (0: none),
// in traces a second, and its bucket.
func (c Config) StrategyLimit(st *Strategy) (rate, burst float64) {
	if !c.IsRemote() || st == nil || st.MaxTracesPerSecond <= 0 {
		return 0, 0
	}
	return st.MaxTracesPerSecond, math.Max(st.MaxTracesPerSecond, 1)
}

// Decision is what became of a root call.
type Decision int

const (
	Kept        Decision = iota // sampled
	NotSampled                  // the sampler (or the strategy's rate limit) said no
	RateLimited                 // CLROTEL_RATE_LIMIT refused it
)

// Plan is the reference of the C strategy block: the per-method settings
// and the limiters one published configuration decides with. Its limiters
// keep state, so a Plan is used from one goroutine.
type Plan struct {
	Methods  []MethodSetting
	lower    []*Limiter // per method, for LowerBound
	strategy *Limiter   // the strategy's own rate limit
	rate     *Limiter   // CLROTEL_RATE_LIMIT
}

// NewPlan resolves every method for c and st, in index order.
func (c Config) NewPlan(methods []MethodNames, st *Strategy) *Plan {
	p := &Plan{Methods: make([]MethodSetting, len(methods)), lower: make([]*Limiter, len(methods))}
	for i, m := range methods {
		p.Methods[i] = c.Setting(m, st)
		if lb := p.Methods[i].LowerBound; lb > 0 {
			p.lower[i] = NewLimiterFrac(lb, math.Max(lb, 1))
		}
	}
	if r, b := c.StrategyLimit(st); r > 0 {
		p.strategy = NewLimiterFrac(r, b)
	}
	p.rate = NewLimiter(c.RateLimit, c.Burst)
	return p
}

// Decide is the reference decision for a root call of method i with trace
// id tid at time now (ns), in the order the hook takes it: the bound, the
// method's guaranteed rate (a token is taken even when the bound already
// said yes, as Jaeger's SDKs do), the strategy's rate limit, then the
// configured rate limit.
func (p *Plan) Decide(i int, tid [16]byte, now int64) Decision {
	m := p.Methods[i]
	ok := Sampled(tid, m.Bound)
	if l := p.lower[i]; l != nil {
		if lb := l.Allow(now); !ok {
			ok = lb
		}
	}
	if !ok {
		return NotSampled
	}
	if p.strategy != nil && !p.strategy.Allow(now) {
		return NotSampled
	}
	if p.rate != nil && !p.rate.Allow(now) {
		return RateLimited
	}
	return Kept
}

// LimiterParams are the C limiter's parameters for rate traces a second
// with a bucket of burst traces (burst may be fractional; below 1 counts
// as 1). rate <= 0: interval 0, no limit.
func LimiterParams(rate, burst float64) (intervalNs, toleranceNs int64) {
	if rate <= 0 {
		return 0, 0
	}
	if burst < 1 {
		burst = 1
	}
	iv := int64(1e9 / rate)
	if iv < 1 {
		iv = 1
	}
	return iv, int64((burst - 1) * float64(iv))
}

// NewLimiterFrac is NewLimiter with a fractional bucket.
func NewLimiterFrac(rate, burst float64) *Limiter {
	iv, tol := LimiterParams(rate, burst)
	if iv == 0 {
		return nil
	}
	return &Limiter{interval: iv, tolerance: tol}
}
