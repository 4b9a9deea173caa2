package cstartup

import (
	"runtime"
	"testing"
)

func TestModuleScope(t *testing.T) {
	app := []Type{{Name: "Acme.Shop.Cart"}, {Name: "Acme.Shop.Repo`1"}, {Name: "Line", Nested: true}, {Name: "Program"}}
	corelib := []Type{{Name: "System.Object"}, {Name: "System.Int32"}, {Name: "System.Collections.Generic.List`1"}, {Name: "Interop"}, {Name: "<PrivateImplementationDetails>"}}
	for _, tc := range []struct {
		name      string
		own       bool
		reaches   bool
		prefixes  []string
		asm       string
		types     []Type
		wantScope bool
	}{
		{"defaults: the app", true, false, nil, "Shop", app, true},
		{"defaults: CoreLib", true, false, nil, "System.Private.CoreLib", corelib, false},
		{"defaults: mscorlib facade", true, false, nil, "mscorlib", nil, false},
		{"defaults: an app named Systematic", true, false, nil, "Systematic", nil, true},
		{"include: a namespace", false, false, []string{"Acme.Shop."}, "Shop", app, true},
		{"include: a type's method", false, false, []string{"Acme.Shop.Cart.Add"}, "Shop", app, true},
		{"include: a generic type, arity dropped", false, false, []string{"Acme.Shop.Repo.Find"}, "Shop", app, true},
		{"include: a namespace prefix cut mid-word", false, false, []string{"Acme.Sh"}, "Shop", app, true},
		{"include: a type nested in one that matches", false, false, []string{"Acme.Shop.Cart.Line.Text"}, "Shop", app, true},
		{"include: the global namespace", false, false, []string{"Program.Main"}, "Shop", app, true},
		{"include: nothing of the app", false, false, []string{"Nothing.Selected"}, "Shop", app, false},
		{"include: a deeper namespace than any type", false, false, []string{"Acme.Shop.Cart2"}, "Shop", app, false},
		{"include: a nested type's own name is not a namespace", false, false, []string{"Line.Text"}, "Shop", app, false},
		{"include: framework, no look when unreachable", false, false, []string{"Nothing.Selected"}, "System.Private.CoreLib", corelib, false},
		{"include: framework by namespace", false, true, []string{"System.Collections.Generic.List.Add"}, "System.Private.CoreLib", corelib, true},
		{"include: a primitive by its short name", false, true, []string{"Int32.Parse"}, "System.Private.CoreLib", corelib, true},
		{"include: Interop", false, true, []string{"Interop.Sys.Read"}, "System.Private.CoreLib", corelib, true},
		{"include: <Module> globals", false, false, []string{"<Module>.Init"}, "Shop", app, true},
		{"include: an empty module", false, false, []string{"Acme."}, "Empty", nil, false},
	} {
		Scope(tc.own, tc.reaches, tc.prefixes)
		got, open := InScope(tc.asm, tc.types)
		if got != tc.wantScope {
			t.Errorf("%s: in scope %v, want %v", tc.name, got, tc.wantScope)
		}
		if open != 0 {
			t.Errorf("%s: %d metadata importers not released", tc.name, open)
		}
	}
}

// The ENTERLEAVE bit is set only while a selected method compiles, until
// the mapper is asked about it (or the compile ends), across nested and
// failed compiles on one thread.
func TestWindows(t *testing.T) {
	runtime.LockOSThread() // the windows are per thread
	defer runtime.UnlockOSThread()
	Init(0x0E000064 | 0x1000) // Initialize's mask, ENTERLEAVE included: startup.c leaves it out
	type step struct {
		do   func(uintptr)
		fid  uintptr
		want bool
	}
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"closed at the mapper", []step{{Started, 1, true}, {Mapped, 1, false}, {Finished, 1, false}}},
		{"closed at the end without a mapper call", []step{{Started, 1, true}, {Finished, 1, false}}},
		{"another method's mapper call changes nothing", []step{{Started, 1, true}, {Mapped, 2, true}, {Finished, 1, false}}},
		{"nested", []step{{Started, 1, true}, {Started, 2, true}, {Mapped, 2, true}, {Finished, 2, true}, {Mapped, 1, false}, {Finished, 1, false}}},
		{"a nested compile that failed", []step{{Started, 1, true}, {Started, 2, true}, {Finished, 1, false}, {Finished, 2, false}}},
		{"an end never opened", []step{{Finished, 9, false}, {Mapped, 9, false}}},
	} {
		for i, s := range tc.steps {
			s.do(s.fid)
			if got := EnterLeave(); got != s.want {
				t.Errorf("%s, step %d: ENTERLEAVE %v, want %v", tc.name, i, got, s.want)
			}
		}
	}
}
