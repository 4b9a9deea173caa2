package main

import (
	"strings"
	"testing"
	"time"

	"github.com/clrotel/clrotel/completing"
	"github.com/clrotel/clrotel/otlpsink"
)

// liveSpan is a span of trace with parent (none for a root).
func liveSpan(trace, id, parent, name string) otlpsink.Span {
	return otlpsink.Span{TraceID: trace, SpanID: id, ParentSpanID: parent, Name: name}
}

// TestLiveReport drives the report with a fake clock: a trace complete
// while the command runs is printed at the tick that finds it complete,
// the rest at finish, before the summary, which counts every span.
func TestLiveReport(t *testing.T) {
	rule := completing.Rule{Start: 3 * time.Second, Quiet: time.Second}
	begin := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	at := func(s float64) time.Time { return begin.Add(time.Duration(s * float64(time.Second))) }
	var out strings.Builder
	r := newLiveReport(&out, 0, false, rule, begin)

	r.add(at(1), liveSpan("a1", "2", "1", "A.Child"))
	r.add(at(1.5), liveSpan("a1", "1", "", "A.Root"))
	r.tick(at(2.9))
	if out.Len() != 0 {
		t.Fatalf("printed before Start:\n%s", out.String())
	}
	r.add(at(3.2), liveSpan("b2", "1", "", "B.Root"))
	r.tick(at(3.5))
	if got, want := out.String(), "trace a1  (2 spans)\n└─ A.Root  0ns\n   └─ A.Child  0ns\n"; got != want {
		t.Fatalf("at 3.5 s printed\n%s\nwant\n%s", got, want)
	}
	r.add(at(4), liveSpan("c3", "2", "1", "C.Orphan"))
	if err := r.finish(nil); err != nil {
		t.Fatal(err)
	}
	rest := strings.TrimPrefix(out.String(), "trace a1  (2 spans)\n└─ A.Root  0ns\n   └─ A.Child  0ns\n")
	for _, want := range []string{"trace b2  (1 span)\n└─ B.Root  0ns\n", "└─ C.Orphan  0ns (orphan)\n", "clrotel: 4 spans in 3 traces\n"} {
		if !strings.Contains(rest, want) {
			t.Errorf("finish printed\n%s\nwithout %q", rest, want)
		}
	}
	if strings.Index(rest, "clrotel: 4 spans") < strings.Index(rest, "C.Orphan") {
		t.Errorf("the summary comes before the traces left:\n%s", rest)
	}
	// A span after finish began is not counted.
	r.add(at(9), liveSpan("d4", "1", "", "D.Late"))
	if r.sum.spans != 4 {
		t.Errorf("%d spans counted after a late one, want 4", r.sum.spans)
	}
}

// TestLiveReportStopsHolding: once --max-spans are printed, the report
// holds no span, only counts it for the "... more spans" line.
func TestLiveReportStopsHolding(t *testing.T) {
	rule := completing.Rule{Quiet: time.Second}
	begin := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	var out strings.Builder
	r := newLiveReport(&out, 1, false, rule, begin)
	r.add(begin, liveSpan("a1", "1", "", "A.Root"))
	r.tick(begin.Add(2 * time.Second))
	r.add(begin.Add(3*time.Second), liveSpan("b2", "1", "", "B.Root"))
	r.add(begin.Add(3*time.Second), liveSpan("b2", "2", "1", "B.Child"))
	if r.traces != nil {
		t.Errorf("still holding spans (%d) after the limit", r.traces.Held())
	}
	if err := r.finish(nil); err != nil {
		t.Fatal(err)
	}
	got, _, _ := strings.Cut(out.String(), "clrotel: the busiest methods") // the trees
	if !strings.Contains(got, "A.Root") || strings.Contains(got, "B.Root") ||
		!strings.Contains(got, "... 2 more spans\nclrotel: 3 spans in 2 traces\n") {
		t.Errorf("printed\n%s", got)
	}
}

// TestLiveReportQuiet: with --quiet nothing is held or printed.
func TestLiveReportQuiet(t *testing.T) {
	var out strings.Builder
	r := newLiveReport(&out, 0, true, completing.DefaultRule, time.Now())
	r.add(time.Now(), liveSpan("a1", "1", "", "A.Root"))
	r.tick(time.Now().Add(time.Hour))
	if err := r.finish(nil); err != nil || out.Len() != 0 || r.traces != nil {
		t.Errorf("quiet: err %v, printed %q, holding %v", err, out.String(), r.traces != nil)
	}
}
