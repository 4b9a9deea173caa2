package quiesce

import (
	"sync/atomic"
	"testing"
	"time"
)

func TestWait(t *testing.T) {
	counts := make([]atomic.Uint64, 3)
	counts[0].Store(4) // idle
	counts[1].Store(7) // deciding
	counts[2].Store(9) // deciding, stuck
	seq := func(i uint32) uint64 { return counts[i].Load() }

	// Thread 1 finishes (and starts another decision: odd again, but a new
	// one, which loaded the new block); thread 2 never does.
	go func() { time.Sleep(20 * time.Millisecond); counts[1].Store(9) }()
	if Wait(2, seq, time.Millisecond, 5*time.Second) != true {
		t.Fatal("threads 0 and 1: want quiescent")
	}
	if Wait(3, seq, time.Millisecond, 50*time.Millisecond) != false {
		t.Fatal("thread 2 stuck mid-decision: want not quiescent")
	}
	if !Wait(0, seq, time.Millisecond, time.Millisecond) {
		t.Fatal("no threads: want quiescent")
	}
}
