package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/clrotel/clrotel/folding"
	"github.com/clrotel/clrotel/otlpsink"
)

// foldedCalls sums clrotel.folded.count over spans.
func foldedCalls(spans []otlpsink.Span) int {
	n := 0
	for _, s := range spans {
		if v, ok := s.Attrs["clrotel.folded.count"].(int64); ok {
			n += int(v)
		}
	}
	return n
}

// foldsAfter replays the default folding rule over a method's spans, in
// the order they began, as the hooks judged them on one thread (a call
// that ended by an exception is not judged, nor one in another trace than
// the method's call before), and returns how many spans the rule lets the
// method have before it folds: all of them when it never folds. How many
// calls that is depends on how many ran long, which the machine's load
// decides: a test checks that the spans stop where the rule says, not at
// a fixed count.
func foldsAfter(spans []otlpsink.Span) int {
	spans = slices.Clone(spans)
	slices.SortFunc(spans, func(a, b otlpsink.Span) int { return a.Start.Compare(b.Start) })
	rule := folding.DefaultRule()
	var m folding.Method
	last := ""
	for i, s := range spans {
		if len(events(s, "exception")) > 0 {
			continue
		}
		if s.TraceID != last {
			last = s.TraceID
			continue
		}
		if m = rule.Judge(m, s.Duration()); m.Folded {
			return i + 1
		}
	}
	return len(spans)
}

func countNamed(spans []otlpsink.Span, part string) int { return len(byNameFragment(spans, part)) }

// TestFolding: a tiny method called in a tight loop folds into its caller
// once the rule is met (250 calls, few of them long), with capture on and
// off: the app is unchanged, every call is a span or counted in a fold
// (nothing dropped), the slow method stays a span per call, and a folded
// call's exception still shows, on the span it folded into.
func TestFolding(t *testing.T) {
	const n = 20000
	calls := n + 5 + n/10 + 3 // Get, Slow, Risky; Main, Hot, the constructor
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		want := runApp(t, rt, "Fold", []string{"hot", fmt.Sprint(n)}, runOpts{})
		for _, capture := range []string{"on", "off"} {
			t.Run("capture="+capture, func(t *testing.T) {
				// Exact counts: re-JIT off (it stops counting; TestFoldReJIT).
				r := runApp(t, rt, "Fold", []string{"hot", fmt.Sprint(n)}, runOpts{profiler: true, env: map[string]string{
					"CLROTEL_CAPTURE": capture, "CLROTEL_LOG_LEVEL": "info", "CLROTEL_FOLD_REJIT": "off",
				}})
				if r.ExitCode != want.ExitCode || r.Stdout != want.Stdout {
					t.Fatalf("traced run differs: exit %d\n%s\nwant\n%s", r.ExitCode, r.Stdout, want.Stdout)
				}
				a := readAccount(t, r.Stderr)
				folded := foldedCalls(r.Spans)
				if a.dropped != 0 || len(r.Spans)+folded != calls {
					t.Errorf("%d spans + %d folded calls, %d dropped; want %d calls accounted for", len(r.Spans), folded, a.dropped, calls)
				}
				if gets := byNameFragment(r.Spans, "Box.Get()"); len(gets) < 251 || len(gets) != foldsAfter(gets) {
					t.Errorf("%d spans of Get(): want the %d the rule lets it have before it folds (at least 251: the trace's first and 250 judged)", len(gets), foldsAfter(gets))
				}
				risky := byNameFragment(r.Spans, "Box.Risky(")
				if len(risky) != foldsAfter(risky) {
					t.Errorf("%d spans of Risky(): want the %d the rule lets it have before it folds", len(risky), foldsAfter(risky))
				}
				if got := countNamed(r.Spans, "Box.Slow()"); got != 5 {
					t.Errorf("%d spans of Slow(), want all 5", got)
				}
				hot := byNameContains(t, r.Spans, "Program.Hot(")
				top, _ := hot.Attrs["clrotel.folded.top"].([]any)
				if len(top) == 0 || !strings.Contains(fmt.Sprint(top), "Acme.Fold.Box.Get() ×") {
					t.Errorf("Hot's folded.top = %v", hot.Attrs["clrotel.folded.top"])
				}
				if ns, _ := hot.Attrs["clrotel.folded.ns"].(int64); ns <= 0 || ns > int64(hot.Duration()) {
					t.Errorf("folded.ns %d, span lasts %v", ns, hot.Duration())
				}
				// Risky throws on its 1000th and 2000th calls. The second
				// comes after it folded (unless so many of its calls ran
				// long that it had not), as an event on Hot (with its
				// message when values are captured).
				if len(risky) < 2000 {
					found := false
					for _, e := range hot.Events {
						if e.Name == "exception" && e.Attrs["exception.type"] == "System.InvalidOperationException" &&
							(capture == "off" || e.Attrs["exception.message"] == "risky 1999") {
							found = true
						}
					}
					if !found {
						t.Errorf("no exception event for the folded call's throw on Hot: %+v", hot.Events)
					}
				} else {
					t.Logf("Risky() folded after its second throw, %d calls", len(risky))
				}
				if !strings.Contains(r.Stderr, "methods folded into their callers' spans") || !strings.Contains(r.Stderr, "Acme.Fold.Box.Get()") {
					t.Errorf("no folded methods in the exit summary:\n%s", r.Stderr)
				}
			})
		}
	})
}

