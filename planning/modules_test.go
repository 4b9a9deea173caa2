package planning

import (
	"errors"
	"reflect"
	"testing"
)

// moduleMeta is one module of a fakeSource, as a Metadata.
type moduleMeta struct {
	f   *fakeSource
	mod uint64
}

func (m moduleMeta) FindTypeDef(name string, enclosing uint32) (uint32, bool) {
	return m.f.FindTypeDef(m.mod, name, enclosing)
}
func (m moduleMeta) TypeDefName(td uint32) (string, error) { return m.f.TypeDefName(m.mod, td) }
func (m moduleMeta) Extends(td uint32) (uint32, error)     { return m.f.BaseType(m.mod, td) }
func (m moduleMeta) TypeRefName(tr uint32) (string, uint32, error) {
	return m.f.TypeRefName(m.mod, tr)
}
func (m moduleMeta) Fields(td uint32) ([]uint32, error)        { return m.f.Fields(m.mod, td) }
func (m moduleMeta) Field(fd uint32) (FieldProps, error)       { return m.f.Field(m.mod, fd) }
func (m moduleMeta) Constant(fd uint32) (uint64, uint32, bool) { return m.f.Constant(m.mod, fd) }
func (m moduleMeta) HasAttribute(tok uint32, name string) bool {
	return m.f.HasAttribute(m.mod, tok, name)
}

// perModuleOf is f as a runtime and its modules, of which closed cannot
// be opened.
func perModuleOf(f *fakeSource, closed uint64) TypeSource {
	return PerModule(f, func(mod uint64) (Metadata, error) {
		if mod == closed {
			return nil, errors.New("no metadata")
		}
		return moduleMeta{f, mod}, nil
	})
}

// Each module's questions go to that module's metadata; a module that
// cannot be opened has nothing.
func TestPerModule(t *testing.T) {
	f := newShop(t)
	src := perModuleOf(f, lib)
	if td, ok := src.FindTypeDef(app, "Acme.Item", 0); !ok || td != tdItem {
		t.Errorf("FindTypeDef: %#x %v", td, ok)
	}
	if name, err := src.TypeDefName(app, tdItem); err != nil || name != "Acme.Item" {
		t.Errorf("TypeDefName: %q %v", name, err)
	}
	if base, err := src.BaseType(app, tdItem); err != nil || base != refObject {
		t.Errorf("BaseType: %#x %v", base, err)
	}
	fields, err := src.Fields(app, tdItem)
	if want, _ := f.Fields(app, tdItem); err != nil || !reflect.DeepEqual(fields, want) || len(fields) != 5 {
		t.Errorf("Fields: %v %v", fields, err)
	}
	if p, err := src.Field(app, 0x04000101); err != nil || p.Name != "Price" {
		t.Errorf("Field: %+v %v", p, err)
	}
	if _, err := src.Field(app, 0x04000999); err == nil {
		t.Errorf("Field of no field: no error")
	}

	if _, ok := src.FindTypeDef(lib, "Acme.Item", 0); ok {
		t.Errorf("FindTypeDef in an unopened module found a type")
	}
	if _, err := src.TypeDefName(lib, tdItem); err == nil {
		t.Errorf("TypeDefName in an unopened module: no error")
	}
	if _, err := src.BaseType(lib, tdItem); err == nil {
		t.Errorf("BaseType in an unopened module: no error")
	}
	if _, _, err := src.TypeRefName(lib, refObject); err == nil {
		t.Errorf("TypeRefName in an unopened module: no error")
	}
	if _, err := src.Fields(lib, tdItem); err == nil {
		t.Errorf("Fields in an unopened module: no error")
	}
	if _, err := src.Field(lib, 0x04000101); err == nil {
		t.Errorf("Field in an unopened module: no error")
	}
	if _, _, ok := src.Constant(lib, 0x04000101); ok {
		t.Errorf("Constant in an unopened module")
	}
	if src.HasAttribute(lib, tdItem, "System.FlagsAttribute") {
		t.Errorf("attribute in an unopened module")
	}
}

// The planner over per-module metadata plans as over the whole source.
func TestPlansThroughPerModule(t *testing.T) {
	for _, cid := range []uint64{cidItem, cidSpecial, cidPoint, cidList, cidInt32, cidPointArray} {
		whole, _, _ := newTest(newShop(t), Options{})
		split, _, _ := newTest(newShop(t), Options{})
		split.src = perModuleOf(newShop(t), 0)
		if err := whole.Plan(cid); err != nil {
			t.Fatal(err)
		}
		if err := split.Plan(cid); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(whole.classes[cid], split.classes[cid]) {
			t.Errorf("class %d: %+v, per module %+v", cid, whole.classes[cid], split.classes[cid])
		}
	}
}

func TestClassFields(t *testing.T) {
	f := newShop(t)
	own, byName, err := ClassFields(f, cidSpecial)
	if err != nil {
		t.Fatal(err)
	}
	if want := []NamedField{{"Extra", 40}}; !reflect.DeepEqual(own, want) {
		t.Errorf("Special's own fields %v, want %v", own, want)
	}
	own, byName, err = ClassFields(f, cidItem)
	if err != nil {
		t.Fatal(err)
	}
	want := []NamedField{{"<Name>k__BackingField", 8}, {"Price", 16}, {"<Password>k__BackingField", 24}, {"<clrotel>state", 32}}
	if !reflect.DeepEqual(own, want) {
		t.Errorf("Item's fields %v, want %v", own, want)
	}
	if byName["Count"] != 0x04000104 || byName["Price"] != 0x04000101 || len(byName) != 5 {
		t.Errorf("by name %v: the static Count and every field", byName)
	}
	// A field whose name cannot be read is left out.
	delete(f.fields, [2]uint64{app, 0x04000101})
	own, byName, _ = ClassFields(f, cidItem)
	if len(own) != 3 || len(byName) != 4 {
		t.Errorf("unreadable Price: %v %v", own, byName)
	}
	if _, _, err := ClassFields(f, 0xdead); err == nil {
		t.Errorf("unknown class: no error")
	}
}
