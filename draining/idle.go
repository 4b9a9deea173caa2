package draining

import "time"

// Idle is how long the drainer sleeps between passes: MinIdle after a
// pass that handled more than LightPass records, doubling after lighter
// passes, up to MaxIdle. A burst is drained at once; a quiet process, or a
// service whose traces are mostly shed, wakes the drainer rarely (each
// wake-up is a timer and a context switch on a machine the app keeps
// busy). The zero value is at MinIdle, before any pass.
type Idle struct{ d time.Duration }

// The drainer's sleep between passes, at least and at most.
const (
	MinIdle = time.Millisecond
	MaxIdle = 8 * time.Millisecond
)

// LightPass is the most records a pass may handle and still let the
// sleep grow. Records are tens to a few hundred bytes, so LightPass of
// them every MaxIdle is a few KiB a millisecond across all threads: a
// thread's ring (CLROTEL_RING_KB, 512 KiB) would take over 100 ms to fill
// half at that rate.
const LightPass = 256

// After is the sleep after a pass that handled n records.
func (i *Idle) After(n int) time.Duration {
	if i.d == 0 {
		i.d = MinIdle
	}
	if n > LightPass {
		i.d = MinIdle
	} else if i.d < MaxIdle {
		i.d *= 2
	}
	return i.d
}
