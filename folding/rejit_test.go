package folding

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestBatcher(t *testing.T) {
	t0 := time.Unix(1000, 0)
	type step struct {
		add  []uint32
		at   time.Duration
		want []uint32
	}
	tests := []struct {
		name  string
		cfg   ReJIT
		steps []step
	}{
		{"off hands out nothing", ReJIT{Enabled: false}, []step{{add: []uint32{1, 2}, want: nil}}},
		{"first batch at once, each function once", ReJIT{Enabled: true, Interval: 50 * time.Millisecond}, []step{
			{add: []uint32{3, 1, 3}, want: []uint32{3, 1}},
			{add: []uint32{1, 3}, at: time.Second, want: nil},
		}},
		{"later batches wait for the interval", ReJIT{Enabled: true, Interval: 50 * time.Millisecond}, []step{
			{add: []uint32{1}, want: []uint32{1}},
			{add: []uint32{2}, at: 10 * time.Millisecond, want: nil},
			{add: []uint32{3}, at: 50 * time.Millisecond, want: []uint32{2, 3}},
		}},
		{"batches capped, oldest first", ReJIT{Enabled: true, Interval: time.Millisecond, MaxBatch: 2}, []step{
			{add: []uint32{5, 6, 7}, want: []uint32{5, 6}},
			{at: time.Millisecond, want: []uint32{7}},
			{at: 2 * time.Millisecond, want: nil},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewBatcher(tt.cfg)
			for i, s := range tt.steps {
				b.Add(s.add...)
				if got := b.Next(t0.Add(s.at)); !reflect.DeepEqual(got, s.want) {
					t.Fatalf("step %d: Next = %v, want %v", i, got, s.want)
				}
			}
		})
	}
}

func TestReJITNote(t *testing.T) {
	if s := ReJITNote(0, 0, 0, 0); s != "" {
		t.Errorf("nothing asked: %q", s)
	}
	s := ReJITNote(5, 4, 1, 2)
	for _, want := range []string{"4 folded methods re-JIT-compiled without hooks (5 asked for, 1 refused or failed, 2 not asked for: a call of theirs was running)", "from before re-JIT", string(KeyApproximate)} {
		if !strings.Contains(s, want) {
			t.Errorf("%q lacks %q", s, want)
		}
	}
}
