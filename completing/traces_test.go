package completing

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clrotel/clrotel/otlpsink"
)

var t0 = time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)

// at is a fixture time, seconds after the run began.
func at(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }

// step is one thing that happens: a span arrives (span "trace/id" or
// "trace/id<parent"), or Complete is asked (want: the spans given out, as
// "trace/id" sorted), at a time.
type step struct {
	at   float64
	span string
	want string // for a Complete step (span == ""): its spans, space-separated; "-" for none
}

func parse(s string) otlpsink.Span {
	trace, rest, _ := strings.Cut(s, "/")
	id, parent, _ := strings.Cut(rest, "<")
	return otlpsink.Span{TraceID: trace, SpanID: id, ParentSpanID: parent}
}

func names(spans []*otlpsink.Span) string {
	if len(spans) == 0 {
		return "-"
	}
	var out []string
	for _, s := range spans {
		out = append(out, s.TraceID+"/"+s.SpanID)
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

func TestComplete(t *testing.T) {
	rule := Rule{Start: 3 * time.Second, Quiet: time.Second, Orphaned: 10 * time.Second}
	tests := []struct {
		name  string
		rule  Rule
		steps []step
		rest  string // what Rest gives out at the end
	}{
		{
			name: "nothing is complete before Start: a short program prints at exit",
			rule: rule,
			steps: []step{
				{0.1, "a/2<1", ""}, {0.2, "a/1", ""},
				{2.9, "", "-"},
			},
			rest: "a/1 a/2",
		},
		{
			name: "a trace with its root is complete after Quiet",
			rule: rule,
			steps: []step{
				{3.0, "a/2<1", ""}, {3.5, "a/1", ""}, {3.6, "b/2<1", ""},
				{4.4, "", "-"},
				{4.5, "", "a/1 a/2"},
				{9, "", "-"}, // b has no root yet
			},
			rest: "b/2",
		},
		{
			name: "a span after the root restarts the quiet time",
			rule: rule,
			steps: []step{
				{3.0, "a/1", ""}, {3.8, "a/3<1", ""},
				{4.5, "", "-"},
				{4.8, "", "a/1 a/3"},
			},
			rest: "-",
		},
		{
			name: "traces completed before Start come out at Start, together",
			rule: rule,
			steps: []step{
				{0.5, "a/1", ""}, {1.0, "b/1", ""}, {2.9, "c/1", ""},
				{3.0, "", "a/1 b/1"},
				{3.9, "", "c/1"},
			},
			rest: "-",
		},
		{
			name: "a trace without its root comes out after Orphaned",
			rule: rule,
			steps: []step{
				{3.0, "a/2<1", ""}, {5.0, "a/3<1", ""},
				{14.9, "", "-"},
				{15.0, "", "a/2 a/3"},
				{15.5, "a/1", ""}, // its root, late: a trace of its own
				{16.5, "", "a/1"},
			},
			rest: "-",
		},
		{
			name: "without Orphaned a rootless trace waits for the end",
			rule: Rule{Start: 0, Quiet: time.Second},
			steps: []step{
				{0, "a/2<1", ""},
				{100, "", "-"},
			},
			rest: "a/2",
		},
		{
			name: "over MaxHeld, the traces heard from least recently go until half is held",
			rule: Rule{Start: time.Hour, Quiet: time.Second, MaxHeld: 4},
			steps: []step{
				{0, "a/1<0", ""}, {1, "b/1<0", ""}, {2, "c/1<0", ""}, {3, "a/2<0", ""}, {4, "d/1<0", ""},
				// 5 held: b, c and a (heard from last at 3) go; 1 is held.
				{4, "", "a/1 a/2 b/1 c/1"},
				{5, "", "-"},
			},
			rest: "d/1",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := New(tt.rule, t0)
			for i, s := range tt.steps {
				if s.span != "" {
					sp := parse(s.span)
					tr.Add(&sp, at(s.at))
					continue
				}
				got := names(tr.Complete(at(s.at)))
				if got != s.want {
					t.Errorf("step %d: Complete at %vs = %s, want %s", i, s.at, got, s.want)
				}
			}
			if got := names(tr.Rest()); got != tt.rest {
				t.Errorf("Rest = %s, want %s", got, tt.rest)
			}
			if tr.Held() != 0 {
				t.Errorf("Held after Rest = %d", tr.Held())
			}
		})
	}
}
