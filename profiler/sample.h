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

#endif
