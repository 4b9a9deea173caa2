package main

/*
#include "capture.h"
#include "profiler.h"
*/
import "C"

import (
	"fmt"
	"runtime/metrics"
	"sync/atomic"
	"unsafe"
)

// tableStats are the sizes of the profiler's tables. They are logged (info
// level) every statsEvery and at exit, so a long run shows that none of
// them grows without bound: slots and thread states follow the threads
// alive, functions and classes the code that ran.
type tableStats struct {
	slotsLive, slotsHigh int // C thread slots in use, and ever used at once
	threads              int // the drainer's per-thread span stacks
	functions, classes   int
	goHeapMB             uint64
}

func (s tableStats) String() string {
	return fmt.Sprintf("tables: %d slots in use (high water %d), %d thread states, %d functions, %d classes, Go heap %d MB",
		s.slotsLive, s.slotsHigh, s.threads, s.functions, s.classes, s.goHeapMB)
}

// stats reads the tables; it runs on the drainer's goroutine (or after it
// ended), which owns the thread states.
func (d *drainer) stats() tableStats {
	var s tableStats
	s.slotsHigh = int(C.clr_slot_count())
	for i := 0; i < s.slotsHigh; i++ {
		if atomic.LoadUint32((*uint32)(unsafe.Pointer(&slotAt(i).state))) != C.SLOT_FREE {
			s.slotsLive++
		}
	}
	for _, ts := range d.threads {
		if ts != nil {
			s.threads++
		}
	}
	s.functions = d.p.funcs.len()
	s.classes = d.p.planner.Len()
	// The heap objects' bytes (MemStats.HeapAlloc) without ReadMemStats'
	// stop-the-world, which cost the exit of a short program about 0.5 ms.
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() == metrics.KindUint64 {
		s.goHeapMB = sample[0].Value.Uint64() >> 20
	}
	return s
}
