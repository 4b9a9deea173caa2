package draining

import "time"

// Idle is how long the drainer sleeps between passes: MinIdle after a
// pass that found some ring LightShare full or more, doubling after
// lighter passes, up to MaxIdle. A burst is drained at once; a quiet process, or a
// service whose traces are mostly shed, wakes the drainer rarely (each
// wake-up is a timer and a context switch on a machine the app keeps
// busy). The zero value is at MinIdle, before any pass.
type Idle struct{ d time.Duration }

// The drainer's sleep between passes, at least and at most.
const (
	MinIdle = time.Millisecond
	MaxIdle = 8 * time.Millisecond
)

// LightShare is the most of its resident size (CLROTEL_RING_KB) any
// ring may hold when a pass reads it for the sleep to grow: a ring that
// filled less than that in one sleep fills less than twice that in the
// next, twice as long, far from the half at which new traces are shed
// (shedding.Backlog). Judged by ring, not by records over all threads: a
// service's many threads each writing a little (a serving loop's resume
// per request, with the requests shed) leave the drainer asleep.
const LightShare = 1.0 / 32

// After is the sleep after a pass whose fullest ring held the share
// fullest of its resident size.
func (i *Idle) After(fullest float64) time.Duration {
	if i.d == 0 {
		i.d = MinIdle
	}
	if fullest >= LightShare {
		i.d = MinIdle
	} else if i.d < MaxIdle {
		i.d *= 2
	}
	return i.d
}
