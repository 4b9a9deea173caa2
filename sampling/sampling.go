package sampling

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/clrotel/clrotel/naming"
)

// Sampler names of OTEL_TRACES_SAMPLER that clrotel supports.
const (
	AlwaysOn                = "always_on"
	AlwaysOff               = "always_off"
	TraceIDRatio            = "traceidratio"
	ParentBasedAlwaysOn     = "parentbased_always_on"
	ParentBasedAlwaysOff    = "parentbased_always_off"
	ParentBasedTraceIDRatio = "parentbased_traceidratio"
	// JaegerRemote and ParentBasedJaegerRemote poll a Jaeger sampling
	// endpoint for the service's strategy (see Remote and Strategy).
	JaegerRemote            = "jaeger_remote"
	ParentBasedJaegerRemote = "parentbased_jaeger_remote"
)

// Action is what a per-method rule does to traces rooted at the method.
type Action int

const (
	Always Action = iota + 1
	Never
	Ratio
)

// Rule applies to traces whose root call is a method matching Pattern (a
// glob over Namespace.Type.Method, as for selection). First match wins.
type Rule struct {
	Pattern string
	Action  Action
	Ratio   float64 // with Ratio
}

// Config is the sampling configuration.
type Config struct {
	Sampler string  // one of the OTEL_TRACES_SAMPLER names
	Ratio   float64 // for the ratio samplers
	Rules   []Rule
	// RateLimit caps sampled traces per second (a token bucket with room
	// for Burst traces); 0 means no limit.
	RateLimit float64
	Burst     int
	// MinDurationNs drops finished non-root spans of sampled traces shorter
	// than this; the parent counts what it lost.
	MinDurationNs int64
	// Remote is where the jaeger_remote samplers get their strategy.
	Remote Remote
}

// Remote configures the jaeger_remote samplers (OTEL_TRACES_SAMPLER_ARG
// endpoint=...,pollingIntervalMs=...,initialSamplingRate=...).
type Remote struct {
	// Endpoint is the Jaeger HTTP sampling API: GET Endpoint?service=NAME.
	Endpoint        string
	PollingInterval time.Duration
	// InitialRate is the probability used until the first answer.
	InitialRate float64
}

// Default values of the jaeger_remote arguments. The specification's
// default endpoint is Jaeger's gRPC port (14250); clrotel speaks the HTTP
// API, which Jaeger and the Collector's extension serve on 5778.
const (
	DefaultRemoteEndpoint    = "http://localhost:5778"
	DefaultPollingInterval   = 60 * time.Second
	DefaultInitialSampleRate = 0.001
)

// Default is the configuration with nothing set: every trace is sampled.
func Default() Config {
	return Config{Sampler: ParentBasedAlwaysOn, Ratio: 1, Remote: Remote{
		Endpoint: DefaultRemoteEndpoint, PollingInterval: DefaultPollingInterval, InitialRate: DefaultInitialSampleRate,
	}}
}

// IsRemote reports whether the sampler gets its strategy from Remote.
func (c Config) IsRemote() bool {
	return c.Sampler == JaegerRemote || c.Sampler == ParentBasedJaegerRemote
}

// ParseRemoteArg parses the jaeger_remote OTEL_TRACES_SAMPLER_ARG into r:
// comma-separated key=value pairs, endpoint, pollingIntervalMs and
// initialSamplingRate, each optional.
func ParseRemoteArg(r Remote, arg string) (Remote, error) {
	for _, kv := range strings.Split(arg, ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok {
			return r, fmt.Errorf("OTEL_TRACES_SAMPLER_ARG: %q: want key=value", kv)
		}
		switch k {
		case "endpoint":
			if !strings.HasPrefix(v, "http://") && !strings.HasPrefix(v, "https://") {
				return r, fmt.Errorf("OTEL_TRACES_SAMPLER_ARG: endpoint=%q: want an http:// or https:// URL of the Jaeger HTTP sampling API", v)
			}
			r.Endpoint = v
		case "pollingIntervalMs":
			n, err := strconv.ParseUint(v, 10, 32)
			if err != nil || n < 100 {
				return r, fmt.Errorf("OTEL_TRACES_SAMPLER_ARG: pollingIntervalMs=%q: want milliseconds, at least 100", v)
			}
			r.PollingInterval = time.Duration(n) * time.Millisecond
		case "initialSamplingRate":
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || f < 0 || f > 1 || math.IsNaN(f) {
				return r, fmt.Errorf("OTEL_TRACES_SAMPLER_ARG: initialSamplingRate=%q: want a ratio from 0 to 1", v)
			}
			r.InitialRate = f
		default:
			return r, fmt.Errorf("OTEL_TRACES_SAMPLER_ARG: unknown key %q: want endpoint, pollingIntervalMs or initialSamplingRate", k)
		}
	}
	return r, nil
}

// FromEnv reads OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG into c, as
// the OpenTelemetry specification defines them. A bad value is an error;
// the caller keeps c's previous sampler.
func FromEnv(c Config, lookup func(string) (string, bool)) (Config, error) {
	name, ok := lookup("OTEL_TRACES_SAMPLER")
	name = strings.ToLower(strings.TrimSpace(name))
	if !ok || name == "" {
		return c, nil
	}
	arg, hasArg := lookup("OTEL_TRACES_SAMPLER_ARG")
	switch name {
	case AlwaysOn, AlwaysOff, ParentBasedAlwaysOn, ParentBasedAlwaysOff:
		c.Sampler = name
	case TraceIDRatio, ParentBasedTraceIDRatio:
		ratio := 1.0
		if hasArg && strings.TrimSpace(arg) != "" {
			r, err := strconv.ParseFloat(strings.TrimSpace(arg), 64)
			if err != nil || r < 0 || r > 1 || math.IsNaN(r) {
				return c, fmt.Errorf("OTEL_TRACES_SAMPLER_ARG=%q: want a ratio from 0 to 1", arg)
			}
			ratio = r
		}
		c.Sampler, c.Ratio = name, ratio
	case JaegerRemote, ParentBasedJaegerRemote:
		r, err := ParseRemoteArg(c.Remote, arg)
		if err != nil {
			return c, err
		}
		c.Sampler, c.Remote = name, r
	default:
		return c, fmt.Errorf("OTEL_TRACES_SAMPLER=%q: want %s", name, SamplerNames)
	}
	return c, nil
}

