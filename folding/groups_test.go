package folding

import (
	"slices"
	"testing"
)

func TestGroups(t *testing.T) {
	a, b := GroupKey{Module: 1, Type: 0x02000005}, GroupKey{Module: 1, Type: 0x02000006}
	type add struct {
		k       GroupKey
		fn      uint32
		exempt  bool
		fold    bool     // Add's answers
		exempts []uint32 //
	}
	for _, tc := range []struct {
		name   string
		before []add
		fold   GroupKey
		want   []uint32
		after  []add
	}{
		{
			name:   "members fold together, once",
			before: []add{{k: a, fn: 1}, {k: a, fn: 2}, {k: b, fn: 3}},
			fold:   a,
			want:   []uint32{1, 2},
			after:  []add{{k: a, fn: 4, fold: true}, {k: b, fn: 5}},
		},
		{
			name:   "an exempt member exempts the others and keeps the group from folding",
			before: []add{{k: a, fn: 1}, {k: a, fn: 2, exempt: true, exempts: []uint32{1, 2}}, {k: b, fn: 3}},
			fold:   a,
			want:   nil,
			after:  []add{{k: a, fn: 4, exempts: []uint32{4}}, {k: a, fn: 5, exempt: true, exempts: []uint32{5}}, {k: b, fn: 6}},
		},
		{
			name:  "a verdict before any member is known folds the later ones",
			fold:  a,
			want:  nil,
			after: []add{{k: a, fn: 1, fold: true}},
		},
		{
			name:   "a member exempt after the group folded folds with it",
			before: []add{{k: a, fn: 1}},
			fold:   a,
			want:   []uint32{1},
			after:  []add{{k: a, fn: 2, exempt: true, fold: true}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var g Groups
			check := func(when string, x add) {
				fold, exempts := g.Add(x.k, x.fn, x.exempt)
				if fold != x.fold || !slices.Equal(exempts, x.exempts) {
					t.Fatalf("%s: Add(%v, %d, %v) = %v, %v; want %v, %v", when, x.k, x.fn, x.exempt, fold, exempts, x.fold, x.exempts)
				}
			}
			for _, x := range tc.before {
				check("before", x)
			}
			if got := g.Fold(tc.fold); !slices.Equal(got, tc.want) {
				t.Fatalf("Fold = %v, want %v", got, tc.want)
			}
			for _, x := range tc.after {
				check("after", x)
			}
			if got := g.Fold(tc.fold); got != nil {
				t.Fatalf("second Fold = %v, want nil", got)
			}
		})
	}
}
