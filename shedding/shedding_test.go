package shedding

import (
	"math"
	"strings"
	"testing"
	"time"
)

const ms = time.Millisecond

// feed gives c n windows of 100 ms, each with cpu of work and traces
// begun, and returns the last limit.
func feed(c *Controller, n int, cpu time.Duration, traces uint64) Limit {
	var l Limit
	for i := 0; i < n; i++ {
		l = c.Observe(Window{Elapsed: 100 * ms, CPU: cpu, Traces: traces})
	}
	return l
}

func TestController(t *testing.T) {
	for _, tc := range []struct {
		name   string
		budget float64
		steps  []struct {
			n      int
			cpu    time.Duration
			traces uint64
		}
		rate float64 // 0: no limit
	}{
		{"off", 0, steps(10, 100*ms, 1000), 0},
		{"within budget", 0.05, steps(20, 4*ms, 1000), 0},
		// Under a second of history, within what the budget allows for a
		// whole second (50 ms): not judged yet.
		{"a burst shorter than a second", 0.05, steps(4, 12*ms, 1000), 0},
		// Half a core for half a second, 250 ms: five seconds' budget
		// already, judged at once: 50 µs a trace, the budget buys 1,000/s.
		{"over a second's budget in less than a second", 0.05, steps(5, 50*ms, 1000), 1000},
		// The same CPU for a few heavy traces: not a flood, not judged
		// before a second.
		{"a few heavy traces in less than a second", 0.05, steps(5, 50*ms, 10), 0},
		// 20% of a core for 10,000 traces/s: 20 µs a trace, the budget
		// buys 2,500 traces/s.
		{"over budget", 0.05, steps(10, 20*ms, 1000), 2500},
		// One long trace whose spans take half a core: the floor.
		{"heavy trace", 0.05, steps(10, 50*ms, 0), MinRate},
		{"cost follows", 0.05, append(steps(10, 20*ms, 1000), steps(10, 10*ms, 1000)...), 5000},
		{"back to no limit when idle", 0.05, append(steps(10, 20*ms, 1000), steps(10, 0, 0)...), 0},
		{"stays limited at the limit", 0.05, append(steps(10, 20*ms, 1000), steps(10, 5*ms, 250)...), 2500},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &Controller{Budget: tc.budget}
			var l Limit
			for _, s := range tc.steps {
				l = feed(c, s.n, s.cpu, s.traces)
			}
			if math.Abs(l.Rate-tc.rate) > tc.rate*0.01 {
				t.Fatalf("rate %v, want %v", l.Rate, tc.rate)
			}
			if l.Rate > 0 && (l.Burst < 1 || l.Burst > l.Rate) {
				t.Errorf("burst %v for rate %v", l.Burst, l.Rate)
			}
			if l != c.Limit() {
				t.Errorf("Limit() %v, Observe gave %v", c.Limit(), l)
			}
		})
	}
}

func steps(n int, cpu time.Duration, traces uint64) []struct {
	n      int
	cpu    time.Duration
	traces uint64
} {
	return []struct {
		n      int
		cpu    time.Duration
		traces uint64
	}{{n, cpu, traces}}
}

func TestParams(t *testing.T) {
	for _, tc := range []struct {
		l       Limit
		iv, tol int64
	}{
		{Limit{}, 0, 0},
		{Limit{Rate: 1000, Burst: 1}, 1_000_000, 0},
		{Limit{Rate: 100, Burst: 10}, 10_000_000, 90_000_000},
		{Limit{Rate: 1e12, Burst: 1}, 1, 0},
	} {
		iv, tol := tc.l.Params()
		if iv != tc.iv || tol != tc.tol {
			t.Errorf("%v: params %d, %d; want %d, %d", tc.l, iv, tol, tc.iv, tc.tol)
		}
	}
}

func TestNote(t *testing.T) {
	if Note(0, 0) != "" {
		t.Error("a note with nothing shed")
	}
	if n := Note(3, 12); !strings.Contains(n, "3 traces (12 calls)") || !strings.Contains(n, "shed under load") {
		t.Errorf("note %q", n)
	}
}

func TestBacklog(t *testing.T) {
	var b Backlog
	for i, tc := range []struct {
		fullest float64
		want    bool
	}{{0, false}, {0.2, false}, {0.3, false}, {0.5, false}, {0.6, true}, {0.2, true}, {0.13, true}, {0.1, false}, {0.4, false}, {0.9, true}, {0, false}} {
		if got := b.Observe(tc.fullest); got != tc.want {
			t.Errorf("step %d: Observe(%v) = %v, want %v", i, tc.fullest, got, tc.want)
		}
	}
}
