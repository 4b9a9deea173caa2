package shedding

import (
	"testing"
	"time"
)

// The Meter hands the Controller what happened in each window, from
// running totals, and reports a limit once, when it changes.
func TestMeter(t *testing.T) {
	t0 := time.Unix(1000, 0)
	m := Meter{Controller: Controller{Budget: 0.05}}
	ref := Controller{Budget: 0.05}
	m.Start(t0, 3*time.Second) // the thread's CPU before the first window
	if m.Due(t0.Add(WindowLength - 1)) {
		t.Errorf("due before a window's end")
	}
	// Running totals: CPU time and traces begun so far, at each window's end.
	type step struct {
		elapsed time.Duration
		cpu     time.Duration
		roots   uint64
	}
	// 1% of a core for a second, then 50% (over the budget) for a second.
	var steps []step
	cpu, roots := 3*time.Second, uint64(0)
	for i := 1; i <= 20; i++ {
		if i <= 10 {
			cpu += time.Millisecond
		} else {
			cpu += 50 * time.Millisecond
		}
		roots += 10
		steps = append(steps, step{time.Duration(i) * WindowLength, cpu, roots})
	}
	var prev Limit
	var last, lastCPU = t0, 3 * time.Second
	var lastRoots uint64
	changes := 0
	for i, s := range steps {
		now := t0.Add(s.elapsed)
		if !m.Due(now) {
			t.Fatalf("step %d: window not due at its end", i)
		}
		l, changed := m.Tick(now, s.cpu, s.roots)
		want := ref.Observe(Window{Elapsed: now.Sub(last), CPU: s.cpu - lastCPU, Traces: s.roots - lastRoots})
		last, lastCPU, lastRoots = now, s.cpu, s.roots
		if l != want {
			t.Errorf("step %d: limit %v; want %v (the Controller fed the window)", i, l, want)
		}
		if changed != (l != prev) {
			t.Errorf("step %d: changed %v going from %v to %v", i, changed, prev, l)
		}
		if changed {
			changes++
		}
		if m.Limit() != l {
			t.Errorf("step %d: Limit() %v; want %v", i, m.Limit(), l)
		}
		prev = l
	}
	if changes == 0 {
		t.Errorf("going over the budget changed no limit")
	}
}
