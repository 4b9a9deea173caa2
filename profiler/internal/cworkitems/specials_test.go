package cworkitems

import (
	"os"
	"regexp"
	"testing"

	"github.com/clrotel/clrotel/flows"
	"github.com/clrotel/clrotel/selection"
)

// goSpecials are package selection's names of async.h's specials.
var goSpecials = map[string]selection.Special{
	"ASYNC_SPECIAL_BUILDER": selection.SpecialBuilder, "ASYNC_SPECIAL_QUEUE": selection.SpecialQueue,
	"ASYNC_SPECIAL_WORK_MAKE": selection.SpecialWorkMake, "ASYNC_SPECIAL_WORK_RUN": selection.SpecialWorkRun,
	"ASYNC_SPECIAL_WORK_REPEAT": selection.SpecialWorkRepeat, "ASYNC_SPECIAL_COMPILE": selection.SpecialCompile,
	"ASYNC_SPECIAL_WORK_MAKE_REPEAT":  selection.SpecialWorkMakeRepeat,
	"ASYNC_SPECIAL_WORK_MAKE_PROMISE": selection.SpecialWorkMakePromise,
}

// TestSpecials: each special is the same in async.h and package selection,
// and every one async.h defines is listed, so that one added or changed on
// one side only fails.
func TestSpecials(t *testing.T) {
	src, err := os.ReadFile("async.h")
	if err != nil {
		t.Fatal(err)
	}
	defined := regexp.MustCompile(`\bASYNC_SPECIAL_[A-Z_]+\s*=`).FindAll(src, -1)
	if len(defined) != len(Specials) || len(Specials) != len(goSpecials) {
		t.Errorf("async.h defines %d specials, %d listed in C, %d in Go", len(defined), len(Specials), len(goSpecials))
	}
	for name, v := range Specials {
		if g, ok := goSpecials[name]; !ok || int(g) != v {
			t.Errorf("%s = %d in async.h, %d (listed: %v) in package selection", name, v, g, ok)
		}
	}
}

// TestTypeKinds: flows numbers the kinds of types given fields as async.h
// does (the profiler indexes flows.Added by async.h's numbers).
func TestTypeKinds(t *testing.T) {
	for i, k := range []flows.TypeKind{flows.StateMachineType, flows.ClosureType, flows.IteratorType} {
		if int(k) != Kinds[i] {
			t.Errorf("flows kind %d is async.h's %d", k, Kinds[i])
		}
	}
	if len(flows.Added{}) != len(Kinds) {
		t.Errorf("flows.Added has %d kinds, async.h %d", len(flows.Added{}), len(Kinds))
	}
}
