package serving

import (
	"testing"
	"time"
)

func TestRule(t *testing.T) {
	t0 := time.Unix(1000, 0)
	r := Default()
	due, work := Rule.Due, Rule.WorkDue
	cases := []struct {
		name string
		rule func(Rule, Frame, time.Time) bool
		r    Rule
		f    Frame
		now  time.Time
		want bool
	}{
		{"young, few calls", due, r, Frame{Born: t0, Calls: 3}, t0.Add(10 * time.Millisecond), false},
		{"outermost, open a second", due, r, Frame{Born: t0}, t0.Add(time.Second), true},
		{"nested, open an hour", due, r, Frame{Born: t0, Level: 1, Calls: 31}, t0.Add(time.Hour), false},
		{"outermost, many calls", due, r, Frame{Born: t0, Calls: 32}, t0.Add(time.Millisecond), true},
		{"nested, many calls", due, r, Frame{Born: t0, Level: 1, Calls: 5000}, t0.Add(time.Millisecond), false},
		{"nested, much work queued: only its work", due, r, Frame{Born: t0, Level: 2, Queued: 32}, t0.Add(time.Millisecond), false},
		{"in a unit of work, old and busy", due, r, Frame{Born: t0, Calls: 1 << 20, Queued: 1 << 20, Unit: true}, t0.Add(time.Hour), false},
		{"age rule off", due, Rule{Children: 32}, Frame{Born: t0}, t0.Add(time.Hour), false},
		{"count rule off", due, Rule{After: time.Second}, Frame{Born: t0, Calls: 1 << 20}, t0.Add(time.Millisecond), false},
		{"clock behind the frame", due, r, Frame{Born: t0}, t0.Add(-time.Hour), false},

		{"work: young, little queued", work, r, Frame{Born: t0, Level: 3, Queued: 5}, t0.Add(time.Millisecond), false},
		{"work: nested, much queued", work, r, Frame{Born: t0, Level: 3, Queued: 32}, t0.Add(time.Millisecond), true},
		{"work: nested, open a second", work, r, Frame{Born: t0, Level: 1}, t0.Add(time.Second), true},
		{"work: in a unit of work", work, r, Frame{Born: t0, Queued: 1 << 20, Unit: true}, t0.Add(time.Hour), false},
		{"work: rules off", work, Rule{}, Frame{Born: t0, Queued: 1 << 20}, t0.Add(time.Hour), false},
		{"work: clock behind the frame", work, r, Frame{Born: t0, Level: 1}, t0.Add(-time.Hour), false},
	}
	for _, c := range cases {
		if got := c.rule(c.r, c.f, c.now); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
