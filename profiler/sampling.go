package main

/*
#include "capture.h"
*/
import "C"

import (
	"context"
	"sync"
	"time"

	"github.com/clrotel/clrotel/config"
	"github.com/clrotel/clrotel/internal/logging"
	"github.com/clrotel/clrotel/profiler/internal/quiesce"
	"github.com/clrotel/clrotel/sampling"
	"github.com/clrotel/clrotel/sampling/jaegerremote"
)

// samplingState is the glue between the sampling configuration (the file,
// the remote strategy) and the C hook: each change is resolved per method
// (sampling.Config.Setting) into a new strategy block, published with one
// pointer exchange, and the block it replaces is freed once no thread can
// be deciding with it (strategy.c).
type samplingState struct {
	log   *logging.Logger
	funcs *functionTable

	// Guarded by funcs.mu, so that a function compiled while a block is
	// built is resolved from the same configuration as the block.
	cfg      sampling.Config
	strategy *sampling.Strategy
	gen      uint64

	pubMu sync.Mutex // one publish (and its reclaim) at a time

	// The remote poller, when the sampler is jaeger_remote.
	service    string
	pollMu     sync.Mutex
	pollCancel context.CancelFunc
	pollRemote sampling.Remote
}

// setting resolves a new function's sampling; the caller holds funcs.mu.
func (s *samplingState) setting(names sampling.MethodNames) sampling.MethodSetting {
	return s.cfg.Setting(names, s.strategy)
}

// config is the sampling configuration in force.
func (s *samplingState) config() (c sampling.Config) {
	s.funcs.locked(func([]*function) { c = s.cfg })
	return c
}

func setFnSampling(fn *C.clr_fn, m sampling.MethodSetting) {
	iv, tol := sampling.LimiterParams(m.LowerBound, max(m.LowerBound, 1))
	C.clr_fn_set_sampling(fn, C.uint64_t(m.Bound), C.int64_t(iv), C.int64_t(tol))
}

// publish applies update to the configuration (under funcs.mu) and
// installs the result as the hook's. update returns false to leave
// everything as it is.
func (s *samplingState) publish(update func() bool) {
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	var old *C.clr_strategy
	s.funcs.locked(func(list []*function) {
		blk := C.clr_strategy_alloc(C.uint32_t(len(list)))
		if blk == nil {
			s.log.Errorf("sampling: out of memory for a strategy block; the previous settings stay in force")
			return
		}
		if !update() {
			C.clr_strategy_free(blk)
			return
		}
		s.gen++
		for i, f := range list {
			m := s.cfg.Setting(f.names, s.strategy)
			iv, tol := sampling.LimiterParams(m.LowerBound, max(m.LowerBound, 1))
			C.clr_strategy_set_method(blk, C.uint32_t(i), C.uint64_t(m.Bound), C.int64_t(iv), C.int64_t(tol))
		}
		liv, ltol := sampling.LimiterParams(s.cfg.StrategyLimit(s.strategy))
		riv, rtol := int64(0), int64(0)
		if l := sampling.NewLimiter(s.cfg.RateLimit, s.cfg.Burst); l != nil {
			riv, rtol = l.Params()
		}
		C.clr_strategy_set_limits(blk, C.uint64_t(s.gen), C.int64_t(liv), C.int64_t(ltol), C.int64_t(riv), C.int64_t(rtol))
		if s.cfg.ParentBased() {
			C.clr_strategy_set_parent_based(blk, 1)
		}
		old = C.clr_strategy_publish(blk)
	})
	if old != nil {
		s.reclaim(old)
	}
}

// reclaim frees a replaced block once every thread that might have loaded
// it has finished its decision. A thread stuck mid-decision for 10 s (the
// runtime suspended it) leaves the block allocated: a bounded leak,
// counted.
func (s *samplingState) reclaim(old *C.clr_strategy) {
	C.clr_strategy_barrier()
	seq := func(i uint32) uint64 { return uint64(C.clr_slot_decision_seq(C.uint32_t(i))) }
	if !quiesce.Wait(uint32(C.clr_slot_count()), seq, time.Millisecond, 10*time.Second) {
		s.log.Warnf("sampling: a thread has been deciding for 10 s; the replaced strategy block (%d bytes) stays allocated", 64+32*int(old.n))
		return
	}
	C.clr_strategy_free(old)
}

// stopRemote stops the jaeger_remote poller, if one runs.
func (s *samplingState) stopRemote() {
	s.pollMu.Lock()
	defer s.pollMu.Unlock()
	s.stopRemoteLocked()
}

func (s *samplingState) stopRemoteLocked() {
	if s.pollCancel != nil {
		s.pollCancel()
		s.pollCancel = nil
	}
}

// startRemote starts, restarts or stops the jaeger_remote poller for cfg.
func (s *samplingState) startRemote(cfg sampling.Config) {
	s.pollMu.Lock()
	defer s.pollMu.Unlock()
	if !cfg.IsRemote() {
		s.stopRemoteLocked()
		return
	}
	if s.pollCancel != nil && s.pollRemote.Endpoint == cfg.Remote.Endpoint && s.pollRemote.PollingInterval == cfg.Remote.PollingInterval {
		return
	}
	if s.pollCancel != nil {
		s.pollCancel()
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.pollCancel, s.pollRemote = cancel, cfg.Remote
	p := &jaegerremote.Poller{
		Fetcher:  jaegerremote.HTTPFetcher{Endpoint: cfg.Remote.Endpoint},
		Service:  s.service,
		Interval: cfg.Remote.PollingInterval,
		Log:      s.log.Infof,
		Warn:     s.log.Warnf,
		Publish: func(st sampling.Strategy) {
			s.publish(func() bool {
				if ctx.Err() != nil {
					return false // a stopped poller's late answer
				}
				s.strategy = &st
				return true
			})
		},
	}
	go p.Run(ctx)
}

// applyReload takes a reloaded configuration's sampling section live.
func (p *profiler) applyReload(c config.Config, notLive []string) {
	for _, what := range notLive {
		p.log.Warnf("config file %s: %s changed; it applies at the next start (methods are selected and planned when compiled)", p.cfgPath, what)
	}
	p.bridge.SetMinDuration(c.Sampling.MinDurationNs)
	p.samp.publish(func() bool {
		if c.Sampling.Remote != p.samp.cfg.Remote {
			p.samp.strategy = nil // another endpoint: the initial rate until it answers
		}
		p.samp.cfg = c.Sampling
		return true
	})
	p.samp.startRemote(c.Sampling)
	p.log.Infof("config file %s reloaded: sampler %s", p.cfgPath, c.Sampling.Sampler)
}

// watchConfig checks CLROTEL_CONFIG every second until shutdown and applies
// what may change live.
func (p *profiler) watchConfig(w *config.Watcher) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
		}
		r, err := w.Check()
		if err != nil {
			p.log.Errorf("%v", err)
			continue
		}
		if r != nil {
			p.applyReload(r.Config, r.NotLive)
		}
	}
}
