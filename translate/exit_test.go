package translate

import (
	"testing"

	"github.com/clrotel/clrotel/capture"
)

func TestAbandonAtExit(t *testing.T) {
	tax := "App.dll!App.Shop.Tax()"
	for _, tc := range []struct {
		name        string
		folds       []OpenFold
		approximate bool
		// per span: folded count (0: no fold attributes), approximate
		want map[string][2]any
	}{
		{"folds on the open spans", []OpenFold{{Calls: 5, Ns: 500}, {Calls: 0}}, false,
			map[string][2]any{order: {int64(5), nil}, price: {nil, nil}}},
		{"counts that stop short", []OpenFold{{Calls: 2, Ns: 20}, {Calls: 3, Ns: 30}}, true,
			map[string][2]any{order: {int64(2), true}, price: {int64(3), true}}},
		{"frames and spans disagree: ended plainly", []OpenFold{{Calls: 5, Ns: 500}}, false,
			map[string][2]any{order: {nil, nil}, price: {nil, nil}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.feed(rec{kind: capture.KindEnter, flags: capture.FlagRoot, fn: 1, trace: traceA, time: 100},
				rec{kind: capture.KindEnter, fn: 2, time: 120})
			f.tr.AbandonAtExit(f.th.Spans, 1000, tc.folds, tc.approximate)
			f.tr.Bridge.Abandon(f.th.Spans, 1000)
			spans := f.spans(t)
			for name, want := range tc.want {
				s, ok := spans[name]
				if !ok {
					t.Fatalf("no span %s among %d", name, len(spans))
				}
				if got := [2]any{s.Attrs["clrotel.folded.count"], s.Attrs["clrotel.folded.approximate"]}; got != want {
					t.Errorf("%s: folded count, approximate %v; want %v", name, got, want)
				}
				if s.Attrs["clrotel.end_reason"] != "abandoned" {
					t.Errorf("%s: end reason %v", name, s.Attrs["clrotel.end_reason"])
				}
			}
			if _, ok := spans[tax]; ok {
				t.Errorf("a span never entered")
			}
		})
	}
}
