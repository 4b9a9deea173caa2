package planning

import (
	"strings"
	"testing"
)

func TestResolveTypeRefs(t *testing.T) {
	f := newShop(t)
	// lib defines Acme.Lib.Outer and its nested Inner; app refers to Inner
	// through a TypeRef whose scope is the TypeRef of Outer.
	f.add(600, lib, 0x02000060, "Acme.Lib.Outer", "Acme.Lib.Outer", cidObject)
	inner := f.add(601, lib, 0x02000061, "Acme.Lib.Outer.Inner", "Inner", cidObject)
	inner.enclosing = 0x02000060
	f.typeRefs[[2]uint64{app, 0x01000010}] = typeRef{"Acme.Lib.Outer", 0x23000002}
	f.typeRefs[[2]uint64{app, 0x01000011}] = typeRef{"Inner", 0x01000010}

	pl, _, _ := newTest(f, Options{})
	tests := []struct {
		mod uint64
		tok uint32
		cid uint64
		err string
	}{
		{app, tdItem, cidItem, ""},
		{app, 0x01000011, 601, ""},
		{app, 0x01000010, 600, ""},
		{app, refNullable, 0, "GetClassFromToken"}, // a generic TypeDef has no class of its own
		{app, 0x01000012, 0, "no TypeRef"},
		{app, 0x1b000001, 0, "is not a TypeDef or TypeRef"},
	}
	for _, tc := range tests {
		cid, err := pl.resolveToken(tc.mod, tc.tok)
		if cid != tc.cid || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%#x: %d, %v; want %d, %q", tc.tok, cid, err, tc.cid, tc.err)
		}
	}
	scans := f.scans
	if cid, _ := pl.resolveToken(app, 0x01000011); cid != 601 || f.scans != scans {
		t.Errorf("not cached: %d, %d scans", cid, f.scans-scans)
	}
}

// A name found is remembered while its module is loaded; a name not found
// is looked for again, its module may load later.
func TestFindDef(t *testing.T) {
	f := newShop(t)
	f.add(700, lib, 0x02000070, "Acme.Plugin", "Acme.Plugin", cidObject)
	f.unloaded[lib] = true
	pl, _, _ := newTest(f, Options{})
	if _, err := pl.FindType([]string{"Acme.Plugin"}); err == nil || !strings.Contains(err.Error(), "type Acme.Plugin not found in any loaded module") {
		t.Errorf("found in an unloaded module: %v", err)
	}
	f.unloaded[lib] = false
	if cid, err := pl.FindType([]string{"Acme.Plugin"}); cid != 700 || err != nil {
		t.Errorf("%d, %v", cid, err)
	}
	scans := f.scans
	if m, td, ok := pl.FindDef([]string{"Acme.Plugin"}); !ok || m != lib || td != 0x02000070 || f.scans != scans {
		t.Errorf("%d %#x %v, %d scans", m, td, ok, f.scans-scans)
	}
	f.unloaded[lib] = true
	if _, _, ok := pl.FindDef([]string{"Acme.Plugin"}); ok {
		t.Errorf("found in an unloaded module")
	}
}
