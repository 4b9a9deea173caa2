package csample

/*
#include <stdlib.h>
#include "sample.h"

static int decide(const uint8_t *tid, uint64_t bound) { return clr_sampled(tid, bound); }

static _Atomic int64_t tat;

// A strategy block and the clock the decision reads, driven by the test.
static int64_t g_now;
static int64_t test_clock(void) { return g_now; }
static clr_strategy *blk_new(uint32_t n) {
    clr_strategy *st = calloc(1, sizeof(clr_strategy) + n * sizeof(clr_method_sampling));
    st->n = n;
    return st;
}
static void blk_method(clr_strategy *st, uint32_t i, uint64_t bound, int64_t iv, int64_t tol) {
    st->methods[i].bound = bound;
    st->methods[i].lb_interval = iv;
    st->methods[i].lb_tolerance = tol;
}
static void blk_limits(clr_strategy *st, int64_t liv, int64_t ltol, int64_t riv, int64_t rtol) {
    st->limit_interval = liv;
    st->limit_tolerance = ltol;
    st->rate_interval = riv;
    st->rate_tolerance = rtol;
}
static int blk_decide(clr_strategy *st, uint32_t i, const uint8_t *tid, int64_t now) {
    g_now = now;
    return clr_decide(st, &st->methods[i], &tat, tid, test_clock);
}
static int blk_decide_parent(clr_strategy *st, int sampled, int64_t now) {
    g_now = now;
    return clr_decide_parent(st, &tat, sampled, test_clock);
}
static void reset(void) { atomic_store(&tat, 0); }
static int allow(int64_t interval, int64_t tolerance, int64_t now) { return clr_rate_allow(&tat, interval, tolerance, now); }
*/
import "C"

import (
	"unsafe"

	"github.com/clrotel/clrotel/sampling"
)

// Sampled is the C decision for a trace id and bound.
func Sampled(tid [16]byte, bound uint64) bool {
	return C.decide((*C.uint8_t)(unsafe.Pointer(&tid[0])), C.uint64_t(bound)) != 0
}

// Limiter drives the C rate limiter (one per process: Reset between uses).
type Limiter struct{ interval, tolerance int64 }

// NewLimiter resets the C limiter's state.
func NewLimiter(intervalNs, toleranceNs int64) Limiter {
	C.reset()
	return Limiter{intervalNs, toleranceNs}
}

// Allow asks the C limiter for a token at time now.
func (l Limiter) Allow(now int64) bool {
	return C.allow(C.int64_t(l.interval), C.int64_t(l.tolerance), C.int64_t(now)) != 0
}

// Block is a C strategy block built from a sampling.Plan's settings, as the
// profiler builds one (profiler/sampling.go), deciding with the C code.
type Block struct{ p *C.clr_strategy }

// NewBlock builds the block for c and st over methods, resetting the
// configured rate limit's state.
func NewBlock(c sampling.Config, st *sampling.Strategy, methods []sampling.MethodNames) Block {
	C.reset()
	b := Block{C.blk_new(C.uint32_t(len(methods)))}
	for i, m := range methods {
		s := c.Setting(m, st)
		iv, tol := sampling.LimiterParams(s.LowerBound, max(s.LowerBound, 1))
		C.blk_method(b.p, C.uint32_t(i), C.uint64_t(s.Bound), C.int64_t(iv), C.int64_t(tol))
	}
	liv, ltol := sampling.LimiterParams(c.StrategyLimit(st))
	var riv, rtol int64
	if l := sampling.NewLimiter(c.RateLimit, c.Burst); l != nil {
		riv, rtol = l.Params()
	}
	C.blk_limits(b.p, C.int64_t(liv), C.int64_t(ltol), C.int64_t(riv), C.int64_t(rtol))
	return b
}

// Decide is the C decision for a root call of method i.
func (b Block) Decide(i int, tid [16]byte, now int64) sampling.Decision {
	return sampling.Decision(C.blk_decide(b.p, C.uint32_t(i), (*C.uint8_t)(unsafe.Pointer(&tid[0])), C.int64_t(now)))
}

// DecideParent is the C decision for a root that joined a caller's trace
// under a parentbased_* sampler: the caller's sampled flag, then the
// configured rate limit.
func (b Block) DecideParent(sampled bool, now int64) sampling.Decision {
	v := 0
	if sampled {
		v = 1
	}
	return sampling.Decision(C.blk_decide_parent(b.p, C.int(v), C.int64_t(now)))
}

// Free releases the block.
func (b Block) Free() { C.free(unsafe.Pointer(b.p)) }
