package shedding

import (
	"fmt"
	"math"
	"time"
)

// DefaultBudget is the CPU, as a share of one core, that the span work
// (the drainer's thread, and the hooks recording admitted traces on the
// app's threads) may take before new traces are shed
// (CLROTEL_EXPORT_CPU_PERCENT). What the admitted traces cost elsewhere
// (export, Go's collector) about doubles it on the service benchmark
// (make bench, "Service"; docs/operators-guide.md), so 3% keeps the whole
// near 6% of a core.
const DefaultBudget = 0.03

// MinRate is the admission rate the controller never goes below, in traces
// per second, whatever a trace costs: a loaded service still shows some
// traces.
const MinRate = 1.0

// span is how much history a decision looks at, burstTime how many
// seconds of the rate may be admitted at once, and floodTraces how many
// traces a program must begin to be judged in its first second.
const (
	span        = time.Second
	burstTime   = 0.1
	floodTraces = 100
)

// Window is what the span work did over a stretch of time.
type Window struct {
	Elapsed time.Duration // the stretch's length
	CPU     time.Duration // CPU the span work took in it
	Traces  uint64        // traces it began (root spans it opened)
}

// Limit is an admission rate for new traces. Rate 0 means no limit.
type Limit struct {
	Rate  float64 // traces per second
	Burst float64 // traces admitted at once above the rate (at least 1)
}

// Params is l as the hooks' token bucket takes it (sample.h's GCRA form):
// nanoseconds per trace and the tolerance, (burst-1) intervals. No limit:
// zeros.
func (l Limit) Params() (interval, tolerance int64) {
	if l.Rate <= 0 {
		return 0, 0
	}
	iv := math.Max(1, math.Round(1e9/l.Rate))
	return int64(iv), int64(iv * math.Max(0, l.Burst-1))
}

func (l Limit) String() string {
	if l.Rate <= 0 {
		return "no limit"
	}
	return fmt.Sprintf("%.0f traces/s (burst %.0f)", l.Rate, l.Burst)
}

// Controller turns windows into limits. The zero value with a Budget is
// ready; Budget 0 turns shedding off.
type Controller struct {
	Budget float64 // CPU share of one core the span work may take

	hist  []Window // the last windows, at most span of them
	limit Limit
}

// Observe takes a window and returns the limit in force from now on.
//
// While the span work over the last second stayed within the budget,
// nothing is limited; in the first second, until the work has taken what
// the budget allows for a whole second. Once it went over, the rate
// becomes what the budget buys at the measured cost of a trace over that
// second, or the time there is so far (its CPU over the
// traces begun in it; a second in which no trace began counts as one
// trace), and never less than MinRate. The rate then follows the cost,
// up or down, every window: traces that get cheaper are admitted more
// often. It returns to no limit only when the work took under a quarter
// of the budget while the limit was not reached (fewer traces began than
// it allowed).
func (c *Controller) Observe(w Window) Limit {
	if c.Budget <= 0 {
		c.limit = Limit{}
		return c.limit
	}
	c.hist = append(c.hist, w)
	var el, cpu time.Duration
	var traces uint64
	cut := 0
	for i := len(c.hist) - 1; i >= 0; i-- {
		el += c.hist[i].Elapsed
		cpu += c.hist[i].CPU
		traces += c.hist[i].Traces
		if el >= span {
			cut = i
			break
		}
	}
	c.hist = append(c.hist[:0], c.hist[cut:]...)
	if el <= 0 {
		return c.limit
	}
	used := cpu.Seconds() / el.Seconds()
	began := float64(traces) / el.Seconds()
	switch {
	case c.limit.Rate == 0 && (used <= c.Budget || (el < span && (cpu.Seconds() <= c.Budget*span.Seconds() || traces < floodTraces))):
		// Within budget, or too little history to judge: less than a
		// second, in which the work took no more than the budget of a
		// whole second, or began few traces. A flood of traces that
		// takes more in a program's first moments (a CPU-bound program
		// whose every unit of work is a trace) is judged at once.
		return c.limit
	case c.limit.Rate > 0 && used < c.Budget/4 && began < c.limit.Rate/2:
		c.limit = Limit{}
		return c.limit
	}
	cost := cpu.Seconds() / math.Max(1, float64(traces))
	rate := math.Max(MinRate, c.Budget/cost)
	c.limit = Limit{Rate: rate, Burst: math.Max(1, math.Round(rate*burstTime))}
	return c.limit
}

// Limit is the limit in force.
func (c *Controller) Limit() Limit { return c.limit }

// Note is the exit log's line about shed traces ("" when none was).
func Note(traces, calls uint64) string {
	if traces == 0 && calls == 0 {
		return ""
	}
	return fmt.Sprintf("%d traces (%d calls) not traced: shed under load, whole, at their root (the span work's CPU budget, CLROTEL_EXPORT_CPU_PERCENT, or a capture buffer half full)", traces, calls)
}

// Backlog says whether new traces are to be shed because the span work is
// behind: some thread's capture buffer was found more than half full of
// records not yet drained, the point at which that thread sheds its own
// new traces in the hook. It stays on until every buffer is found under an
// eighth full. It protects the threads that run work of traces already
// begun (a lambda on the thread pool, an async method's resume), which
// cannot be shed. A drainer that is only late (descheduled for some
// milliseconds on a busy machine) finds buffers a quarter full without
// being behind, and empties them in one pass: shedding then would shed for
// the machine's load, not for the span work's.
type Backlog struct{ on bool }

// Observe takes the fullest buffer's share (0 to 1) in a drain pass and
// returns whether new traces are to be shed.
func (b *Backlog) Observe(fullest float64) bool {
	switch {
	case fullest > 0.5:
		b.on = true
	case fullest < 0.125:
		b.on = false
	}
	return b.on
}
