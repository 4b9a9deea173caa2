package methodmetrics

import (
	"sort"
	"sync/atomic"
	"time"
)

// boundsMs are the duration histogram's bucket bounds in milliseconds. The
// spanmetrics connector's default buckets start at 2 ms; the methods
// clrotel meters most (folded ones) take microseconds, so these start at
// 1 µs and then follow the connector's from 2 ms up.
var boundsMs = [...]float64{
	0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1,
	2, 4, 6, 8, 10, 50, 100, 200, 400, 800, 1000, 1400, 2000, 5000, 10000, 15000,
}

// boundsNs are boundsMs in nanoseconds, for Observe.
var boundsNs = func() []int64 {
	out := make([]int64, len(boundsMs))
	for i, b := range boundsMs {
		out[i] = int64(b * float64(time.Millisecond) / float64(time.Nanosecond))
	}
	return out
}()

// nBuckets counts the buckets: one more than the bounds (the last is open).
const nBuckets = len(boundsMs) + 1

// bucket is the index of the bucket d falls in: (bounds[i-1], bounds[i]].
func bucket(ns int64) int {
	return sort.Search(len(boundsNs), func(i int) bool { return ns <= boundsNs[i] })
}

// hist is one status's calls of a method: bucket counts and the summed time.
// Written by the goroutine that ends spans, read by collections.
type hist struct {
	buckets [nBuckets]atomic.Uint64
	sumNs   atomic.Int64
}

func (h *hist) add(ns int64) {
	h.buckets[bucket(ns)].Add(1)
	h.sumNs.Add(ns)
}

// Series is one method's metrics: its spans by status, and the calls the
// hooks folded (totals only).
type Series struct {
	Name     string // span.name: the span name
	Function string // code.function.name: Namespace.Type.Method
	kind     string // span.kind: SPAN_KIND_INTERNAL unless shaped
	wanted   bool   // exported whether or not it folds

	ok, failed hist

	// The hooks' folded totals (cumulative), set before each collection.
	foldCalls, foldNs atomic.Uint64
	unhooked          atomic.Bool // re-JIT-compiled without hooks: no longer counted

	// Collection state (Registry.mu): the folded totals already in
	// foldBuckets, and the histogram of the folded calls.
	seenCalls, seenNs uint64
	foldBuckets       [nBuckets]uint64
	foldSumNs         uint64
}

// Observe counts one call of the method that made a span, of ns
// nanoseconds, failed or not. Called as spans end, from the exporter's
// side; it takes no lock.
func (s *Series) Observe(ns int64, failed bool) {
	if ns < 0 {
		ns = 0
	}
	if failed {
		s.failed.add(ns)
	} else {
		s.ok.add(ns)
	}
}

// SetFolded sets the hooks' totals of the method's folded calls: calls and
// the time of the outermost of them; unhooked says the method was
// re-JIT-compiled without hooks, so these totals stop there. The totals
// are the hooks' running counts, which only grow (a smaller value, from
// two threads' racing stores, is ignored).
func (s *Series) SetFolded(calls, ns uint64, unhooked bool) {
	s.foldCalls.Store(calls)
	s.foldNs.Store(ns)
	if unhooked {
		s.unhooked.Store(true)
	}
}

// foldIn moves the folded calls counted since the last collection into the
// folded histogram. Each call is put in the bucket of the mean duration of
// those calls: the hooks keep a count and a sum per method, not each
// call's time. Called with Registry.mu held.
func (s *Series) foldIn() {
	calls, ns := s.foldCalls.Load(), s.foldNs.Load()
	if calls <= s.seenCalls {
		return
	}
	dCalls := calls - s.seenCalls
	var dNs uint64
	if ns > s.seenNs {
		dNs = ns - s.seenNs
		s.seenNs = ns
	}
	s.seenCalls = calls
	s.foldBuckets[bucket(int64(dNs/dCalls))] += dCalls
	s.foldSumNs += dNs
}

// metered reports whether the series is exported: the user named the
// method, or it folded.
func (s *Series) metered() bool { return s.wanted || s.seenCalls > 0 }

// Stats is what a series holds so far, for summaries.
type Stats struct {
	Name, Function string
	Calls          uint64 // every call: spans and folded
	Folded         uint64 // of which folded
	Errors         uint64 // of which made failed spans
	Unhooked       bool   // counted until its re-JIT without hooks
	P50, P99       time.Duration
}

// snapshot reads the series' buckets: spans that returned, failed spans,
// and every call (folded included). Called with Registry.mu held.
func (s *Series) snapshot() (ok, failed, all [nBuckets]uint64) {
	for i := range nBuckets {
		ok[i] = s.ok.buckets[i].Load() + s.foldBuckets[i]
		failed[i] = s.failed.buckets[i].Load()
		all[i] = ok[i] + failed[i]
	}
	return ok, failed, all
}

// quantile estimates the q-quantile of the calls in counts (Quantile).
func quantile(counts [nBuckets]uint64, q float64) time.Duration {
	return Quantile(boundsMs[:], counts[:], q)
}

// Quantile estimates the q-quantile (0 to 1) of a histogram with explicit
// bucket bounds in milliseconds (len(counts) == len(boundsMs)+1): the upper
// bound of the bucket the quantile falls in; the last, open bucket reports
// the largest bound. 0 for an empty histogram.
func Quantile(boundsMs []float64, counts []uint64, q float64) time.Duration {
	var total uint64
	for _, c := range counts {
		total += c
	}
	if total == 0 || len(boundsMs) == 0 {
		return 0
	}
	rank := uint64(q*float64(total-1)) + 1
	var run uint64
	i := 0
	for ; i < len(counts); i++ {
		if run += counts[i]; run >= rank {
			break
		}
	}
	return time.Duration(boundsMs[min(i, len(boundsMs)-1)] * float64(time.Millisecond))
}
