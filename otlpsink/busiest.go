package otlpsink

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/clrotel/clrotel/methodmetrics"
)

// MethodStat is one method's calls at a glance: how many, how long, and
// whether some of them were folded into other spans.
type MethodStat struct {
	Name     string // the span name
	Calls    int64  // spans, or the method metrics' count when larger (folded calls)
	Spans    int
	Folded   bool // calls were folded: Calls counts more than Spans
	Rejitted bool // counted until its re-JIT without hooks
	P50, P99 time.Duration
}

// Busiest returns the n methods with the most calls (0: all), most first,
// from the spans received and the method metrics (points): a method with
// metrics (one that folded, or was named for them) is counted and timed
// by them, folded calls included; any other by its spans.
func Busiest(spans []Span, points []Point, n int) []MethodStat {
	var t MethodTally
	for _, s := range spans {
		t.Add(s)
	}
	return t.Busiest(points, n)
}

// MethodTally gathers what Busiest needs of the spans, a span at a time,
// so that a caller need not keep the spans: each one's name and duration.
// The zero value is ready to use; it is not safe for concurrent use.
type MethodTally struct {
	by map[string]*methodSpans
}

type methodSpans struct {
	n    int
	durs []time.Duration
}

// Add counts s.
func (t *MethodTally) Add(s Span) {
	if t.by == nil {
		t.by = map[string]*methodSpans{}
	}
	m := t.by[s.Name]
	if m == nil {
		m = &methodSpans{}
		t.by[s.Name] = m
	}
	m.n++
	m.durs = append(m.durs, s.Duration())
}

// Busiest is [Busiest] of the spans added.
func (t *MethodTally) Busiest(points []Point, n int) []MethodStat {
	type agg struct {
		stat  MethodStat
		durs  []time.Duration
		calls map[string]int64 // metrics: the largest cumulative count per status
		hist  map[string]Point // metrics: the fullest histogram per status
	}
	by := map[string]*agg{}
	get := func(name string) *agg {
		a := by[name]
		if a == nil {
			a = &agg{stat: MethodStat{Name: name}, calls: map[string]int64{}, hist: map[string]Point{}}
			by[name] = a
		}
		return a
	}
	for name, m := range t.by {
		a := get(name)
		a.stat.Spans = m.n
		a.durs = m.durs
	}
	for _, p := range points {
		name, _ := p.Attrs[string(methodmetrics.KeySpanName)].(string)
		status, _ := p.Attrs[string(methodmetrics.KeyStatusCode)].(string)
		if name == "" || !p.Cumulative {
			continue
		}
		a := get(name)
		if p.Attrs[string(methodmetrics.KeyCountedUntil)] != nil {
			a.stat.Rejitted = true
		}
		switch p.Kind {
		case "sum":
			a.calls[status] = max(a.calls[status], p.Value)
		case "histogram":
			if p.Count >= a.hist[status].Count {
				a.hist[status] = p
			}
		}
	}
	out := make([]MethodStat, 0, len(by))
	for _, a := range by {
		st := a.stat
		var metered int64
		for _, c := range a.calls {
			metered += c
		}
		st.Calls = int64(st.Spans)
		if metered > st.Calls {
			st.Calls, st.Folded = metered, true
		}
		if bounds, counts := mergeHist(a.hist); metered > 0 && counts != nil {
			st.P50 = methodmetrics.Quantile(bounds, counts, 0.5)
			st.P99 = methodmetrics.Quantile(bounds, counts, 0.99)
		} else if len(a.durs) > 0 {
			slices.Sort(a.durs)
			st.P50, st.P99 = nearestRank(a.durs, 0.5), nearestRank(a.durs, 0.99)
		}
		out = append(out, st)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Calls != out[j].Calls {
			return out[i].Calls > out[j].Calls
		}
		return out[i].Name < out[j].Name
	})
	if n > 0 && len(out) > n {
		out = out[:n]
	}
	return out
}

// round3 rounds d to three significant digits, for reading.
func round3(d time.Duration) time.Duration {
	unit := time.Duration(1)
	for d/unit >= 1000 {
		unit *= 10
	}
	return d.Round(unit)
}

// nearestRank is the q-quantile of sorted durations d by nearest rank.
func nearestRank(d []time.Duration, q float64) time.Duration {
	i := int(math.Ceil(q*float64(len(d)))) - 1
	return d[max(0, min(i, len(d)-1))]
}

// mergeHist adds up the histograms of a method's statuses (same bounds).
func mergeHist(hs map[string]Point) ([]float64, []uint64) {
	var bounds []float64
	var counts []uint64
	for _, h := range hs {
		if counts == nil {
			bounds, counts = h.Bounds, make([]uint64, len(h.BucketCounts))
		}
		if !slices.Equal(bounds, h.Bounds) || len(h.BucketCounts) != len(counts) {
			continue
		}
		for i, c := range h.BucketCounts {
			counts[i] += c
		}
	}
	return bounds, counts
}

// WriteBusiest prints stats as a table: calls, p50, p99, whether folded,
// and the span name. A histogram's quantiles are its buckets' upper
// bounds.
func WriteBusiest(w io.Writer, stats []MethodStat) error {
	if _, err := fmt.Fprintf(w, "%12s %10s %10s  %-8s %s\n", "calls", "p50", "p99", "folded", "method"); err != nil {
		return err
	}
	for _, s := range stats {
		folded := "no"
		switch {
		case s.Folded && s.Rejitted:
			folded = "re-JIT"
		case s.Folded:
			folded = "yes"
		}
		if _, err := fmt.Fprintf(w, "%12d %10v %10v  %-8s %s\n", s.Calls, round3(s.P50), round3(s.P99), folded, s.Name); err != nil {
			return err
		}
	}
	return nil
}
