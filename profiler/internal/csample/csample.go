// Package csample tests the profiler's C sampling decision (profiler/sample.h,
// symlinked here so the go command hashes it) against the Go reference in
// package sampling. Test-only: nothing imports it.
package csample

/*
#include <stdlib.h>
#include "sample.h"

static int decide(const uint8_t *tid, uint64_t bound) { return clr_sampled(tid, bound); }

static _Atomic int64_t tat;
static void reset(void) { atomic_store(&tat, 0); }
static int allow(int64_t interval, int64_t tolerance, int64_t now) { return clr_rate_allow(&tat, interval, tolerance, now); }
*/
import "C"

import "unsafe"

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
