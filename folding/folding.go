package folding

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
)

// Rule says when a method is folded: after MinCalls traced calls, when at
// most one call in a hundred (the 99th percentile) took MaxDuration or
// longer. Methods matching Exempt (globs over Namespace.Type.Method) never
// fold. The hooks judge it as calls end (profiler/fold.c): a verdict from
// the drainer would come too late to keep a tight loop from filling the
// capture ring.
type Rule struct {
	Enabled     bool
	MinCalls    uint64
	MaxDuration time.Duration
	Exempt      []string
	// ReJIT: folded methods are re-JIT-compiled without hooks (rejit.go).
	ReJIT ReJIT
}

// DefaultRule is the rule with nothing set. The calls that flood real
// programs' traces are getters, comparers, visitors and metadata readers
// of a microsecond or two whose rare slow calls (a callee's first,
// JIT-compiled call; a lazily read table) take up to 20 µs: MaxDuration
// must be above those, or such methods never fold and keep their hooks,
// and MinCalls low enough that they fold early in the program. The
// measurements behind the values are in docs/user-guide.md, "Folding".
func DefaultRule() Rule {
	return Rule{Enabled: true, MinCalls: 250, MaxDuration: 20 * time.Microsecond, ReJIT: DefaultReJIT()}
}

// Entry is one method's folded calls under a span, or in all.
type Entry struct {
	Fn    uint32
	Calls uint64
	Time  time.Duration
	// Unhooked: in all, the method was re-JIT-compiled without hooks, and
	// its count stops there.
	Unhooked bool
	// Name: under a span, the method's span name, so that what renders
	// the span needs no table of methods.
	Name string
}

// Span is what was folded into one span.
type Span struct {
	Calls uint64
	Time  time.Duration // of the outermost folded calls: nested ones are inside it
	Top   []Entry       // the methods with the most folded time, most first
}

// Keys of the attributes a span carries for what was folded into it. No key
// holds a method name: their number stays fixed.
const (
	KeyCount     = attribute.Key("clrotel.folded.count")
	KeyNs        = attribute.Key("clrotel.folded.ns")
	KeyTop       = attribute.Key("clrotel.folded.top")
	KeyTruncated = attribute.Key("clrotel.trace_truncated")
)

// MaxTop bounds the methods a span lists as folded into it, when what was
// folded into its steps (an async method's, an iterator's) adds up.
const MaxTop = 8

// Add adds what was folded into another step of the same span: the counts
// add up, and a method listed by both is listed once, with both its calls.
// The list keeps the MaxTop methods with the most folded time.
func (s *Span) Add(o Span) {
	s.Calls += o.Calls
	s.Time += o.Time
next:
	for _, e := range o.Top {
		for i := range s.Top {
			if s.Top[i].Fn == e.Fn {
				s.Top[i].Calls += e.Calls
				s.Top[i].Time += e.Time
				continue next
			}
		}
		s.Top = append(s.Top, e)
	}
	if len(s.Top) > MaxTop {
		sortTop(s.Top)
		s.Top = s.Top[:MaxTop]
	}
}

// sortTop orders entries by folded time, most first.
func sortTop(top []Entry) {
	slices.SortStableFunc(top, func(a, b Entry) int { return cmp.Compare(b.Time, a.Time) })
}

// Attrs renders what was folded into a span: the count, the time in
// nanoseconds (when the hooks had room to record it), and the top methods
// as "Name ×calls time" strings.
func Attrs(s Span) []attribute.KeyValue {
	if s.Calls == 0 {
		return nil
	}
	out := []attribute.KeyValue{KeyCount.Int64(int64(s.Calls))}
	if s.Time > 0 {
		out = append(out, KeyNs.Int64(int64(s.Time)))
	}
	if len(s.Top) == 0 {
		return out
	}
	top := slices.Clone(s.Top)
	sortTop(top)
	list := make([]string, 0, len(top))
	var b []byte
	for _, e := range top {
		b = append(b[:0], e.Name...)
		b = append(b, " ×"...)
		b = strconv.AppendUint(b, e.Calls, 10)
		b = append(b, ' ')
		b = append(b, e.Time.String()...)
		list = append(list, string(b))
	}
	return append(out, KeyTop.StringSlice(list))
}

// ParseTop reads back one entry of KeyTop ("Name ×calls time").
func ParseTop(s string) (name string, calls uint64, d time.Duration, ok bool) {
	i := strings.LastIndex(s, " ×")
	if i < 0 {
		return "", 0, 0, false
	}
	var dur string
	if _, err := fmt.Sscanf(s[i+len(" ×"):], "%d %s", &calls, &dur); err != nil {
		return "", 0, 0, false
	}
	d, err := time.ParseDuration(dur)
	if err != nil {
		return "", 0, 0, false
	}
	return s[:i], calls, d, true
}

// Summary lists the folded methods by total time, most first, at most max
// lines (0: all), as the exit summary and `clrotel run` show them.
func Summary(entries []Entry, name func(uint32) string, max int) string {
	es := make([]Entry, 0, len(entries))
	var calls uint64
	for _, e := range entries {
		if e.Calls > 0 {
			es = append(es, e)
			calls += e.Calls
		}
	}
	if len(es) == 0 {
		return ""
	}
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].Time != es[j].Time {
			return es[i].Time > es[j].Time
		}
		return es[i].Calls > es[j].Calls
	})
	var b strings.Builder
	fmt.Fprintf(&b, "%d calls of %d methods folded into their callers' spans:", calls, len(es))
	for i, e := range es {
		if max > 0 && i == max {
			fmt.Fprintf(&b, "\n  … %d more", len(es)-max)
			break
		}
		fmt.Fprintf(&b, "\n  %10d calls %12v  %s", e.Calls, e.Time, name(e.Fn))
		if e.Unhooked {
			b.WriteString(" (counted until re-JIT)")
		}
	}
	return b.String()
}
