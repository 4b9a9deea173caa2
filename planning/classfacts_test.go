package planning

import (
	"fmt"
	"reflect"
	"testing"
)

// A class's parents are asked about once, however many classes derive
// from them, and so is the class of a type named in many signatures; the
// plans are those of a planner that asks every time.
func TestClassFactsAskedOnce(t *testing.T) {
	classOf := func(mod uint64, td uint32) string { return fmt.Sprintf("ClassOf %d %#x", mod, td) }
	tests := []struct {
		name string
		plan func(pl *Planner)
		// want: how many times each question was asked.
		want map[string]int
	}{{
		name: "a parent, then the class derived from it",
		plan: func(pl *Planner) {
			_ = pl.Plan(cidItem)
			_ = pl.Plan(cidSpecial)
		},
		want: map[string]int{
			fmt.Sprintf("Class %#x", cidItem): 1, fmt.Sprintf("Layout %#x", cidItem): 1,
			fmt.Sprintf("Class %#x", cidSpecial): 1, fmt.Sprintf("Layout %#x", cidSpecial): 1,
			"Field 2 0x4000100": 1, "Field 2 0x4000101": 1, "Field 2 0x4000102": 1, "Field 2 0x4000110": 1,
		},
	}, {
		name: "the derived class first: its parent is planned with the facts already read",
		plan: func(pl *Planner) {
			_ = pl.Plan(cidSpecial)
			_ = pl.Plan(cidItem)
		},
		want: map[string]int{
			fmt.Sprintf("Class %#x", cidItem): 1, fmt.Sprintf("Layout %#x", cidItem): 1,
			fmt.Sprintf("Class %#x", cidSpecial): 1, fmt.Sprintf("Layout %#x", cidSpecial): 1,
			"Field 2 0x4000100": 1, "Field 2 0x4000110": 1,
		},
	}, {
		name: "List<Int32> in two methods' signatures: Int32's class asked once",
		plan: func(pl *Planner) {
			pl.Function(method("A", tVoid, tListInt))
			pl.Function(method("B", tVoid, tListInt))
		},
		want: map[string]int{classOf(core, 0x02000005): 1},
	}, {
		name: "a value type in two signatures",
		plan: func(pl *Planner) {
			pl.Function(method("A", tVoid, tPoint))
			pl.Function(method("B", tPoint))
		},
		want: map[string]int{classOf(app, tdPoint): 1, fmt.Sprintf("Layout %#x", cidPoint): 1},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newShop(t)
			pl, _, _ := newTest(f, Options{})
			tc.plan(pl)
			for q, n := range tc.want {
				if f.asked[q] != n {
					t.Errorf("%s asked %d times, want %d", q, f.asked[q], n)
				}
			}
			// The same plans as a fresh planner's, class by class.
			for cid := range pl.classes {
				g := newShop(t)
				fresh, _, _ := newTest(g, Options{})
				if err := fresh.Plan(cid); err != nil {
					t.Fatal(err)
				}
				got, want := pl.classes[cid], fresh.classes[cid]
				if !reflect.DeepEqual(got.obj, want.obj) || !reflect.DeepEqual(got.strct, want.strct) || !reflect.DeepEqual(got.info, want.info) {
					t.Errorf("class %#x planned as %+v, a fresh planner as %+v", cid, got, want)
				}
			}
		})
	}
}

// A question that failed (a class not fully loaded yet) is asked again.
func TestClassFactsFailureAskedAgain(t *testing.T) {
	f := newShop(t)
	pl, _, _ := newTest(f, Options{})
	f.layoutFails[cidItem] = 1
	if err := pl.Plan(cidSpecial); err == nil {
		t.Fatalf("planned Acme.Special with its parent's layout refused")
	}
	if err := pl.Plan(cidSpecial); err != nil {
		t.Fatalf("second attempt: %v", err)
	}
	if n := f.asked[fmt.Sprintf("Layout %#x", cidItem)]; n != 2 {
		t.Errorf("the parent's layout asked %d times, want 2", n)
	}
	if p := pl.classes[cidSpecial]; p == nil || p.obj == nil || len(p.obj.Fields) != 4 {
		t.Errorf("Acme.Special planned as %+v, want its 4 fields", p)
	}
}
