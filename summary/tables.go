package summary

import (
	"fmt"
	"time"
)

// TablesEvery is how often the table sizes are logged (info level).
const TablesEvery = 10 * time.Second

// Tables are the sizes of the profiler's tables. They are logged every
// TablesEvery and at exit, so a long run shows that none of them grows
// without bound: slots and thread states follow the threads alive,
// functions and classes the code that ran.
type Tables struct {
	SlotsLive, SlotsHigh int // C thread slots in use, and ever used at once
	Threads              int // the drainer's per-thread span stacks
	Functions, Classes   int
	GoHeapMB             uint64
	// Verdicts the JIT-time caches of functions and modules had no room
	// for (profiler/lftable.h): those questions are answered again.
	VerdictsUncached uint64
}

func (s Tables) String() string {
	line := fmt.Sprintf("tables: %d slots in use (high water %d), %d thread states, %d functions, %d classes, Go heap %d MB",
		s.SlotsLive, s.SlotsHigh, s.Threads, s.Functions, s.Classes, s.GoHeapMB)
	if s.VerdictsUncached > 0 {
		line += fmt.Sprintf("; %d verdicts found their cache full", s.VerdictsUncached)
	}
	return line
}
