package main

/*
#include "capture.h"
*/
import "C"

import (
	"time"

	"github.com/clrotel/clrotel/config"
	"github.com/clrotel/clrotel/internal/logging"
	"github.com/clrotel/clrotel/profiler/internal/quiesce"
	"github.com/clrotel/clrotel/sampling"
	"github.com/clrotel/clrotel/sampling/jaegerremote"
)

// samplingState wires package sampling's Publisher to the hook's strategy
// blocks (strategy.c) and the remote strategy's poller to it.
type samplingState struct {
	sampling.Publisher[*C.clr_strategy]
	remote jaegerremote.Runner // the poller, when the sampler is jaeger_remote
}

func newSamplingState(log *logging.Logger, funcs *functionTable, service string) *samplingState {
	s := &samplingState{}
	s.Publisher = sampling.Publisher[*C.clr_strategy]{Blocks: strategyBlocks{}, Errorf: log.Errorf, Warnf: log.Warnf,
		Functions: func(fn func(func() []sampling.MethodNames)) {
			funcs.Locked(func(list []*function) { fn(func() []sampling.MethodNames { return functionNames(list) }) })
		}}
	s.remote = jaegerremote.Runner{Service: service, Log: log.Infof, Warn: log.Warnf, Publish: s.Strategy}
	return s
}

// functionNames are the functions' sampling names, by index.
func functionNames(list []*function) []sampling.MethodNames {
	names := make([]sampling.MethodNames, len(list))
	for i, f := range list {
		names[i] = f.names
	}
	return names
}

// strategyBlocks are strategy.c's blocks, as sampling.Publisher uses them.
type strategyBlocks struct{}

func (strategyBlocks) Alloc(n int) *C.clr_strategy               { return C.clr_strategy_alloc(C.uint32_t(n)) }
func (strategyBlocks) Free(b *C.clr_strategy)                    { C.clr_strategy_free(b) }
func (strategyBlocks) Bytes(b *C.clr_strategy) int               { return 64 + 32*int(b.n) }
func (strategyBlocks) Publish(b *C.clr_strategy) *C.clr_strategy { return C.clr_strategy_publish(b) }

func (strategyBlocks) Fill(blk *C.clr_strategy, b sampling.HookBlock) {
	for i, m := range b.Methods {
		l := m.LowerBound
		C.clr_strategy_set_method(blk, C.uint32_t(i), C.uint64_t(m.Bound), C.int64_t(l.Interval), C.int64_t(l.Tolerance))
	}
	sl, rl := b.Strategy, b.Rate
	C.clr_strategy_set_limits(blk, C.uint64_t(b.Gen), C.int64_t(sl.Interval), C.int64_t(sl.Tolerance), C.int64_t(rl.Interval), C.int64_t(rl.Tolerance))
	if b.ParentBased {
		C.clr_strategy_set_parent_based(blk, 1)
	}
}

// Quiesced fences every thread, then waits up to 10 s for each one
// mid-decision to finish it.
func (strategyBlocks) Quiesced() bool {
	C.clr_strategy_barrier()
	seq := func(i uint32) uint64 { return uint64(C.clr_slot_decision_seq(C.uint32_t(i))) }
	return quiesce.Wait(uint32(C.clr_slot_count()), seq, time.Millisecond, 10*time.Second)
}

func setFnSampling(fn *C.clr_fn, m sampling.MethodSetting) {
	l := m.LowerBoundLimiter()
	C.clr_fn_set_sampling(fn, C.uint64_t(m.Bound), C.int64_t(l.Interval), C.int64_t(l.Tolerance))
}

// applyReload takes a reloaded configuration's sampling section live.
func (p *profiler) applyReload(c config.Config, notLive []string) {
	for _, what := range notLive {
		p.log.Warnf("config file %s: %s changed; it applies at the next start (methods are selected and planned when compiled)", p.cfgPath, what)
	}
	p.bridge.SetMinDuration(c.Sampling.MinDurationNs)
	p.samp.Reload(c.Sampling)
	p.samp.remote.Apply(c.Sampling)
	p.log.Infof("config file %s reloaded: sampler %s", p.cfgPath, c.Sampling.Sampler)
}

// watchConfig checks CLROTEL_CONFIG every second until shutdown and applies
// what may change live.
func (p *profiler) watchConfig(w *config.Watcher) {
	w.Run(p.stop, time.Second, func(r *config.Reload) { p.applyReload(r.Config, r.NotLive) }, func(err error) { p.log.Errorf("%v", err) })
}
