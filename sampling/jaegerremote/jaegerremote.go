package jaegerremote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/gogo/protobuf/jsonpb"
	api "github.com/jaegertracing/jaeger-idl/proto-gen/api_v2"

	"github.com/clrotel/clrotel/sampling"
)

// Parse decodes a sampling API answer. Both encodings Jaeger serves are
// accepted: the Protobuf JSON ("strategyType":"PROBABILISTIC") and the
// legacy Thrift one ("strategyType":0). Unknown fields are ignored.
func Parse(data []byte) (sampling.Strategy, error) {
	var r api.SamplingStrategyResponse
	u := jsonpb.Unmarshaler{AllowUnknownFields: true}
	if err := u.Unmarshal(bytes.NewReader(data), &r); err != nil {
		return sampling.Strategy{}, fmt.Errorf("not a sampling strategy: %w", err)
	}
	return fromResponse(&r)
}

func checkRate(what string, p float64) error {
	if p < 0 || p > 1 || math.IsNaN(p) {
		return fmt.Errorf("%s %v: want a probability from 0 to 1", what, p)
	}
	return nil
}

// fromResponse maps the IDL's answer as Jaeger's SDKs read it: per-operation
// sampling when present, else the strategy type's own parameters.
func fromResponse(r *api.SamplingStrategyResponse) (sampling.Strategy, error) {
	if ops := r.OperationSampling; ops != nil {
		s := sampling.Strategy{
			Probability: ops.DefaultSamplingProbability,
			LowerBound:  ops.DefaultLowerBoundTracesPerSecond,
			Operations:  map[string]float64{},
		}
		if err := checkRate("defaultSamplingProbability", s.Probability); err != nil {
			return sampling.Strategy{}, err
		}
		if s.LowerBound < 0 || math.IsNaN(s.LowerBound) {
			return sampling.Strategy{}, fmt.Errorf("defaultLowerBoundTracesPerSecond %v: want 0 or more", s.LowerBound)
		}
		for _, o := range ops.PerOperationStrategies {
			if o == nil || o.ProbabilisticSampling == nil {
				continue
			}
			p := o.ProbabilisticSampling.SamplingRate
			if err := checkRate("operation "+o.Operation, p); err != nil {
				return sampling.Strategy{}, err
			}
			s.Operations[o.Operation] = p
		}
		return s, nil
	}
	switch r.StrategyType {
	case api.SamplingStrategyType_RATE_LIMITING:
		if r.RateLimitingSampling == nil {
			return sampling.Strategy{}, errors.New("RATE_LIMITING without rateLimitingSampling")
		}
		n := r.RateLimitingSampling.MaxTracesPerSecond
		if n < 0 {
			return sampling.Strategy{}, fmt.Errorf("maxTracesPerSecond %d: want 0 or more", n)
		}
		if n == 0 {
			return sampling.Strategy{Probability: 0}, nil
		}
		return sampling.Strategy{MaxTracesPerSecond: float64(n)}, nil
	default:
		if r.ProbabilisticSampling == nil {
			return sampling.Strategy{}, errors.New("PROBABILISTIC without probabilisticSampling")
		}
		p := r.ProbabilisticSampling.SamplingRate
		if err := checkRate("samplingRate", p); err != nil {
			return sampling.Strategy{}, err
		}
		return sampling.Strategy{Probability: p}, nil
	}
}

// Describe renders a strategy for people, one line per entry, operations
// sorted.
func Describe(s sampling.Strategy) string {
	var b strings.Builder
	switch {
	case s.MaxTracesPerSecond > 0:
		fmt.Fprintf(&b, "rate limiting: at most %g traces per second\n", s.MaxTracesPerSecond)
	case s.PerOperation():
		fmt.Fprintf(&b, "per operation: default probability %g, at least %g traces per second per method\n", s.Probability, s.LowerBound)
		ops := make([]string, 0, len(s.Operations))
		for o := range s.Operations {
			ops = append(ops, o)
		}
		sort.Strings(ops)
		for _, o := range ops {
			fmt.Fprintf(&b, "  %s: probability %g\n", o, s.Operations[o])
		}
	default:
		fmt.Fprintf(&b, "probabilistic: probability %g\n", s.Probability)
	}
	return b.String()
}

// Fetcher gets the raw strategy answer for a service.
type Fetcher interface {
	Fetch(ctx context.Context, service string) ([]byte, error)
}

