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
		{LightPass + 1, ms}, {0, 2 * ms}, // a heavy pass: back to MinIdle
		{LightPass + 1, ms}, {LightPass + 500, ms},
		{3, 2 * ms}, {LightPass, 4 * ms}, {1, 8 * ms}, {1, 8 * ms}, // light passes: as quiet ones
		{10000, ms},
	} {
		if got := i.After(s.n); got != s.want {
			t.Errorf("pass %d (%d records): sleep %v, want %v", k, s.n, got, s.want)
		}
	}
}
