package hookstate

/*
#include "capture.h"
#include "profiler.h"
#include "rejit.h"
#include "shed.h"
*/
import "C"

import (
	"time"

	"github.com/clrotel/clrotel/draining"
	"github.com/clrotel/clrotel/shedding"
	"github.com/clrotel/clrotel/translate"
)

// Hooks are the hooks' counters and controls, as the drainer reads them.
type Hooks struct{}

var _ draining.Hooks = Hooks{}

func (Hooks) ThreadCPU() time.Duration  { return time.Duration(C.clr_thread_cpu_ns()) }
func (Hooks) RecordTime() time.Duration { return time.Duration(C.clr_record_ns()) }
func (Hooks) Aborting() bool            { return C.clr_abort_requested() != 0 }
func (Hooks) ReJITInstalled() bool      { return C.clr_rejit_installed() > 0 }
func (Hooks) Dropped() uint64           { return Dropped() }

func (Hooks) Shed() (traces, calls uint64) {
	return uint64(C.clr_shed_traces()), uint64(C.clr_shed_calls())
}

func (Hooks) SetShedding(l shedding.Limit) {
	iv, tol := l.Params()
	C.clr_shed_set(C.int64_t(iv), C.int64_t(tol))
}

// OpenFolds reads what the hooks folded so far into a slot's open frames.
func (Hooks) OpenFolds(slot, open int) ([]translate.OpenFold, bool) {
	if open == 0 {
		return nil, false
	}
	calls := make([]C.uint32_t, open)
	ns := make([]C.uint64_t, open)
	if got := int(C.clr_slot_open_folds(slotAt(slot), C.clr_stack_cap(), &calls[0], &ns[0], C.uint32_t(open))); got != open {
		return nil, false
	}
	out := make([]translate.OpenFold, open)
	for k := range out {
		out[k] = translate.OpenFold{Calls: uint32(calls[k]), Ns: uint64(ns[k])}
	}
	return out, true
}

// SetBehind tells the hooks whether the drainer is behind.
func SetBehind(behind bool) {
	on := C.int(0)
	if behind {
		on = 1
	}
	C.clr_shed_backlog(on)
}