// HTTPFetcher asks the HTTP sampling API at Endpoint. A bare endpoint
// (http://host:5778) is asked at its root path, as Jaeger v2 serves it.
type HTTPFetcher struct {
	Endpoint string
	Client   *http.Client // nil: a client with a 5 s timeout
}

// StatusError is an answer other than 200 OK.
type StatusError struct {
	Code int
	Body string
}

func (e *StatusError) Error() string { return fmt.Sprintf("HTTP %d: %s", e.Code, e.Body) }

var defaultClient = &http.Client{Timeout: 5 * time.Second}

// Fetch implements Fetcher.
func (f HTTPFetcher) Fetch(ctx context.Context, service string) ([]byte, error) {
	u, err := url.Parse(f.Endpoint)
	if err != nil {
		return nil, err
	}
	q := u.Query()
	q.Set("service", service)
	u.RawQuery = q.Encode()
	if u.Path == "" {
		u.Path = "/"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	c := f.Client
	if c == nil {
		c = defaultClient
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, &StatusError{Code: resp.StatusCode, Body: strings.TrimSpace(string(body))}
	}
	return body, nil
}

// Poller keeps a service's strategy current: it asks Fetcher every
// Interval, hands each new strategy to Publish, and on failure keeps the
// last one (Publish is not called) and asks again sooner, backing off from
// 1 s (never more often than every Interval/10, never less than Interval).
// Log hears about changes of state only: the first failure of a kind, the
// recovery, and each new strategy.
type Poller struct {
	Fetcher  Fetcher
	Service  string
	Interval time.Duration
	Publish  func(sampling.Strategy)
	Log      func(format string, args ...any) // new strategies, recovery
	Warn     func(format string, args ...any) // failures (nil: Log)

	last     *sampling.Strategy
	state    string // "" before the first answer, "ok", or a failure's kind
	failures int
}

// Last returns the strategy in force, nil before the first good answer.
func (p *Poller) Last() *sampling.Strategy { return p.last }

// kind names a failure for "once per change of state": the endpoint not
// answering, an HTTP status, or an answer that is not a strategy.
func kind(err error) string {
	var se *StatusError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("HTTP %d", se.Code)
	case errors.Is(err, errParse):
		return "bad answer"
	}
	return "unreachable"
}

var errParse = errors.New("bad answer")

// Poll asks once, publishes a changed strategy, and returns the failure
// if the answer could not be used.
func (p *Poller) Poll(ctx context.Context) error {
	data, err := p.Fetcher.Fetch(ctx, p.Service)
	var s sampling.Strategy
	if err == nil {
		if s, err = Parse(data); err != nil {
			err = fmt.Errorf("%w: %v", errParse, err)
		}
	}
	if err != nil {
		p.failures++
		if k := kind(err); k != p.state {
			what := "keeping the last strategy"
			if p.last == nil {
				what = "sampling at the initial rate until it answers"
			}
			warn := p.Warn
			if warn == nil {
				warn = p.logf
			}
			warn("jaeger_remote: strategy for %s: %v; %s", p.Service, err, what)
			p.state = k
		}
		return err
	}
	p.failures = 0
	if p.state != "ok" && p.state != "" {
		p.logf("jaeger_remote: strategy endpoint answers again for %s", p.Service)
	}
	p.state = "ok"
	if p.last == nil || !p.last.Equal(s) {
		p.last = &s
		if p.Publish != nil {
			p.Publish(s)
		}
		// Said once in force, so a reader of the log can rely on it.
		p.logf("jaeger_remote: strategy for %s: %s", p.Service, strings.TrimSpace(Describe(s)))
	}
	return nil
}

// Next is how long to wait before the next poll.
func (p *Poller) Next() time.Duration {
	if p.failures == 0 {
		return p.Interval
	}
	d := time.Second << min(p.failures-1, 16)
	if floor := p.Interval / 10; d < floor {
		d = floor
	}
	return min(d, p.Interval)
}

// Run polls until ctx ends. The first poll is immediate.
func (p *Poller) Run(ctx context.Context) {
	for {
		_ = p.Poll(ctx)
		t := time.NewTimer(p.Next())
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

func (p *Poller) logf(format string, args ...any) {
	if p.Log != nil {
		p.Log(format, args...)
	}
}
