// shed.h: load shedding at a trace's root. When the span work cannot keep
// up within its CPU budget, or a thread's capture buffer is half full of
// records not yet drained, a new trace is refused whole at its root: its
// calls are counted as shed and none of them is recorded, so no exported
// trace is ever missing a part. The rate comes from Go (the shedding
// package, through the drainer); the hook only takes a token.
#ifndef CLROTEL_SHED_H
#define CLROTEL_SHED_H

#include <stdatomic.h>
#include <stdint.h>

#include "sample.h"

// The admission bucket (GCRA, as sample.h's limiters). interval 0: no
// limit. Go stores interval and tolerance apart; a decision that sees one
// new and one old value is as good as either.
typedef struct clr_shed_bucket {
    _Atomic int64_t interval, tolerance, tat;
    _Atomic int32_t backlog; // the drainer is behind (shedding.Backlog): shed every new trace
} clr_shed_bucket;
extern clr_shed_bucket clr_shed;

// The check word of a state machine or closure made under a shed trace
// (async.h's fields): its steps and lambdas belong to that trace, and their
// calls are shed too.
#define ASYNC_SHED 0x7368656474726163ull

// Go's side: the rate in force, and the calling thread's CPU time (the
// drainer measures its own).
void clr_shed_set(int64_t interval, int64_t tolerance);
void clr_shed_backlog(int on);
int64_t clr_thread_cpu_ns(void);

// Whether a new trace may start on a thread whose ring holds `used` bytes
// not yet drained of `size`, now (clock read only when the bucket is on):
// not while that ring is half full or the drainer is behind on any ring.
// A root that joins a caller's sampled trace may take tokens twice as far
// ahead as one that begins a trace here: distributed traces are shed last,
// but within the same rate.
static inline int clr_shed_admit(uint64_t used, uint64_t size, int joined_sampled, int64_t (*clock)(void)) {
    if (used > size / 2 || atomic_load_explicit(&clr_shed.backlog, memory_order_relaxed))
        return 0;
    int64_t iv = atomic_load_explicit(&clr_shed.interval, memory_order_relaxed);
    if (iv <= 0)
        return 1;
    int64_t tol = atomic_load_explicit(&clr_shed.tolerance, memory_order_relaxed);
    if (joined_sampled)
        tol = 2 * tol + iv;
    return clr_rate_allow(&clr_shed.tat, iv, tol, clock());
}

// What one timed record counts toward the CPU budget: the time from its
// clock read to its commit, at most SHED_RECORD_MAX_NS. The hooks time a
// record by the wall clock (a thread's CPU clock is a system call), so a
// record longer than that is one the thread was descheduled in, on a
// loaded machine, and the wait is no span work. Counted in full, a single
// preemption in a timed record (milliseconds, counted RECORD_TIMED times)
// could take the budget of a second, and shed traces for the machine's
// load rather than clrotel's. A record, its values read, takes microseconds.
#define SHED_RECORD_MAX_NS 50000u
static inline uint64_t clr_shed_record_cost(uint64_t start, uint64_t now) {
    if (now <= start)
        return 0;
    uint64_t d = now - start;
    return d < SHED_RECORD_MAX_NS ? d : SHED_RECORD_MAX_NS;
}

#endif
