package folding

import (
	"testing"
	"time"
)

func TestJudge(t *testing.T) {
	rule := Rule{Enabled: true, MinCalls: 4, MaxDuration: 10 * time.Microsecond}
	short, long := time.Microsecond, 10*time.Microsecond
	tests := []struct {
		name  string
		rule  Rule
		m     Method
		calls []time.Duration
		want  Method
	}{
		{"folds at MinCalls", rule, Method{}, []time.Duration{short, short, short, short}, Method{Counts: Counts{4, 0}, Folded: true}},
		{"not before", rule, Method{}, []time.Duration{short, short, short}, Method{Counts: Counts{3, 0}}},
		{"MaxDuration itself is long", rule, Method{}, []time.Duration{short, short, short, long}, Method{Counts: Counts{4, 1}}},
		{"one long call in a hundred", rule, Method{Counts: Counts{99, 0}}, []time.Duration{long}, Method{Counts: Counts{100, 1}, Folded: true}},
		{"two in a hundred", rule, Method{Counts: Counts{98, 1}}, []time.Duration{short, long}, Method{Counts: Counts{100, 2}}},
		{"a clock set back reads long", rule, Method{Counts: Counts{3, 0}}, []time.Duration{-time.Second}, Method{Counts: Counts{4, 1}}},
		{"exempt: counted, never folded", rule, Method{Exempt: true}, []time.Duration{short, short, short, short, short}, Method{Counts: Counts{5, 0}, Exempt: true}},
		{"folded: judged no more", rule, Method{Counts: Counts{4, 0}, Folded: true}, []time.Duration{long}, Method{Counts: Counts{4, 0}, Folded: true}},
		{"off: counted, never folded", Rule{MinCalls: 1, MaxDuration: time.Microsecond}, Method{}, []time.Duration{0, 2 * time.Microsecond}, Method{Counts: Counts{2, 1}}},
		{"MinCalls 0 is off", Rule{Enabled: true, MaxDuration: time.Microsecond}, Method{}, []time.Duration{0}, Method{Counts: Counts{1, 0}}},
		{"MinCalls past 2^31 counts as 2^31", Rule{Enabled: true, MinCalls: 1 << 40, MaxDuration: time.Second}, Method{Counts: Counts{1<<31 - 1, 0}}, []time.Duration{0}, Method{Counts: Counts{1 << 31, 0}, Folded: true}},
		{"counts wrap in 32 bits", Rule{Enabled: true, MinCalls: 1 << 31, MaxDuration: time.Second}, Method{Counts: Counts{1<<32 - 1, 0}}, []time.Duration{0}, Method{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := tt.m
			for _, d := range tt.calls {
				m = tt.rule.Judge(m, d)
			}
			if m != tt.want {
				t.Errorf("got %+v, want %+v", m, tt.want)
			}
		})
	}
}

// A sampled call counts as the calls it stands for, long ones too.
func TestJudgeSampled(t *testing.T) {
	rule := Rule{Enabled: true, MinCalls: 250, MaxDuration: 10 * time.Microsecond}
	tests := []struct {
		name string
		m    Method
		d    time.Duration
		n    uint32
		want Method
	}{
		{"a short sample dilutes the long calls", Method{Counts: Counts{6336, 64}}, time.Microsecond, 64, Method{Counts: Counts{6400, 64}, Folded: true}},
		{"a long sample counts as that many long", Method{Counts: Counts{6336, 0}}, 10 * time.Microsecond, 64, Method{Counts: Counts{6400, 64}, Folded: true}},
		{"past one in a hundred", Method{Counts: Counts{6336, 1}}, 10 * time.Microsecond, 64, Method{Counts: Counts{6400, 65}}},
		{"one stands for one", Method{Counts: Counts{249, 0}}, time.Microsecond, 1, Method{Counts: Counts{250, 0}, Folded: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := rule.JudgeSampled(tt.m, tt.d, tt.n); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestBudgetFolds(t *testing.T) {
	fast, slow := Counts{Calls: 10}, Counts{Calls: 10, Long: 5}
	tests := []struct {
		budget, spans uint32
		c             Counts
		want          bool
	}{
		{0, 1 << 20, fast, false},
		{100, 89, fast, false},
		{100, 90, fast, true},
		{100, 90, slow, false},
		{100, 90, Counts{}, false}, // not judged yet: not known to be fast
		{100, 99, slow, false},
		{100, 100, slow, true},
		{5, 4, fast, false}, // a tenth of 5 is none
		{5, 5, fast, true},
	}
	for _, tt := range tests {
		if got := BudgetFolds(tt.budget, tt.spans, tt.c); got != tt.want {
			t.Errorf("BudgetFolds(%d, %d, %+v) = %v, want %v", tt.budget, tt.spans, tt.c, got, tt.want)
		}
	}
}

func TestReJITs(t *testing.T) {
	on := DefaultRule()
	noReJIT := on
	noReJIT.ReJIT.Enabled = false
	off := on
	off.Enabled = false
	tests := []struct {
		name string
		rule Rule
		m    Method
		want bool
	}{
		{"folded", on, Method{Folded: true}, true},
		{"not folded", on, Method{}, false},
		{"special", on, Method{Folded: true, Special: true}, false},
		{"rooted", on, Method{Folded: true, Rooted: true}, false},
		{"ReJIT off", noReJIT, Method{Folded: true}, false},
		{"folding off", off, Method{Folded: true}, false},
	}
	for _, tt := range tests {
		if got := tt.rule.ReJITs(tt.m); got != tt.want {
			t.Errorf("%s: ReJITs = %v, want %v", tt.name, got, tt.want)
		}
	}
}
