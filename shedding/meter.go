package shedding

import "time"

// WindowLength is how often the span work's cost is handed to the
// Controller.
const WindowLength = 100 * time.Millisecond

// Meter cuts the drainer's running totals (its thread's CPU time, the
// traces begun) into windows for its Controller, and says when the limit
// the hooks hold must change. It is used from the drainer's goroutine.
type Meter struct {
	Controller
	start time.Time
	cpu   time.Duration
	roots uint64 // traces begun before this window
	held  Limit  // the limit the hooks hold
}

// Start begins the first window at now, with the thread's CPU time so far.
func (m *Meter) Start(now time.Time, cpu time.Duration) { m.start, m.cpu = now, cpu }

// Due says whether a window has ended at now.
func (m *Meter) Due(now time.Time) bool { return now.Sub(m.start) >= WindowLength }

// Tick ends the window at now, given the thread's CPU time and the traces
// begun so far, and returns the limit in force and whether it differs
// from the one the hooks hold (they must be told).
func (m *Meter) Tick(now time.Time, cpu time.Duration, roots uint64) (l Limit, changed bool) {
	l = m.Observe(Window{Elapsed: now.Sub(m.start), CPU: cpu - m.cpu, Traces: roots - m.roots})
	m.start, m.cpu, m.roots = now, cpu, roots
	changed = l != m.held
	m.held = l
	return l, changed
}

// Limit is the limit the hooks hold.
func (m *Meter) Limit() Limit { return m.held }
