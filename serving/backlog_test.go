package serving

import (
	"testing"
	"time"
)

// TestBacklog runs a frame's backlog through a sequence of steps: calls it
// makes (c), spans finished under held calls (s), wall-clock checks (d),
// and checks each answer.
func TestBacklog(t *testing.T) {
	const born = int64(1_000_000_000_000)
	ms := func(n int) int64 { return born + int64(n)*int64(time.Millisecond) }
	calls := func(n int, at int64, v Verdict) []step {
		out := make([]step, n)
		for i := range out {
			out[i] = step{op: 'c', at: at, want: v}
		}
		return out
	}
	cat := func(parts ...[]step) []step {
		var out []step
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	cases := []struct {
		name     string
		r        Rule
		steps    []step
		openLast bool
	}{
		{"default: 31 first calls held, the 32nd could not nest", Default(),
			cat(calls(31, ms(10), Hold), []step{{op: 'c', at: ms(11), want: Release}, {op: 'c', at: ms(12), want: Pass}}), false},
		{"a call within the window and its slack is held", Default(),
			[]step{{op: 'c', at: ms(1000), want: Hold}, {op: 'c', at: ms(1049), want: Hold}}, true},
		{"a nested call past the window: the frame will not serve", Default(),
			[]step{{op: 'c', at: ms(5), want: Hold}, {op: 'c', at: ms(1050), want: Release}, {op: 'c', at: ms(1100), want: Pass}}, false},
		{"spans held up to the bound", Rule{After: time.Second},
			cat([]step{{op: 'c', at: ms(1), want: Hold}}, spans(MaxHeldSpans, Hold), spans(1, Release), spans(1, Pass)), false},
		{"not due before twice the window", Default(),
			[]step{{op: 'c', at: ms(1), want: Hold}, {op: 'd', at: ms(2049), due: false}, {op: 'd', at: ms(2050), due: true}, {op: 'd', at: ms(3000), due: false}}, false},
		{"count rule only: never due by time", Rule{Children: 4},
			cat(calls(3, ms(5000), Hold), []step{{op: 'd', at: ms(1 << 30), due: false}, {op: 'c', at: ms(6000), want: Release}}), false},
		{"age rule only: any number of calls in the window", Rule{After: time.Second},
			cat(calls(1000, ms(900), Hold)), true},
		{"both rules off: nothing held", Rule{},
			[]step{{op: 'c', at: ms(1), want: Pass}, {op: 's', want: Pass}, {op: 'd', at: ms(1 << 30), due: false}}, false},
	}
	for _, c := range cases {
		b := c.r.Backlog(born)
		for i, s := range c.steps {
			switch s.op {
			case 'c':
				if got := b.Call(s.at); got != s.want {
					t.Fatalf("%s: step %d, call at %d: %v, want %v", c.name, i, s.at-born, got, s.want)
				}
			case 's':
				if got := b.Span(); got != s.want {
					t.Fatalf("%s: step %d, span: %v, want %v", c.name, i, got, s.want)
				}
			case 'd':
				if got := b.Due(s.at); got != s.due {
					t.Fatalf("%s: step %d, due at %d: %v, want %v", c.name, i, s.at-born, got, s.due)
				}
			}
		}
		if b.Open() != c.openLast {
			t.Errorf("%s: open at the end %v, want %v", c.name, b.Open(), c.openLast)
		}
	}
}

// step is one step of TestBacklog.
type step struct {
	op   byte  // 'c' call at, 's' span, 'd' due at
	at   int64 // c, d
	want Verdict
	due  bool // d
}

func spans(n int, v Verdict) []step {
	out := make([]step, n)
	for i := range out {
		out[i].op, out[i].want = 's', v
	}
	return out
}

// TestBacklogClose: a closed backlog holds nothing more.
func TestBacklogClose(t *testing.T) {
	b := Default().Backlog(0)
	if b.Call(1) != Hold {
		t.Fatal("first call not held")
	}
	b.Close()
	if b.Open() || b.Call(2) != Pass || b.Span() != Pass || b.Due(1<<62) {
		t.Error("closed backlog still holds")
	}
}
