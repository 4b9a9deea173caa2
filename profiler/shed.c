// shed.c: the state shed.h's admission decision reads, set from Go.
#include <time.h>

#include "shed.h"

clr_shed_bucket clr_shed;

void clr_shed_set(int64_t interval, int64_t tolerance) {
    atomic_store_explicit(&clr_shed.tolerance, tolerance, memory_order_relaxed);
    atomic_store_explicit(&clr_shed.interval, interval, memory_order_relaxed);
}

void clr_shed_backlog(int on) { atomic_store_explicit(&clr_shed.backlog, on, memory_order_relaxed); }

int64_t clr_thread_cpu_ns(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
