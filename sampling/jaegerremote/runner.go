package jaegerremote

import (
	"context"
	"sync"

	"github.com/clrotel/clrotel/sampling"
)

// Runner keeps one Poller running while the sampler is jaeger_remote:
// Apply starts it, restarts it for another endpoint or interval, and stops
// it for another sampler.
type Runner struct {
	Service string
	Log     func(format string, args ...any) // Poller.Log
	Warn    func(format string, args ...any) // Poller.Warn
	// Publish takes a strategy live. live says whether the poller that got
	// it still runs: a stopped poller's late answer is not taken.
	Publish func(st sampling.Strategy, live func() bool)
	// Fetcher asks an endpoint (nil: HTTPFetcher).
	Fetcher func(endpoint string) Fetcher

	mu      sync.Mutex
	cancel  context.CancelFunc
	running sampling.Remote
}

// Apply starts, restarts or stops the poller for cfg.
func (r *Runner) Apply(cfg sampling.Config) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !cfg.IsRemote() {
		r.stopLocked()
		return
	}
	if r.cancel != nil && r.running.Endpoint == cfg.Remote.Endpoint && r.running.PollingInterval == cfg.Remote.PollingInterval {
		return
	}
	r.stopLocked()
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel, r.running = cancel, cfg.Remote
	var f Fetcher = HTTPFetcher{Endpoint: cfg.Remote.Endpoint}
	if r.Fetcher != nil {
		f = r.Fetcher(cfg.Remote.Endpoint)
	}
	live := func() bool { return ctx.Err() == nil }
	p := &Poller{Fetcher: f, Service: r.Service, Interval: cfg.Remote.PollingInterval, Log: r.Log, Warn: r.Warn,
		Publish: func(st sampling.Strategy) { r.Publish(st, live) }}
	go p.Run(ctx)
}

// Stop stops the poller, if one runs.
func (r *Runner) Stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopLocked()
}

func (r *Runner) stopLocked() {
	if r.cancel != nil {
		r.cancel()
		r.cancel = nil
	}
}
