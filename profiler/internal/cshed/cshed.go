package cshed

/*
#include "shed.h"

static int64_t g_now;
static int64_t test_clock(void) { return g_now; }
static void reset(void) {
    clr_shed_set(0, 0);
    clr_shed_backlog(0);
    atomic_store(&clr_shed.tat, 0);
}
static int admit(uint64_t used, uint64_t size, int joined, int64_t now) {
    g_now = now;
    return clr_shed_admit(used, size, joined, test_clock);
}
*/
import "C"

// Reset turns every limit off.
func Reset() { C.reset() }

// Set installs a bucket (sample.h's GCRA form).
func Set(interval, tolerance int64) { C.clr_shed_set(C.int64_t(interval), C.int64_t(tolerance)) }

// Backlog sets or clears the drainer's "behind" flag.
func Backlog(on bool) {
	v := C.int(0)
	if on {
		v = 1
	}
	C.clr_shed_backlog(v)
}

// Admit is the hook's decision on a root at now (ns), on a thread whose
// ring holds used of size bytes; joined: it joins a caller's sampled trace.
func Admit(used, size uint64, joined bool, now int64) bool {
	j := C.int(0)
	if joined {
		j = 1
	}
	return C.admit(C.uint64_t(used), C.uint64_t(size), j, C.int64_t(now)) != 0
}

// RecordCost is what a record timed from start to now counts toward the
// CPU budget.
func RecordCost(start, now uint64) uint64 {
	return uint64(C.clr_shed_record_cost(C.uint64_t(start), C.uint64_t(now)))
}