func byNameContains(t *testing.T, spans []otlpsink.Span, part string) otlpsink.Span {
	t.Helper()
	for _, s := range spans {
		if strings.Contains(s.Name, part) {
			return s
		}
	}
	t.Fatalf("no span %s in\n%s", part, dumpSpans(spans))
	return otlpsink.Span{}
}

// TestFoldedIntoOpenSpansAtExit: calls folded into a span that is still
// open when the process exits (Environment.Exit from inside it) are on
// that span when it is ended at exit.
func TestFoldedIntoOpenSpansAtExit(t *testing.T) {
	const n = 5000
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		r := runApp(t, rt, "Fold", []string{"exit", fmt.Sprint(n)}, runOpts{profiler: true, env: map[string]string{"CLROTEL_LOG_LEVEL": "info", "CLROTEL_FOLD_REJIT": "off"}})
		// n calls of Get and n+1 of Last (the last one, folded, ends the
		// process from inside: it counts too), Main, Box's constructor,
		// Leaving.
		a := readAccount(t, r.Stderr)
		if got := len(r.Spans) + foldedCalls(r.Spans) + a.dropped + a.shed; got != 2*n+4 || a.folded != foldedCalls(r.Spans) {
			t.Errorf("%d spans, %d folded on spans (%d at exit), %d dropped, %d shed: want %d calls", len(r.Spans), foldedCalls(r.Spans), a.folded, a.dropped, a.shed, 2*n+4)
		}
		leaving := byNameContains(t, r.Spans, "Program.Leaving(")
		if leaving.Attrs["clrotel.end_reason"] != "abandoned" || leaving.Attrs["clrotel.folded.count"] == nil {
			t.Errorf("Leaving attrs %v: want abandoned, with its folded calls", leaving.Attrs)
		}
	})
}

// TestFoldExempt: a method named in CLROTEL_FOLD_EXEMPT keeps a span per call.
func TestFoldExempt(t *testing.T) {
	const n = 3000
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		r := runApp(t, rt, "Fold", []string{"hot", fmt.Sprint(n)}, runOpts{profiler: true, env: map[string]string{
			"CLROTEL_FOLD_EXEMPT": "Acme.Fold.Box.Get", "CLROTEL_LOG_LEVEL": "info",
		}})
		a := readAccount(t, r.Stderr)
		if got := countNamed(r.Spans, "Box.Get()"); got+a.dropped < n || got < n/2 {
			t.Errorf("%d spans of the exempt Get() (%d calls dropped), want all %d", got, a.dropped, n)
		}
		hot := byNameContains(t, r.Spans, "Program.Hot(")
		if strings.Contains(fmt.Sprint(hot.Attrs["clrotel.folded.top"]), "Get()") {
			t.Errorf("exempt Get() folded: %v", hot.Attrs["clrotel.folded.top"])
		}
	})
}

// TestFoldExemptUnderFolded: an exempt method called by one that folds
// keeps a span per call, under the folded method's caller, whether the
// folded method keeps its hooks (re-JIT off) or loses them: Nested calls
// Outer in a loop, Outer folds, and Outer calls the exempt Inner.
func TestFoldExemptUnderFolded(t *testing.T) {
	const n = 3000
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		for _, rejit := range []string{"off", "on"} {
			t.Run("rejit="+rejit, func(t *testing.T) {
				r := runApp(t, rt, "Fold", []string{"nested", fmt.Sprint(n)}, runOpts{profiler: true, env: map[string]string{
					"CLROTEL_FOLD_EXEMPT": "Acme.Fold.Box.Inner", "CLROTEL_FOLD_REJIT": rejit, "CLROTEL_LOG_LEVEL": "info",
				}})
				if a := readAccount(t, r.Stderr); a.dropped != 0 {
					t.Fatalf("%d calls dropped", a.dropped)
				}
				outer := byNameFragment(r.Spans, "Box.Outer(")
				if len(outer) == n {
					t.Fatalf("Outer() never folded: %d spans", len(outer))
				}
				nested := byNameContains(t, r.Spans, "Program.Nested(")
				parents := map[string]bool{nested.SpanID: true}
				for _, o := range outer {
					parents[o.SpanID] = true
				}
				inner := byNameFragment(r.Spans, "Box.Inner(")
				under := 0
				for _, s := range inner {
					if parents[s.ParentSpanID] && s.TraceID == nested.TraceID {
						under++
					}
				}
				if len(inner) != n || under != n {
					t.Errorf("%d spans of the exempt Inner(), %d of them under Outer() or Nested(); want %d (Outer() folded after %d spans)\n%s",
						len(inner), under, n, len(outer), tail(r.Stderr, 2000))
				}
			})
		}
	})
}

