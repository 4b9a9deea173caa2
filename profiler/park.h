// park.h: app threads held still while the runtime tears the profiler down.
//
// CoreCLR 3.1 reaches a hook through its own ProfileEnter/ProfileLeave,
// which read the runtime's profiler interface with no check that it is
// still there (ProfileEnter pushes its frame and loads
// g_profControlBlock.pProfInterface straight away). Once the Shutdown
// callback returns, the runtime deletes that interface and clears the
// pointer (ProfilingAPIUtility::TerminateProfiling) while the app's
// background threads (a Timer's ticks, pool work) still run hooked code
// until the process exits: the next hooked call faults in the runtime and
// the app exits by SIGSEGV. .NET 5 and later check first, and need none of
// this (ICorProfilerInfo12 tells them apart).
//
// So from the start of the Shutdown callback every hook first parks its
// thread: it sleeps while the callback runs and, on 3.1, after it returns,
// until the process exits. A thread that makes no hooked call during the
// whole callback and then makes one after the teardown would still meet
// the fault: on 3.1 the runtime's helpers are made to return at once from
// the start of the callback (disarm.h). The wait after the callback is bounded (PARK_AFTER_NS): a thread
// parked in cooperative mode holds up a collection the runtime may still
// start during its shutdown, which would otherwise wait for ever.
#ifndef CLROTEL_PARK_H
#define CLROTEL_PARK_H

#include <stdatomic.h>
#include <stdint.h>

// 0: hooks run; PARK_OPEN_ENDED: parked until clr_park_end; else the
// CLOCK_MONOTONIC nanosecond at which parked threads go on.
extern _Atomic int64_t g_park_until;
#define PARK_OPEN_ENDED INT64_MAX

// How long after the Shutdown callback returns parked threads wait, on a
// runtime that faults once the profiler is torn down: by then the process
// has exited, or it is stuck on something else.
#define PARK_AFTER_NS (5 * 1000000000LL)

void clr_park(void);
void clr_park_begin(void);
// clr_park_end lets parked threads go after ns more nanoseconds (0: now).
void clr_park_end(int64_t ns);

// clr_park_check is the hooks' first step: one load of a line nothing
// writes until shutdown.
static inline void clr_park_check(void) {
    if (__builtin_expect(atomic_load_explicit(&g_park_until, memory_order_relaxed) != 0, 0))
        clr_park();
}

#endif
