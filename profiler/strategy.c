// strategy.c: publishing sampling configurations to the hooks.
//
// A configuration is an immutable block (clr_strategy, sample.h) that Go
// builds and publishes with one atomic pointer exchange; the Enter hook
// loads the pointer once per root decision, with no lock. Reclaiming the
// block it replaces is RCU-like, in the "asymmetric fence" form: a deciding
// thread marks its slot's decision_seq odd with a plain store before it
// loads the pointer, and even after; the publisher, after the exchange, makes
// every thread of the process run a full memory barrier (membarrier(2),
// MEMBARRIER_CMD_PRIVATE_EXPEDITED), then waits until each count it saw odd
// has moved. A thread that loaded the old block is then seen odd, or has
// finished with it. Where membarrier is unavailable the hook fences itself
// (clr_strategy_reader_fence). This file runs on Go's threads only.
#include <linux/membarrier.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "capture.h"

_Atomic(clr_strategy *) clr_strategy_ptr;
int clr_strategy_reader_fence = 1;
static int g_membarrier;

static long membarrier(int cmd) { return syscall(__NR_membarrier, cmd, 0, 0); }

// Called from Initialize, before the hooks run: a process with
// membarrier(2) frees readers from fencing. use_membarrier 0 takes the
// fallback (readers fence) whatever the kernel offers (tests).
int clr_strategy_init_mode(int use_membarrier) {
    g_membarrier = 0;
    clr_strategy_reader_fence = 1;
    long q = use_membarrier ? membarrier(MEMBARRIER_CMD_QUERY) : 0;
    if (q > 0 && (q & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
        membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0) {
        g_membarrier = 1;
        clr_strategy_reader_fence = 0;
    }
    return g_membarrier;
}

int clr_strategy_init(void) { return clr_strategy_init_mode(1); }

clr_strategy *clr_strategy_alloc(uint32_t n) {
    clr_strategy *st = calloc(1, sizeof(clr_strategy) + (size_t)n * sizeof(clr_method_sampling));
    if (st != NULL)
        st->n = n;
    return st;
}

clr_strategy *clr_strategy_publish(clr_strategy *next) {
    return atomic_exchange(&clr_strategy_ptr, next);
}

// Every thread that loaded a block before the last publish has its odd
// decision_seq visible once this returns.
void clr_strategy_barrier(void) {
    if (g_membarrier && membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0)
        return;
    atomic_thread_fence(memory_order_seq_cst); // readers fence themselves
}

void clr_strategy_free(clr_strategy *st) { free(st); }

const clr_strategy *clr_strategy_current(void) { return atomic_load(&clr_strategy_ptr); }

static void set_method(clr_method_sampling *m, uint64_t bound, int64_t lb_interval, int64_t lb_tolerance) {
    m->bound = bound;
    m->lb_interval = lb_interval;
    m->lb_tolerance = lb_tolerance;
    atomic_store_explicit(&m->lb_tat, 0, memory_order_relaxed);
}

// Fills entry i of a block not yet published.
void clr_strategy_set_method(clr_strategy *st, uint32_t i, uint64_t bound, int64_t lb_interval, int64_t lb_tolerance) {
    if (i < st->n)
        set_method(&st->methods[i], bound, lb_interval, lb_tolerance);
}

void clr_strategy_set_limits(clr_strategy *st, uint64_t generation, int64_t limit_interval, int64_t limit_tolerance,
                             int64_t rate_interval, int64_t rate_tolerance) {
    st->generation = generation;
    st->limit_interval = limit_interval;
    st->limit_tolerance = limit_tolerance;
    atomic_store_explicit(&st->limit_tat, 0, memory_order_relaxed);
    st->rate_interval = rate_interval;
    st->rate_tolerance = rate_tolerance;
}

// Sets a new function's own setting, before the runtime sees its clr_fn.
void clr_fn_set_sampling(clr_fn *fn, uint64_t bound, int64_t lb_interval, int64_t lb_tolerance) {
    set_method(&fn->sampling, bound, lb_interval, lb_tolerance);
}

// A parentbased_* sampler: roots that join a caller's trace follow its
// sampled flag (sample.h clr_decide_parent).
void clr_strategy_set_parent_based(clr_strategy *st, int on) { st->parent_based = on != 0; }
