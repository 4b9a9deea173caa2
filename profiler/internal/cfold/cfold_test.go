package cfold

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/clrotel/clrotel/folding"
)

// method is what package folding knows of the function f holds.
func method(f Fn, roots uint32) folding.Method {
	fl := f.Flags()
	return folding.Method{
		Counts:       folding.Counts{Calls: f.Calls(), Long: f.Slow()},
		Folded:       fl&FlagFolded != 0,
		Exempt:       fl&FlagExempt != 0,
		Special:      fl&FlagNeverFolded != 0,
		WithIterator: fl&FlagIterFolded != 0,
		Rooted:       roots != 0,
	}
}

// gen draws rules, functions and durations around the rule's edges.
type gen struct{ r *rand.Rand }

func (g gen) near(v uint64) uint64 { return v + uint64(g.r.IntN(5)) - 2 }

func (g gen) rule() folding.Rule {
	rule := folding.DefaultRule()
	rule.Enabled = g.r.IntN(5) != 0
	rule.ReJIT.Enabled = g.r.IntN(3) != 0
	mins := []uint64{0, 1, 2, 100, 250, 1000, 1<<31 - 1, 1 << 31, 1<<31 + 1, 1 << 40}
	rule.MinCalls = mins[g.r.IntN(len(mins))]
	if g.r.IntN(4) == 0 {
		rule.MinCalls = g.r.Uint64N(1 << 16)
	}
	maxes := []time.Duration{0, 1, time.Microsecond, 20 * time.Microsecond, time.Second, -1}
	rule.MaxDuration = maxes[g.r.IntN(len(maxes))]
	if g.r.IntN(4) == 0 {
		rule.MaxDuration = time.Duration(g.r.Int64N(int64(time.Millisecond)))
	}
	return rule
}

func (g gen) fn(rule folding.Rule) (calls, slow, flags, roots uint32) {
	h := rule.Hook()
	switch g.r.IntN(4) {
	case 0:
		calls = uint32(g.near(uint64(h.MinCalls)))
	case 1:
		calls = uint32(g.near(1<<32 - 1))
	default:
		calls = g.r.Uint32N(1 << 12)
	}
	switch g.r.IntN(4) {
	case 0:
		slow = uint32(g.near(uint64(calls) / 100))
	case 1:
		slow = uint32(g.near(uint64(calls) / 2))
	case 2:
		slow = 0
	default:
		slow = g.r.Uint32() // the counts are racy: anything can be read
	}
	flags = g.r.Uint32() &^ (FlagFolded | FlagExempt)
	if g.r.IntN(2) == 0 {
		flags &^= FlagNeverFolded
	}
	if g.r.IntN(4) == 0 {
		flags |= FlagFolded
	}
	if g.r.IntN(4) == 0 {
		flags |= FlagExempt
	}
	if g.r.IntN(3) == 0 {
		roots = g.r.Uint32N(3)
	}
	return calls, slow, flags, roots
}

func (g gen) duration(rule folding.Rule) time.Duration {
	switch g.r.IntN(4) {
	case 0:
		return time.Duration(g.near(uint64(rule.MaxDuration)))
	case 1:
		return 0
	case 2:
		return -time.Duration(g.r.Int64N(int64(time.Second))) // a clock set back
	}
	return time.Duration(g.r.Int64N(int64(100 * time.Microsecond)))
}

