package draining

import "time"

// Idle is how long the drainer sleeps between passes: MinIdle after a
// pass that handled records, doubling while passes find none, up to
// MaxIdle. A burst is drained at once; a quiet process wakes the drainer
// rarely. The zero value is at MinIdle, before any pass.
type Idle struct{ d time.Duration }

// The drainer's sleep between passes, at least and at most.
const (
	MinIdle = time.Millisecond
	MaxIdle = 8 * time.Millisecond
)

// After is the sleep after a pass that handled n records.
func (i *Idle) After(n int) time.Duration {
	if i.d == 0 {
		i.d = MinIdle
	}
	if n > 0 {
		i.d = MinIdle
	} else if i.d < MaxIdle {
		i.d *= 2
	}
	return i.d
}
