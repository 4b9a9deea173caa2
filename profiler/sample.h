// sample.h: the sampling decision the Enter hook makes at a trace's root,
// from parameters Go computes (sampling package, which is its reference and
// tests it: profiler/internal/csample).
#ifndef CLROTEL_SAMPLE_H
#define CLROTEL_SAMPLE_H

#include <stdatomic.h>
#include <stdint.h>

#define CLR_SAMPLE_ALWAYS UINT64_MAX

// The OpenTelemetry trace-id ratio rule: sampled when the last 8 bytes of
// the id, read big-endian and shifted right by one, are below bound.
static inline int clr_sampled(const uint8_t tid[16], uint64_t bound) {
    if (bound == CLR_SAMPLE_ALWAYS)
        return 1;
    uint64_t x = 0;
    for (int i = 8; i < 16; i++)
        x = (x << 8) | tid[i];
    return (x >> 1) < bound;
}

// A token bucket in "virtual scheduling" form (GCRA): its whole state is the
// theoretical arrival time of the next token, so one compare-and-swap takes a
// token. interval is ns per token; tolerance (burst-1)*interval. Contention
// that outlasts a few tries is treated as no token: never wait.
static inline int clr_rate_allow(_Atomic int64_t *tat, int64_t interval, int64_t tolerance, int64_t now) {
    int64_t old = atomic_load_explicit(tat, memory_order_relaxed);
    for (int i = 0; i < 8; i++) {
        int64_t t = old < now ? now : old;
        if (t - now > tolerance)
            return 0;
        if (atomic_compare_exchange_weak_explicit(tat, &old, t + interval, memory_order_relaxed, memory_order_relaxed))
            return 1;
    }
    return 0;
}

// What traces rooted at one method get: the trace-id bound, and a
// guaranteed rate (Jaeger's per-operation lower bound) that keeps a root the
// bound refused while the method's own bucket has a token. Mirrors
// sampling.MethodSetting; lb_interval 0: no guaranteed rate.
typedef struct clr_method_sampling {
    uint64_t bound;
    int64_t lb_interval, lb_tolerance;
    _Atomic int64_t lb_tat;
} clr_method_sampling;

// A published sampling configuration: immutable once published except for
// the limiters' state, and swapped whole by one pointer store, so a decision
// never sees half of an update. methods[i] is the function of index i;
// functions compiled after it was built (index >= n) carry their own
// setting, resolved from the same configuration (clr_fn.sampling).
typedef struct clr_strategy {
    uint64_t generation;
    int64_t limit_interval, limit_tolerance; // the strategy's rate limit (0: none)
    _Atomic int64_t limit_tat;
    int64_t rate_interval, rate_tolerance;   // CLROTEL_RATE_LIMIT (0: none); its state outlives blocks
    uint32_t parent_based; // a parentbased_* sampler: a joined root follows its parent's sampled flag
    uint32_t n;
    clr_method_sampling methods[];
} clr_strategy;

enum { CLR_KEPT = 0, CLR_NOT_SAMPLED = 1, CLR_RATE_LIMITED = 2 };

// The reader's side of strategy.c's reclamation protocol: seq (the thread's
// own count) is odd from before the block pointer is loaded until the
// decision is done with it. fence: membarrier(2) is unavailable, so the
// reader orders its store before its load itself. Returns the block in
// force (NULL before the first); *saved goes to clr_strategy_exit.
static inline clr_strategy *clr_strategy_enter(_Atomic uint64_t *seq, _Atomic(clr_strategy *) *ptr, int fence, uint64_t *saved) {
    uint64_t s = atomic_load_explicit(seq, memory_order_relaxed);
    atomic_store_explicit(seq, s + 1, memory_order_relaxed);
    if (fence)
        atomic_thread_fence(memory_order_seq_cst);
    else
        atomic_signal_fence(memory_order_seq_cst); // the publisher's membarrier fences for us
    *saved = s;
    return atomic_load_explicit(ptr, memory_order_acquire);
}

static inline void clr_strategy_exit(_Atomic uint64_t *seq, uint64_t saved) {
    atomic_store_explicit(seq, saved + 2, memory_order_release);
}

// The decision on a root call, in sampling.Plan.Decide's order: the bound,
// the method's guaranteed rate (a token is taken even when the bound said
// yes), the strategy's rate limit, the configured one. clock is called at
// most once, and only when a limiter is on.
static inline int clr_decide(const clr_strategy *st, clr_method_sampling *m, _Atomic int64_t *rate_tat,
                             const uint8_t tid[16], int64_t (*clock)(void)) {
    int ok = clr_sampled(tid, m->bound);
    int64_t now = 0;
    if (m->lb_interval > 0) {
        now = clock();
        int lb = clr_rate_allow(&m->lb_tat, m->lb_interval, m->lb_tolerance, now);
        ok = ok || lb;
    }
    if (!ok)
        return CLR_NOT_SAMPLED;
    if (st->limit_interval > 0) {
        if (now == 0)
            now = clock();
        if (!clr_rate_allow((_Atomic int64_t *)&st->limit_tat, st->limit_interval, st->limit_tolerance, now))
            return CLR_NOT_SAMPLED;
    }
    if (st->rate_interval > 0) {
        if (now == 0)
            now = clock();
        if (!clr_rate_allow(rate_tat, st->rate_interval, st->rate_tolerance, now))
            return CLR_RATE_LIMITED;
    }
    return CLR_KEPT;
}

// The decision on a root that joined a caller's trace (Activity.Current)
// under a parentbased_* sampler: the parent's sampled flag decides, and the
// configured rate limit still applies to what it keeps.
static inline int clr_decide_parent(const clr_strategy *st, _Atomic int64_t *rate_tat, int sampled,
                                    int64_t (*clock)(void)) {
    if (!sampled)
        return CLR_NOT_SAMPLED;
    if (st->rate_interval > 0 && !clr_rate_allow(rate_tat, st->rate_interval, st->rate_tolerance, clock()))
        return CLR_RATE_LIMITED;
    return CLR_KEPT;
}

#endif