// TestJudgeParity: clr_fold_judge and folding.Rule.JudgeSampled count
// each call alike, one or a sample standing for many, and fold the same
// methods at the same call, over a table of cases and random runs of
// calls around every threshold.
func TestJudgeParity(t *testing.T) {
	type call struct {
		calls, slow, flags uint32
		d                  time.Duration
		weight             uint32
	}
	rule := folding.Rule{Enabled: true, MinCalls: 250, MaxDuration: 20 * time.Microsecond}
	table := []struct {
		name string
		rule folding.Rule
		call
	}{
		{"folds at MinCalls", rule, call{249, 2, 0, time.Microsecond, 1}},
		{"two long in 250", rule, call{249, 2, 0, 20 * time.Microsecond, 1}},
		{"exempt", rule, call{249, 0, FlagExempt, 0, 1}},
		{"folded already", rule, call{500, 400, FlagFolded, time.Second, 1}},
		{"off", folding.Rule{MinCalls: 1, MaxDuration: time.Microsecond}, call{1000, 0, 0, 0, 1}},
		{"clock set back", rule, call{249, 2, 0, -time.Nanosecond, 1}},
		{"MinCalls beyond 32 bits", folding.Rule{Enabled: true, MinCalls: 1 << 40, MaxDuration: time.Second}, call{1<<31 - 1, 0, 0, 0, 1}},
		{"calls wrap", rule, call{1<<32 - 1, 0, 0, 0, 1}},
		{"a sample dilutes the long ones", rule, call{6336, 64, 0, time.Microsecond, 64}},
		{"a long sample", rule, call{6336, 0, 0, 20 * time.Microsecond, 64}},
		{"a sample wraps", rule, call{1<<32 - 10, 0, 0, 0, 64}},
	}
	check := func(t *testing.T, rule folding.Rule, calls, slow, flags, roots uint32, ds []time.Duration, ws []uint32) {
		t.Helper()
		f := NewFn(calls, slow, flags, roots)
		defer f.Free()
		m := method(f, roots)
		h := rule.Hook()
		for i, d := range ds {
			f.Judge(h.MinCalls, h.MaxNs, uint64(d), ws[i])
			m = rule.JudgeSampled(m, d, ws[i])
			if got := method(f, roots); got != m {
				t.Fatalf("rule %+v, fn {calls %d slow %d flags %#x}, call %d of %v: C %+v, Go %+v", rule, calls, slow, flags, i, ds, got, m)
			}
			if got := f.Flags() &^ FlagFolded; got != flags&^FlagFolded {
				t.Fatalf("flags %#x became %#x: the rule touched more than FN_FOLDED", flags, f.Flags())
			}
		}
	}
	for _, tt := range table {
		t.Run(tt.name, func(t *testing.T) {
			check(t, tt.rule, tt.calls, tt.slow, tt.flags, 0, []time.Duration{tt.d}, []uint32{tt.weight})
		})
	}
	g := gen{rand.New(rand.NewPCG(28, 4))}
	for i := 0; i < 100000; i++ {
		rule := g.rule()
		calls, slow, flags, roots := g.fn(rule)
		ds := make([]time.Duration, 1+g.r.IntN(6))
		ws := make([]uint32, len(ds))
		for k := range ds {
			ds[k] = g.duration(rule)
			ws[k] = 1
			if g.r.IntN(3) == 0 {
				ws[k] = 64 // the hooks' UNSPANNED_TIMED
			}
		}
		check(t, rule, calls, slow, flags, roots, ds, ws)
	}
}

// TestBudgetParity: clr_fold_slow and clr_budget_folds agree with
// folding.Counts.Slow and folding.BudgetFolds.
func TestBudgetParity(t *testing.T) {
	g := gen{rand.New(rand.NewPCG(28, 5))}
	budgets := []uint64{0, 1, 5, 9, 10, 11, 100, 1000, 1<<32 - 1}
	for i := 0; i < 200000; i++ {
		calls, slow, flags, roots := g.fn(g.rule())
		budget := uint32(budgets[g.r.IntN(len(budgets))])
		if g.r.IntN(4) == 0 {
			budget = g.r.Uint32()
		}
		var spans uint32
		switch g.r.IntN(3) {
		case 0:
			spans = uint32(g.near(uint64(budget)))
		case 1:
			spans = uint32(g.near(uint64(budget - budget/10)))
		default:
			spans = g.r.Uint32N(budget/8*9 + 2)
		}
		f := NewFn(calls, slow, flags, roots)
		c := folding.Counts{Calls: calls, Long: slow}
		if got, want := f.NotKnownFast(), c.Slow(); got != want {
			t.Fatalf("%+v: clr_fold_slow %v, Counts.Slow %v", c, got, want)
		}
		if got, want := f.BudgetFolds(budget, spans), folding.BudgetFolds(budget, spans, c); got != want {
			t.Fatalf("budget %d, spans %d, %+v: C %v, Go %v", budget, spans, c, got, want)
		}
		f.Free()
	}
}

// TestReJITParity: the methods the profiler asks to be re-JIT-compiled
// without hooks are folding.Rule.ReJITs's: with ReJIT on (main.go starts
// the loop), those the hooks folded (rejit.go picks them) that
// clr_rejit_wanted lets through (rejit.c).
func TestReJITParity(t *testing.T) {
	g := gen{rand.New(rand.NewPCG(28, 6))}
	for i := 0; i < 100000; i++ {
		rule := g.rule()
		calls, slow, flags, roots := g.fn(rule)
		f := NewFn(calls, slow, flags, roots)
		got := rule.Hook().ReJIT && f.Flags()&FlagFolded != 0 && f.ReJITWanted()
		if want := rule.ReJITs(method(f, roots)); got != want {
			t.Fatalf("rule %+v, flags %#x, roots %d: C %v, Go %v", rule, flags, roots, got, want)
		}
		f.Free()
	}
}

// Each method the rule folds is logged once, with its index + 1, whether
// the rule or another thread got there first.
func TestFoldLog(t *testing.T) {
	ResetFoldLog()
	defer ResetFoldLog()
	a, b := NewFn(0, 0, 0, 0), NewFn(0, 0, 0, 0)
	defer a.Free()
	defer b.Free()
	a.SetIndex(7)
	b.SetIndex(0)
	for i := 0; i < 300; i++ { // past the rule's 250 calls: it folds once
		a.Judge(250, 20_000, 100, 1)
	}
	b.Fold()
	b.Fold()
	a.Fold()
	if got, want := FoldLog(), []uint32{8, 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("fold log %v, want %v", got, want)
	}
	if a.Flags()&FlagFolded == 0 || b.Flags()&FlagFolded == 0 {
		t.Errorf("flags %#x and %#x: want both folded", a.Flags(), b.Flags())
	}
}
