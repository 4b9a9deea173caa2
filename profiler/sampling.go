package main

/*
#include "capture.h"
*/
import "C"

import (
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

	live sampling.Live // guarded by the function table's lock

	pubMu sync.Mutex // one publish (and its reclaim) at a time

	remote jaegerremote.Runner // the poller, when the sampler is jaeger_remote
}

func newSamplingState(log *logging.Logger, funcs *functionTable, service string) *samplingState {
	s := &samplingState{log: log, funcs: funcs}
	s.remote = jaegerremote.Runner{Service: service, Log: log.Infof, Warn: log.Warnf,
		Publish: func(st sampling.Strategy, live func() bool) {
			s.publish(func() bool {
				if !live() {
					return false // a stopped poller's late answer
				}
				s.live.Strategy = &st
				return true
			})
		}}
	return s
}

// setting resolves a new function's sampling; the caller holds the function table's lock.
func (s *samplingState) setting(names sampling.MethodNames) sampling.MethodSetting {
	return s.live.Setting(names)
}

// config is the sampling configuration in force.
func (s *samplingState) config() (c sampling.Config) {
	s.funcs.Locked(func([]*function) { c = s.live.Config })
	return c
}

func setFnSampling(fn *C.clr_fn, m sampling.MethodSetting) {
	l := m.LowerBoundLimiter()
	C.clr_fn_set_sampling(fn, C.uint64_t(m.Bound), C.int64_t(l.Interval), C.int64_t(l.Tolerance))
}

// publish applies update to the configuration (under the function table's lock) and
// installs the result as the hook's. update returns false to leave
// everything as it is.
func (s *samplingState) publish(update func() bool) {
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	var old *C.clr_strategy
	s.funcs.Locked(func(list []*function) {
		blk := C.clr_strategy_alloc(C.uint32_t(len(list)))
		if blk == nil {
			s.log.Errorf("sampling: out of memory for a strategy block; the previous settings stay in force")
			return
		}
		if !update() {
			C.clr_strategy_free(blk)
			return
		}
		names := make([]sampling.MethodNames, len(list))
		for i, f := range list {
			names[i] = f.names
		}
		b := s.live.Block(names)
		for i, m := range b.Methods {
			l := m.LowerBound
			C.clr_strategy_set_method(blk, C.uint32_t(i), C.uint64_t(m.Bound), C.int64_t(l.Interval), C.int64_t(l.Tolerance))
		}
		sl, rl := b.Strategy, b.Rate
		C.clr_strategy_set_limits(blk, C.uint64_t(b.Gen), C.int64_t(sl.Interval), C.int64_t(sl.Tolerance), C.int64_t(rl.Interval), C.int64_t(rl.Tolerance))
		if b.ParentBased {
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

// applyReload takes a reloaded configuration's sampling section live.
func (p *profiler) applyReload(c config.Config, notLive []string) {
	for _, what := range notLive {
		p.log.Warnf("config file %s: %s changed; it applies at the next start (methods are selected and planned when compiled)", p.cfgPath, what)
	}
	p.bridge.SetMinDuration(c.Sampling.MinDurationNs)
	p.samp.publish(func() bool { p.samp.live.Reload(c.Sampling); return true })
	p.samp.remote.Apply(c.Sampling)
	p.log.Infof("config file %s reloaded: sampler %s", p.cfgPath, c.Sampling.Sampler)
}

// watchConfig checks CLROTEL_CONFIG every second until shutdown and applies
// what may change live.
func (p *profiler) watchConfig(w *config.Watcher) {
	w.Run(p.stop, time.Second, func(r *config.Reload) { p.applyReload(r.Config, r.NotLive) }, func(err error) { p.log.Errorf("%v", err) })
}
