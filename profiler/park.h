// park.h: app threads held still while the runtime tears the profiler down.
//
// CoreCLR 3.1 (without the profiler evacuation counters of .NET 5 and
// later) reaches a hook through its own ProfileEnter/ProfileLeave, which
// check that the profiler is active and then read the runtime's profiler
// interface. Once the Shutdown callback returns, the runtime deletes that
// interface and clears the pointer (ProfilingAPIUtility::TerminateProfiling)
// while the app's background threads (a Timer's ticks, pool work) still run
// hooked code: a thread between the check and the read faults in the
// runtime (a null or freed pointer), and the app exits by SIGSEGV.
//
// So from the start of the Shutdown callback every hook first parks its
// thread: it sleeps until a short while after the callback has returned,
// by when the runtime has finished the teardown (its status then turns the
// hooks away before any read) or the process has exited. Only a thread
// that calls no hooked method during the whole callback and then calls
// one inside the teardown's few microseconds can still meet the race. The
// wait is bounded, so a thread parked while the runtime needs it (a
// suspension for a collection) delays shutdown by at most the grace.
#ifndef CLROTEL_PARK_H
#define CLROTEL_PARK_H

#include <stdatomic.h>
#include <stdint.h>

// 0: hooks run; PARK_OPEN_ENDED: parked until clr_park_end; else the
// CLOCK_MONOTONIC nanosecond at which parked threads go on.
extern _Atomic int64_t g_park_until;
#define PARK_OPEN_ENDED INT64_MAX

// How long after the Shutdown callback returns parked threads wait.
#define PARK_GRACE_NS (250 * 1000000LL)

void clr_park(void);
void clr_park_begin(void);
void clr_park_end(void);

// clr_park_check is the hooks' first step: one load of a line nothing
// writes until shutdown.
static inline void clr_park_check(void) {
    if (__builtin_expect(atomic_load_explicit(&g_park_until, memory_order_relaxed) != 0, 0))
        clr_park();
}

#endif
