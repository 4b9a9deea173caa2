package csample

/*
#cgo LDFLAGS: -lpthread
#include <stdlib.h>
#include "stress.h"
*/
import "C"

import (
	"time"
	"unsafe"

	"github.com/clrotel/clrotel/profiler/internal/quiesce"
)

// Publishes is the result of a reclamation stress run.
type Publishes struct {
	Violations, Decisions uint64
}

// StressReclaim runs readers deciding with strategy blocks while blocks are
// published n times; each replaced block is retired (poisoned, then freed
// at the end) as the profiler does: after clr_strategy_barrier and
// quiesce.Wait, or at once when unsafe is set (a control: the readers must
// then catch retired blocks in use).
// Without membarrier, strategy.c's fallback (the readers fence).
func StressReclaim(readers, n int, membarrier, unsafe_ bool) (Publishes, error) {
	mb := C.int(0)
	if membarrier {
		mb = 1
	}
	C.clr_strategy_init_mode(mb)
	if C.stress_start(C.int(readers)) != 0 {
		return Publishes{}, errStart
	}
	seq := func(i uint32) uint64 { return uint64(C.clr_slot_decision_seq(C.uint32_t(i))) }
	var retired []*C.clr_strategy
	// On a loaded machine the readers may not have run yet: publishing goes
	// on past n (up to 10 s) until they have decided often enough and, for
	// the control, until one caught a retired block, so that a starved
	// reader does not make either run pass for nothing.
	deadline := time.Now().Add(10 * time.Second)
	enough := func() bool {
		if C.stress_decisions() < 20000 {
			return false
		}
		return !unsafe_ || C.stress_violations() > 0
	}
	for i := 0; i < n || (!enough() && time.Now().Before(deadline)); i++ {
		blk := C.clr_strategy_alloc(4)
		C.clr_strategy_set_limits(blk, C.uint64_t(i+1), 0, 0, 0, 0)
		old := C.clr_strategy_publish(blk)
		if old == nil {
			continue
		}
		if !unsafe_ {
			C.clr_strategy_barrier()
			if !quiesce.Wait(uint32(C.clr_slot_count()), seq, 20*time.Microsecond, 10*time.Second) {
				C.stress_stop()
				return Publishes{}, errStuck
			}
		}
		C.stress_poison(old)
		retired = append(retired, old)
	}
	C.stress_stop()
	last := C.clr_strategy_publish(nil)
	for _, b := range append(retired, last) {
		C.free(unsafe.Pointer(b))
	}
	return Publishes{Violations: uint64(C.stress_violations()), Decisions: uint64(C.stress_decisions())}, nil
}

type stressError string

func (e stressError) Error() string { return string(e) }

const (
	errStart = stressError("starting reader threads")
	errStuck = stressError("a reader stayed mid-decision for 10 s")
)
