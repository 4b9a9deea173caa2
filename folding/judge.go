package folding

import "time"

// Counts are what the hooks know of a method's judged calls: how many
// ended, and how many of those took the rule's MaxDuration or longer. The
// hooks keep them in 32 bits, and so does Judge.
type Counts struct {
	Calls uint32
	Long  uint32
}

// Slow reports whether a method is not known to be fast: no call judged
// yet, or half of its judged calls or more long. Near its trace's span
// budget only such a method's calls keep their spans (BudgetFolds).
func (c Counts) Slow() bool {
	return c.Calls == 0 || 2*uint64(c.Long) >= uint64(c.Calls)
}

// Method is what the rule knows of one method.
type Method struct {
	Counts
	// Folded: the rule folded it; its calls under a span count into that
	// span from then on, and it is judged no more.
	Folded bool
	// Exempt: it matches Rule.Exempt; its calls are counted (the span
	// budget asks whether it is slow) but it never folds.
	Exempt bool
	// Special: its hooks do more than count its calls (an async or
	// closure role, a work item's maker or run, a queuing method,
	// Activity.Stop, an entry method), so they must stay.
	Special bool
	// WithIterator: it folded with its iterator (Groups): a Special one
	// whose hooks are not needed any more.
	WithIterator bool
	// Rooted: a call of it began a trace. Its root calls are spans, so it
	// keeps its hooks.
	Rooted bool
}

// maxMinCalls bounds MinCalls as the hooks apply it: they count calls in
// 32 bits, and the configuration allows no more.
const maxMinCalls = 1 << 31

// Hook is the rule as the hooks hold it (profiler/capture.h
// clr_capture_config).
type Hook struct {
	MinCalls uint32 // fold_min_calls; 0 when the rule is off
	// MaxNs is fold_max_ns, kept with the rule off too: the span budget
	// asks whether a method is slow.
	MaxNs uint64
	// ReJIT: folded methods are re-JIT-compiled without hooks, so calls
	// folded by the span budget are judged too (fold_judge_folded), that
	// their method can fold and lose its hooks.
	ReJIT bool
}

// Hook returns the rule as the hooks hold it.
func (r Rule) Hook() Hook {
	h := Hook{MaxNs: uint64(r.MaxDuration)}
	if r.Enabled {
		h.MinCalls = uint32(min(r.MinCalls, maxMinCalls))
		h.ReJIT = r.ReJIT.Enabled
	}
	return h
}

// Judge returns m after one more of its calls ended, having taken d, and
// whether m folds from now on (profiler/fold.c clr_fold_judge, which the
// hooks call as a recorded call under a span ends). d is as the hooks
// measure it, unsigned: a call timed across a clock set back is long.
//
// A folded method stays as it is. Any other call is counted, and long
// when it took MaxDuration or longer; the method folds once MinCalls calls
// are counted and at most one in a hundred of them was long (its 99th
// percentile is under MaxDuration), unless it is exempt or the rule is off.
func (r Rule) Judge(m Method, d time.Duration) Method { return r.JudgeSampled(m, d, 1) }

// JudgeSampled is Judge for a call that stands for n: the hooks time 1 in
// n of the calls that make no span once a method has had MinCalls judged
// (profiler/hooks.c unspanned_timed), and count each as n calls, long if
// it was.
func (r Rule) JudgeSampled(m Method, d time.Duration, n uint32) Method {
	if m.Folded {
		return m
	}
	h := r.Hook()
	m.Calls += n
	if uint64(d) >= h.MaxNs {
		m.Long += n
	}
	m.Folded = h.MinCalls != 0 && !m.Exempt && m.Calls >= h.MinCalls && uint64(m.Long)*100 <= uint64(m.Calls)
	return m
}

// BudgetFolds reports whether a call of a method with counts c folds by
// its trace's span budget (profiler/capture.h clr_budget_folds), spans
// being the spans the trace has recorded. At the budget every call folds,
// so that a trace never holds more; from nine tenths of it on only the
// calls of a method not known to be fast keep their spans, in the tenth
// kept for them. A budget of 0 is none.
func BudgetFolds(budget, spans uint32, c Counts) bool {
	return budget != 0 && (spans >= budget || (spans >= budget-budget/10 && !c.Slow()))
}

// ReJITs reports whether a method is asked to be re-JIT-compiled without
// hooks (profiler/rejit.go, rejit.c): with folding and ReJIT on, once the
// rule folded it, unless it is special (but folded with its iterator) or
// rooted. The ReJIT thread then
// waits until no call of it is running: a new-code call of a method made
// from an old-code one would unwind an exception under the same
// FunctionID, which the hooks cannot tell apart.
func (r Rule) ReJITs(m Method) bool {
	return r.Hook().ReJIT && m.Folded && (!m.Special || m.WithIterator) && !m.Rooted
}
