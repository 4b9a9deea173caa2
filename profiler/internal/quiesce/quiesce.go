package quiesce

import "time"

// Wait takes a snapshot of the n counts seq reads, then polls every
// interval until each odd one has changed, or until timeout. It reports
// whether every thread moved on: only then may the old block be freed.
func Wait(n uint32, seq func(i uint32) uint64, interval, timeout time.Duration) bool {
	busy := map[uint32]uint64{}
	for i := uint32(0); i < n; i++ {
		if s := seq(i); s&1 == 1 {
			busy[i] = s
		}
	}
	deadline := time.Now().Add(timeout)
	for len(busy) > 0 {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(interval)
		for i, s := range busy {
			if seq(i) != s {
				delete(busy, i)
			}
		}
	}
	return true
}
