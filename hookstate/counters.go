package hookstate

/*
#include "workitems.h"
#include "gcevents.h"
#include "flowlayout.h"
#include "eltargs.h"
#include "queue.h"
#include "rejit.h"
*/
import "C"

import (
	"github.com/clrotel/clrotel/folding"
	"github.com/clrotel/clrotel/summary"
)

// WorkCounts is what workitems.c counted: items made under a span, runs
// that continued their maker's trace, items not recorded for a full table,
// and items a collection did not report alive (their run starts a trace of
// its own).
func WorkCounts() (made, joined, full, lostGC uint64) {
	var a, b, c, d C.uint64_t
	C.clr_work_counts(&a, &b, &c, &d)
	return uint64(a), uint64(b), uint64(c), uint64(d)
}

// WorkGCCounts is how many collections workitems.c followed and how many
// ranges of live objects they reported.
func WorkGCCounts() (gcs, ranges uint64) {
	var a, b C.uint64_t
	C.clr_work_gc_counts(&a, &b)
	return uint64(a), uint64(b)
}

// GCSession is what gcevents.c's EventPipe session reported.
func GCSession() summary.GCSession {
	var state C.int
	var events, malformed C.uint64_t
	C.clr_gcevents_counts(&state, &events, &malformed)
	return summary.GCSession{State: int(state), Events: uint64(events), Malformed: uint64(malformed)}
}

// SharedCode is the exit report on shared generic code's layouts
// (flowlayout.h) and `this` reads (eltargs.c).
func SharedCode() []summary.Line {
	return summary.SharedCode{Missing: uint64(C.clr_flow_layout_missing()), Uncached: uint64(C.clr_flow_layout_uncached()),
		Classes: int(C.FLOW_LAYOUT_CLASSES), ThisDirect: int(C.clr_elt_this_direct())}.Lines()
}

// ArgLayouts is how many methods' argument places the value reader learned
// and reads without asking the runtime, and how many it refused
// (eltargs.h).
func ArgLayouts() (trusted, refused uint64) {
	var a, b C.uint64_t
	C.clr_arg_layout_counts(&a, &b)
	return uint64(a), uint64(b)
}

// QueueSuppressed is how many closures were marked as queued with the
// flow suppressed (queue.c).
func QueueSuppressed() uint64 { return uint64(C.clr_queue_suppressed()) }

// ReJITNote is the exit summary's line on re-JIT (empty when off).
func ReJITNote() string {
	return folding.ReJITNote(uint64(C.clr_rejit_requested()), uint64(C.clr_rejit_installed()), uint64(C.clr_rejit_failed()), uint64(C.clr_rejit_waiting()))
}
