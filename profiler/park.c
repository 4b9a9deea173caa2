// park.c: see park.h.
#include <time.h>

#include "park.h"

_Atomic int64_t g_park_until;

static int64_t monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

// clr_park sleeps until the park ends. It runs only once the Shutdown
// callback has begun, never on a traced call's ordinary path.
__attribute__((noinline, cold)) void clr_park(void) {
    const struct timespec step = {0, 1000000}; // 1 ms
    for (;;) {
        int64_t until = atomic_load_explicit(&g_park_until, memory_order_acquire);
        if (until == 0 || (until != PARK_OPEN_ENDED && monotonic_ns() >= until))
            return;
        nanosleep(&step, NULL);
    }
}

void clr_park_begin(void) { atomic_store_explicit(&g_park_until, PARK_OPEN_ENDED, memory_order_release); }

void clr_park_end(int64_t ns) {
    atomic_store_explicit(&g_park_until, ns > 0 ? monotonic_ns() + ns : 0, memory_order_release);
}
