package serving

import (
	"testing"
	"time"
)

func TestDue(t *testing.T) {
	t0 := time.Unix(1000, 0)
	r := Default()
	cases := []struct {
		name string
		r    Rule
		f    Frame
		now  time.Time
		want bool
	}{
		{"young, few calls", r, Frame{Born: t0, Calls: 3}, t0.Add(10 * time.Millisecond), false},
		{"outermost, open a second", r, Frame{Born: t0}, t0.Add(time.Second), true},
		{"nested, open an hour", r, Frame{Born: t0, Level: 1, Calls: 31}, t0.Add(time.Hour), false},
		{"outermost, many calls", r, Frame{Born: t0, Calls: 32}, t0.Add(time.Millisecond), true},
		{"nested, many calls", r, Frame{Born: t0, Level: 1, Calls: 5000}, t0.Add(time.Millisecond), false},
		{"nested, much work queued: only its work", r, Frame{Born: t0, Level: 2, Queued: 32}, t0.Add(time.Millisecond), false},
		{"in a unit of work, old and busy", r, Frame{Born: t0, Calls: 1 << 20, Queued: 1 << 20, Unit: true}, t0.Add(time.Hour), false},
		{"age rule off", Rule{Children: 32}, Frame{Born: t0}, t0.Add(time.Hour), false},
		{"count rule off", Rule{After: time.Second}, Frame{Born: t0, Calls: 1 << 20}, t0.Add(time.Millisecond), false},
		{"clock behind the frame", r, Frame{Born: t0}, t0.Add(-time.Hour), false},
	}
	for _, c := range cases {
		if got := c.r.Due(c.f, c.now); got != c.want {
			t.Errorf("%s: Due = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestWorkDue(t *testing.T) {
	t0 := time.Unix(1000, 0)
	r := Default()
	cases := []struct {
		name string
		r    Rule
		f    Frame
		now  time.Time
		want bool
	}{
		{"young, little queued", r, Frame{Born: t0, Level: 3, Queued: 5}, t0.Add(time.Millisecond), false},
		{"nested, much queued", r, Frame{Born: t0, Level: 3, Queued: 32}, t0.Add(time.Millisecond), true},
		{"nested, open a second", r, Frame{Born: t0, Level: 1}, t0.Add(time.Second), true},
		{"in a unit of work", r, Frame{Born: t0, Queued: 1 << 20, Unit: true}, t0.Add(time.Hour), false},
		{"rules off", Rule{}, Frame{Born: t0, Queued: 1 << 20}, t0.Add(time.Hour), false},
		{"clock behind the frame", r, Frame{Born: t0, Level: 1}, t0.Add(-time.Hour), false},
	}
	for _, c := range cases {
		if got := c.r.WorkDue(c.f, c.now); got != c.want {
			t.Errorf("%s: WorkDue = %v, want %v", c.name, got, c.want)
		}
	}
}
