package draining

import (
	"testing"
	"time"
)

func TestIdle(t *testing.T) {
	var i Idle
	ms := time.Millisecond
	for k, s := range []struct {
		n    int
		want time.Duration
	}{
		{0, 2 * ms}, {0, 4 * ms}, {0, 8 * ms}, {0, 8 * ms}, // quiet: doubling up to MaxIdle
		{3, ms}, {0, 2 * ms}, // records: back to MinIdle
		{1, ms}, {1, ms},
	} {
		if got := i.After(s.n); got != s.want {
			t.Errorf("pass %d (%d records): sleep %v, want %v", k, s.n, got, s.want)
		}
	}
}