// TestTraceSpanBudget: near CLROTEL_MAX_SPANS_PER_TRACE spans, further calls
// fold into their parents, and the root says the trace was truncated; a
// slow method keeps a span per call in the budget's last tenth, and no
// trace holds more than the budget.
func TestTraceSpanBudget(t *testing.T) {
	const n = 1000
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		for _, tc := range []struct {
			budget, spans, slow int
		}{
			// Nine tenths of the budget (90) for every call, then the
			// first call of Slow(), which comes after: a method not yet
			// known to be fast keeps its span, and Slow()'s calls then all
			// do, in the tenth kept for them.
			{100, 90 + 5, 5},
			// The tenth (2 spans past 18) fills up: no trace holds more
			// than its budget, Slow()'s other calls fold.
			{20, 20, 2},
		} {
			// Slow() (a 2 ms sleep) must be judged slow and Mid() fast.
			// Calls are long from 1 ms (CLROTEL_FOLD_MAX_US): all of
			// Slow()'s, and of Mid()'s only one the thread was descheduled
			// in for as long; at the default, 20 µs, a loaded machine makes
			// many more of them long.
			r := runApp(t, rt, "Fold", []string{"wide", fmt.Sprint(n)}, runOpts{profiler: true, env: map[string]string{
				"CLROTEL_FOLD": "off", "CLROTEL_FOLD_MAX_US": "1000", "CLROTEL_MAX_SPANS_PER_TRACE": fmt.Sprint(tc.budget), "CLROTEL_LOG_LEVEL": "info",
			}})
			if len(r.Spans) != tc.spans || countNamed(r.Spans, "Box.Slow()") != tc.slow {
				t.Errorf("budget %d: %d spans, %d of Slow(): want %d and %d of Slow()", tc.budget, len(r.Spans), countNamed(r.Spans, "Box.Slow()"), tc.spans, tc.slow)
			}
			if got := len(r.Spans) + foldedCalls(r.Spans); got != n+3+5 {
				t.Errorf("budget %d: %d spans and folded calls, want %d calls", tc.budget, got, n+3+5)
			}
			root := byNameContains(t, r.Spans, "Program.Main(")
			if root.Attrs["clrotel.trace_truncated"] != true {
				t.Errorf("budget %d: root attrs %v: want clrotel.trace_truncated", tc.budget, root.Attrs)
			}
		}
	})
}

// TestLoopGettersFold: a CPU-bound Main that loops over its work serves by
// the serving rule (each call it makes may be a request), yet a getter it
// calls beside a unit of work folds and loses its hooks as it would
// anywhere, while the unit of work, whose calls make calls, never folds:
// each of its calls stays a trace of its own (TestServingLeaf: a leaf
// that is all a loop calls stays a request too).
func TestLoopGettersFold(t *testing.T) {
	const n = 20000
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		args := []string{"loop", fmt.Sprint(n)}
		want := runApp(t, rt, "Fold", args, runOpts{})
		for _, capture := range []string{"on", "off"} {
			t.Run("capture="+capture, func(t *testing.T) {
				loopGettersFold(t, rt, args, want, capture)
			})
		}
	})
}

func loopGettersFold(t *testing.T, rt dotnetRuntime, args []string, want run, capture string) {
	r := runApp(t, rt, "Fold", args, runOpts{profiler: true, env: map[string]string{"CLROTEL_LOG_LEVEL": "info", "CLROTEL_CAPTURE": capture}})
	if r.ExitCode != want.ExitCode || r.Stdout != want.Stdout {
		t.Fatalf("traced run differs: exit %d\n%s\nwant\n%s", r.ExitCode, r.Stdout, want.Stdout)
	}
	a := readAccount(t, r.Stderr)
	if a.dropped != 0 {
		t.Errorf("%d calls dropped", a.dropped)
	}
	var get string
	for _, line := range strings.Split(r.Stderr, "\n") {
		if strings.Contains(line, "Acme.Fold.Box.Work(") {
			t.Errorf("the unit of work folded: %q", line)
		}
		if strings.Contains(line, "Acme.Fold.Box.Get()") {
			get = line
		}
	}
	if !strings.HasSuffix(get, "(counted until re-JIT)") {
		t.Errorf("Get(), called by the loop beside Work(), is not folded and re-JIT-compiled: %q\n%s", get, r.Stderr)
	}
	if countNamed(r.Spans, "Box.Work(") == 0 {
		t.Errorf("no Work() span:\n%s", r.Stderr)
	}
}
