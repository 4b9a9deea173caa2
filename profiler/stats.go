package main

/*
#include "capture.h"
#include "profiler.h"
*/
import "C"

import (
	"runtime/metrics"

	"github.com/clrotel/clrotel/draining"
	"github.com/clrotel/clrotel/hookstate"
	"github.com/clrotel/clrotel/summary"
)

// tables reads the tables' sizes; it runs on the drainer's goroutine (or
// after it ended), which owns the thread states.
func (p *profiler) tables() summary.Tables {
	var s summary.Tables
	s.SlotsHigh = int(C.clr_slot_count())
	for i := 0; i < s.SlotsHigh; i++ {
		if (hookstate.Slots{}).State(i) != draining.Free {
			s.SlotsLive++
		}
	}
	s.Threads = p.drain.Len()
	s.Functions = p.funcs.Len()
	s.Classes = p.planner.Len()
	s.VerdictsUncached = uint64(C.clr_verdicts_uncached())
	// The heap objects' bytes (MemStats.HeapAlloc) without ReadMemStats'
	// stop-the-world, which cost the exit of a short program about 0.5 ms.
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() == metrics.KindUint64 {
		s.GoHeapMB = sample[0].Value.Uint64() >> 20
	}
	return s
}