// SamplerNames lists the accepted OTEL_TRACES_SAMPLER values, for messages.
const SamplerNames = "always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio, jaeger_remote or parentbased_jaeger_remote"

// AlwaysBound is the bound that samples every trace id.
const AlwaysBound = math.MaxUint64

// Bound is the trace-id threshold of a ratio, the way the OpenTelemetry Go
// SDK's TraceIDRatioBased computes it: a trace is sampled when the last 8
// bytes of its id, big-endian and shifted right by one, are below the
// bound. Ratios >= 1 sample everything, <= 0 nothing.
func Bound(ratio float64) uint64 {
	switch {
	case ratio >= 1:
		return AlwaysBound
	case ratio <= 0 || math.IsNaN(ratio):
		return 0
	}
	return uint64(ratio * (1 << 63))
}

// Sampled reports whether a trace id is under bound.
func Sampled(traceID [16]byte, bound uint64) bool {
	if bound == AlwaysBound {
		return true
	}
	return binary.BigEndian.Uint64(traceID[8:16])>>1 < bound
}

// ParentBased reports whether the sampler follows a parent's sampled flag:
// a root that joins a caller's trace (Activity.Current) is sampled as its
// parent was.
func (c Config) ParentBased() bool {
	switch c.Sampler {
	case ParentBasedAlwaysOn, ParentBasedAlwaysOff, ParentBasedTraceIDRatio, ParentBasedJaegerRemote:
		return true
	}
	return false
}

// DefaultBound is the bound of the configured sampler for a trace whose root
// has no parent to follow: a trace that starts in-process, or one joined
// (Activity.Current) under a sampler that is not parent-based, decided on
// the joined trace id. A parent-based sampler decides such roots as its
// root sampler.
func (c Config) DefaultBound() uint64 {
	switch c.Sampler {
	case AlwaysOff, ParentBasedAlwaysOff:
		return 0
	case TraceIDRatio, ParentBasedTraceIDRatio:
		return Bound(c.Ratio)
	case JaegerRemote, ParentBasedJaegerRemote:
		return Bound(c.Remote.InitialRate) // before any strategy arrives
	}
	return AlwaysBound
}

// RootBound is the bound for traces rooted at the method named name
// (Namespace.Type.Method): the first matching rule's, else the sampler's.
func (c Config) RootBound(name string) uint64 {
	for _, r := range c.Rules {
		if !naming.Match(r.Pattern, name) {
			continue
		}
		switch r.Action {
		case Always:
			return AlwaysBound
		case Never:
			return 0
		case Ratio:
			return Bound(r.Ratio)
		}
	}
	return c.DefaultBound()
}

// Decide is the reference decision for a root call of method name with
// trace id tid, before the rate limit.
func (c Config) Decide(name string, tid [16]byte) bool {
	return Sampled(tid, c.RootBound(name))
}

// ParseRule parses "pattern=always", "pattern=never" or "pattern=0.25".
func ParseRule(s string) (Rule, error) {
	i := strings.LastIndexByte(s, '=')
	if i <= 0 {
		return Rule{}, fmt.Errorf("sampling rule %q: want pattern=always|never|<ratio>", s)
	}
	r := Rule{Pattern: strings.TrimSpace(s[:i])}
	switch v := strings.TrimSpace(s[i+1:]); v {
	case "always":
		r.Action = Always
	case "never":
		r.Action = Never
	default:
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0 || f > 1 || math.IsNaN(f) {
			return Rule{}, fmt.Errorf("sampling rule %q: %q is not always, never or a ratio from 0 to 1", s, v)
		}
		r.Action, r.Ratio = Ratio, f
	}
	if r.Pattern == "" {
		return Rule{}, fmt.Errorf("sampling rule %q: empty pattern", s)
	}
	return r, nil
}

// Limiter is the reference of the C rate limiter: a token bucket in its
// "virtual scheduling" form (GCRA). It holds Burst tokens and gains one every
// 1/rate seconds; a trace takes one. Its whole state is one time (tat), so
// the C version updates it with a single compare-and-swap.
type Limiter struct {
	interval  int64 // ns per token
	tolerance int64 // how far ahead of now tat may run: (burst-1) * interval
	tat       int64 // theoretical arrival time of the next token
}

// NewLimiter returns a limiter of rate traces per second with room for
// burst (at least 1). rate <= 0 returns nil: no limit.
func NewLimiter(rate float64, burst int) *Limiter {
	if rate <= 0 {
		return nil
	}
	if burst < 1 {
		burst = 1
	}
	iv := int64(1e9 / rate)
	if iv < 1 {
		iv = 1
	}
	return &Limiter{interval: iv, tolerance: int64(burst-1) * iv}
}

// Params are what the C limiter is configured with.
func (l *Limiter) Params() (intervalNs, toleranceNs int64) { return l.interval, l.tolerance }

// Allow takes a token at time now (ns) if one is there.
func (l *Limiter) Allow(now int64) bool {
	tat := l.tat
	if tat < now {
		tat = now
	}
	if tat-now > l.tolerance {
		return false
	}
	l.tat = tat + l.interval
	return true
}
