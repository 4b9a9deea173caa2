package draining

import (
	"testing"
	"time"
)

func TestIdle(t *testing.T) {
	var i Idle
	ms := time.Millisecond
	for k, s := range []struct {
		fullest float64
		want    time.Duration
	}{
		{0, 2 * ms}, {0, 4 * ms}, {0, 8 * ms}, {0, 8 * ms}, // quiet: doubling up to MaxIdle
		{LightShare, ms}, {0, 2 * ms}, // a heavy pass: back to MinIdle
		{LightShare, ms}, {0.5, ms},
		{0.001, 2 * ms}, {LightShare * 0.99, 4 * ms}, {0.01, 8 * ms}, {0.01, 8 * ms}, // light passes: as quiet ones
		{1.5, ms}, // into burst space
	} {
		if got := i.After(s.fullest); got != s.want {
			t.Errorf("pass %d (fullest %.3f): sleep %v, want %v", k, s.fullest, got, s.want)
		}
	}
}
