package cfold

/*
#include <stdlib.h>
#include "capture.h"

static clr_fn *fn_new(uint32_t calls, uint32_t slow, uint32_t flags, uint32_t roots) {
    clr_fn *fn = calloc(1, sizeof *fn);
    if (fn == NULL)
        return NULL;
    atomic_store(&fn->stat_calls, calls);
    atomic_store(&fn->stat_slow, slow);
    fn->flags = flags;
    atomic_store(&fn->roots, roots);
    return fn;
}

static void judge(clr_fn *fn, uint32_t min_calls, uint64_t max_ns, uint64_t ns, uint32_t weight) {
    clr_capture_config cfg = {0};
    cfg.fold_min_calls = min_calls;
    cfg.fold_max_ns = max_ns;
    clr_fold_judge(&cfg, fn, ns, weight);
}

static uint32_t fn_calls(const clr_fn *fn) { return atomic_load(&fn->stat_calls); }
static uint32_t fn_slow(const clr_fn *fn) { return atomic_load(&fn->stat_slow); }
static uint32_t fn_flags(const clr_fn *fn) { return fn->flags; }
static int fn_slow_known(const clr_fn *fn) { return clr_fold_slow(fn); }
static int budget_folds(uint32_t budget, uint32_t spans, const clr_fn *fn) { return clr_budget_folds(budget, spans, fn); }
static int rejit_wanted(const clr_fn *fn) { return clr_rejit_wanted(fn); }
static void fn_set_index(clr_fn *fn, uint32_t i) { fn->index = i; }
*/
import "C"

import "unsafe"

// The function flags the rule reads.
const (
	FlagFolded      = C.FN_FOLDED
	FlagExempt      = C.FN_FOLD_EXEMPT
	FlagNeverFolded = C.FN_NEVER_FOLDED
	FlagIterFolded  = C.FN_ITER_FOLDED
)

// Fn is a clr_fn as the hooks hold it, in C memory.
type Fn struct{ p *C.clr_fn }

// NewFn returns a function with the rule's counts, flags and root count
// given. Free it.
func NewFn(calls, slow, flags, roots uint32) Fn {
	p := C.fn_new(C.uint32_t(calls), C.uint32_t(slow), C.uint32_t(flags), C.uint32_t(roots))
	if p == nil {
		panic("cfold: out of memory")
	}
	return Fn{p}
}

func (f Fn) Free() { C.free(unsafe.Pointer(f.p)) }

// Judge is clr_fold_judge: one recorded call of f, standing for weight
// calls, took ns, under the rule fold_min_calls = minCalls, fold_max_ns =
// maxNs.
func (f Fn) Judge(minCalls uint32, maxNs, ns uint64, weight uint32) {
	C.judge(f.p, C.uint32_t(minCalls), C.uint64_t(maxNs), C.uint64_t(ns), C.uint32_t(weight))
}

// Calls, Slow and Flags read f's counts and flags.
func (f Fn) Calls() uint32 { return uint32(C.fn_calls(f.p)) }
func (f Fn) Slow() uint32  { return uint32(C.fn_slow(f.p)) }
func (f Fn) Flags() uint32 { return uint32(C.fn_flags(f.p)) }

// NotKnownFast is clr_fold_slow.
func (f Fn) NotKnownFast() bool { return C.fn_slow_known(f.p) != 0 }

// BudgetFolds is clr_budget_folds.
func (f Fn) BudgetFolds(budget, spans uint32) bool {
	return C.budget_folds(C.uint32_t(budget), C.uint32_t(spans), f.p) != 0
}

// SetIndex sets f's index in Go's function table.
func (f Fn) SetIndex(i uint32) { C.fn_set_index(f.p, C.uint32_t(i)) }

// Fold is clr_fn_fold.
func (f Fn) Fold() { C.clr_fn_fold(f.p) }

// FoldLog reads the log of methods folded: each entry's index + 1, 0 for
// one not stored.
func FoldLog() []uint32 {
	n := uint32(C.clr_folds())
	out := make([]uint32, n)
	for i := range out {
		out[i] = uint32(C.clr_fold_logged(C.uint32_t(i)))
	}
	return out
}

// ResetFoldLog empties the log.
func ResetFoldLog() { C.clr_fold_log_reset() }

// ReJITWanted is clr_rejit_wanted.
func (f Fn) ReJITWanted() bool { return C.rejit_wanted(f.p) != 0 }
