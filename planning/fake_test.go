package planning

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/clrotel/clrotel/naming"
	"github.com/clrotel/clrotel/values"
)

// Modules of the fake runtime.
const (
	core = 1 // CoreLib
	app  = 2
	lib  = 3
)

// CoreLib classes every fake has.
const (
	cidObject = 1 + iota
	cidValueType
	cidEnum
	cidString
	cidInt32
	cidDouble
	cidBoolean
	cidCanon
	cidException
)

// Tokens the app module refers to CoreLib's base types by.
const (
	refValueType = 0x01000001
	refEnum      = 0x01000002
	refObject    = 0x01000003
)

type fakeType struct {
	cid       uint64
	name      string // as spans show it
	metaName  string // as the TypeDef stores it
	enclosing uint32
	class     naming.Class
	layout    []FieldOffset
	size      uint32
	box       uint32 // 0: no box offset
	base      uint32 // base type token
}

type typeRef struct {
	name  string
	scope uint32
}

type fakeSource struct {
	t        *testing.T
	types    map[uint64]*fakeType
	byDef    map[[2]uint64]*fakeType
	fields   map[[2]uint64]FieldProps
	fieldsOf map[[2]uint64][]uint32
	consts   map[[2]uint64]uint64
	attrs    map[[2]uint64][]string
	typeRefs map[[2]uint64]typeRef
	insts    map[string]uint64
	modules  []uint64
	unloaded map[uint64]bool
	// loads records the questions that may load a type.
	loads []string
	// scans counts the modules asked by name.
	scans int
	// asked counts the questions about one class, TypeDef or field
	// ("Class 0x5", "Layout 0x5", "ClassOf 2 0x2000001", "Field 2 0x4000100").
	asked map[string]int
	// layoutFails: the next so many Layout questions of a class fail (a
	// class not fully loaded yet).
	layoutFails map[uint64]int
}

func newFake(t *testing.T) *fakeSource {
	f := &fakeSource{
		t: t, types: map[uint64]*fakeType{}, byDef: map[[2]uint64]*fakeType{},
		fields: map[[2]uint64]FieldProps{}, fieldsOf: map[[2]uint64][]uint32{},
		consts: map[[2]uint64]uint64{}, attrs: map[[2]uint64][]string{},
		typeRefs: map[[2]uint64]typeRef{}, insts: map[string]uint64{},
		modules: []uint64{core, app, lib}, unloaded: map[uint64]bool{},
		asked: map[string]int{}, layoutFails: map[uint64]int{},
	}
	f.add(cidObject, core, 0x02000001, "Object", "System.Object", 0)
	f.add(cidValueType, core, 0x02000002, "System.ValueType", "System.ValueType", cidObject)
	f.add(cidEnum, core, 0x02000003, "System.Enum", "System.Enum", cidValueType)
	f.add(cidString, core, 0x02000004, "String", "System.String", cidObject)
	f.primitive(cidInt32, 0x02000005, "Int32", 0x04000001, []byte{0x08}, 4)
	f.primitive(cidDouble, 0x02000006, "Double", 0x04000002, []byte{0x0d}, 8)
	f.primitive(cidBoolean, 0x02000007, "Boolean", 0x04000003, []byte{0x02}, 1)
	f.add(cidCanon, core, 0x02000008, "System.__Canon", "System.__Canon", cidObject)
	ex := f.add(cidException, core, 0x02000009, "System.Exception", "System.Exception", cidObject)
	f.field(ex, 0x04000010, "_className", sig(0x0e), 8)
	f.field(ex, 0x04000011, "_message", sig(0x0e), 16)
	f.field(ex, 0x04000012, "_innerException", sig(0x12, tdef(0x02000009)), 24)
	for _, m := range []uint64{app, lib} {
		f.typeRefs[[2]uint64{m, refValueType}] = typeRef{"System.ValueType", 0x23000001}
		f.typeRefs[[2]uint64{m, refEnum}] = typeRef{"System.Enum", 0x23000001}
		f.typeRefs[[2]uint64{m, refObject}] = typeRef{"System.Object", 0x23000001}
	}
	return f
}

// add defines a class: its TypeDef in module mod and its ClassID.
func (f *fakeSource) add(cid, mod uint64, td uint32, name, metaName string, parent uint64) *fakeType {
	ft := &fakeType{cid: cid, name: name, metaName: metaName, class: naming.Class{Module: mod, Token: td, Parent: parent}}
	switch {
	case parent == cidValueType && mod == core:
		ft.base = 0x02000002
	case parent == cidEnum && mod == core:
		ft.base = 0x02000003
	case parent == cidValueType:
		ft.base = refValueType
	case parent == cidEnum:
		ft.base = refEnum
	case parent != 0 && mod != core:
		ft.base = refObject
	}
	if parent != 0 && parent != cidObject && parent != cidValueType && parent != cidEnum {
		ft.base = f.types[parent].class.Token // a TypeDef of the same module, in these tests
	}
	if cid != 0 {
		f.types[cid] = ft
	}
	f.byDef[[2]uint64{mod, uint64(td)}] = ft
	return ft
}

// primitive defines a CoreLib primitive value type with its m_value field.
func (f *fakeSource) primitive(cid uint64, td uint32, name string, fd uint32, elem []byte, size uint32) {
	p := f.add(cid, core, td, name, "System."+name, cidValueType)
	f.field(p, fd, "m_value", sig(elem...), 0)
	p.size, p.box = size, 8
}

// valueType defines a struct of the app module.
func (f *fakeSource) valueType(cid uint64, td uint32, name string, size uint32) *fakeType {
	v := f.add(cid, app, td, name, name, cidValueType)
	v.size, v.box = size, 8
	return v
}

// field adds an instance field at offset off.
func (f *fakeSource) field(t *fakeType, fd uint32, name string, sig []byte, off uint32) {
	f.def(t, fd, name, sig, 0x1)
	t.layout = append(t.layout, FieldOffset{Token: fd, Offset: off})
}

// def adds a field to the metadata only (a static or a literal).
func (f *fakeSource) def(t *fakeType, fd uint32, name string, sig []byte, attrs uint32) {
	key := [2]uint64{t.class.Module, uint64(t.class.Token)}
	f.fieldsOf[key] = append(f.fieldsOf[key], fd)
	f.fields[[2]uint64{t.class.Module, uint64(fd)}] = FieldProps{Name: name, Sig: sig, Attrs: attrs}
}

func (f *fakeSource) attr(mod uint64, tok uint32, name string) {
	key := [2]uint64{mod, uint64(tok)}
	f.attrs[key] = append(f.attrs[key], name)
}

// sig is a field signature of the given type bytes.
func sig(elem ...byte) []byte { return append([]byte{0x06}, elem...) }

// tdef and tref are TypeDefOrRef coded tokens of small row numbers.
func tdef(td uint32) byte { return byte((td & 0xffffff) << 2) }
func tref(tr uint32) byte { return byte((tr&0xffffff)<<2 | 1) }

// compressed is v as an ECMA-335 compressed unsigned integer (up to 0x3fff).
func compressed(v uint32) []byte {
	if v < 0x80 {
		return []byte{byte(v)}
	}
	return []byte{byte(0x80 | v>>8), byte(v)}
}

func (f *fakeSource) Class(cid uint64) (naming.Class, error) {
	f.asked[fmt.Sprintf("Class %#x", cid)]++
	if t, ok := f.types[cid]; ok {
		return t.class, nil
	}
	return naming.Class{}, fmt.Errorf("no class %#x", cid)
}

func (f *fakeSource) ClassName(cid uint64) string {
	if t, ok := f.types[cid]; ok {
		return t.name
	}
	return "?"
}

func (f *fakeSource) Layout(cid uint64) ([]FieldOffset, uint32, error) {
	f.asked[fmt.Sprintf("Layout %#x", cid)]++
	if f.layoutFails[cid] > 0 {
		f.layoutFails[cid]--
		return nil, 0, fmt.Errorf("GetClassLayout: HRESULT 0x80131363")
	}
	if t, ok := f.types[cid]; ok {
		return t.layout, t.size, nil
	}
	return nil, 0, fmt.Errorf("no class %#x", cid)
}

func (f *fakeSource) BoxOffset(cid uint64) (uint32, bool) {
	t, ok := f.types[cid]
	return t.box, ok && t.box != 0
}

func (f *fakeSource) ClassOf(mod uint64, td uint32) (uint64, error) {
	f.asked[fmt.Sprintf("ClassOf %d %#x", mod, td)]++
	f.loads = append(f.loads, fmt.Sprintf("ClassOf %d %#x", mod, td))
	if t, ok := f.byDef[[2]uint64{mod, uint64(td)}]; ok && t.cid != 0 {
		return t.cid, nil
	}
	return 0, fmt.Errorf("GetClassFromToken: HRESULT 0x80131130")
}

func (f *fakeSource) Instantiate(mod uint64, td uint32, args []uint64) (uint64, error) {
	f.loads = append(f.loads, fmt.Sprintf("Instantiate %d %#x %v", mod, td, args))
	if cid, ok := f.insts[fmt.Sprint(mod, td, args)]; ok {
		return cid, nil
	}
	return 0, fmt.Errorf("GetClassFromTokenAndTypeArgs: HRESULT 0x80131130")
}

// instance defines a generic instantiation's class.
func (f *fakeSource) instance(cid, mod uint64, td uint32, args []uint64, name string) *fakeType {
	gen := f.byDef[[2]uint64{mod, uint64(td)}]
	t := &fakeType{cid: cid, name: name, class: naming.Class{Module: mod, Token: td, Parent: gen.class.Parent, TypeArgs: args}, base: gen.base}
	f.types[cid] = t
	f.insts[fmt.Sprint(mod, td, args)] = cid
	return t
}

func (f *fakeSource) Modules() []uint64 {
	var out []uint64
	for _, m := range f.modules {
		if !f.unloaded[m] {
			out = append(out, m)
		}
	}
	return out
}

func (f *fakeSource) ModuleLoaded(mod uint64) bool { return !f.unloaded[mod] }

func (f *fakeSource) FindTypeDef(mod uint64, name string, enclosing uint32) (uint32, bool) {
	f.scans++
	for k, t := range f.byDef {
		if k[0] == mod && t.metaName == name && t.enclosing == enclosing {
			return uint32(k[1]), true
		}
	}
	return 0, false
}

func (f *fakeSource) TypeDefName(mod uint64, td uint32) (string, error) {
	if t, ok := f.byDef[[2]uint64{mod, uint64(td)}]; ok {
		return t.metaName, nil
	}
	return "", fmt.Errorf("no TypeDef %#x", td)
}

func (f *fakeSource) BaseType(mod uint64, td uint32) (uint32, error) {
	if t, ok := f.byDef[[2]uint64{mod, uint64(td)}]; ok {
		return t.base, nil
	}
	return 0, fmt.Errorf("no TypeDef %#x", td)
}

func (f *fakeSource) TypeRefName(mod uint64, tr uint32) (string, uint32, error) {
	if r, ok := f.typeRefs[[2]uint64{mod, uint64(tr)}]; ok {
		return r.name, r.scope, nil
	}
	return "", 0, fmt.Errorf("no TypeRef %#x", tr)
}

func (f *fakeSource) Fields(mod uint64, td uint32) ([]uint32, error) {
	if _, ok := f.byDef[[2]uint64{mod, uint64(td)}]; !ok {
		return nil, fmt.Errorf("no TypeDef %#x", td)
	}
	return f.fieldsOf[[2]uint64{mod, uint64(td)}], nil
}

func (f *fakeSource) Field(mod uint64, fd uint32) (FieldProps, error) {
	f.asked[fmt.Sprintf("Field %d %#x", mod, fd)]++
	if p, ok := f.fields[[2]uint64{mod, uint64(fd)}]; ok {
		return p, nil
	}
	return FieldProps{}, fmt.Errorf("no field %#x", fd)
}

func (f *fakeSource) Constant(mod uint64, fd uint32) (uint64, uint32, bool) {
	v, ok := f.consts[[2]uint64{mod, uint64(fd)}]
	if !ok {
		return 0, 0, false
	}
	return v, f.fields[[2]uint64{mod, uint64(fd)}].Attrs, true
}

func (f *fakeSource) HasAttribute(mod uint64, tok uint32, name string) bool {
	for _, a := range f.attrs[[2]uint64{mod, uint64(tok)}] {
		if a == name {
			return true
		}
	}
	return false
}

// fakeSink records what the planner publishes.
type fakeSink struct {
	published      map[uint64]*Class
	full           bool
	message, inner uint32
	layouts        int
}

func (s *fakeSink) Publish(p *Class) error {
	if s.full {
		return errors.New("full")
	}
	if s.published == nil {
		s.published = map[uint64]*Class{}
	}
	s.published[p.ID] = p
	return nil
}

func (s *fakeSink) ExceptionLayout(message, inner uint32) {
	s.message, s.inner = message, inner
	s.layouts++
}

// fakeLog keeps the warnings.
type fakeLog struct{ warnings []string }

func (l *fakeLog) Debugf(string, ...any) {}
func (l *fakeLog) Warnf(format string, args ...any) {
	l.warnings = append(l.warnings, fmt.Sprintf(format, args...))
}

func (l *fakeLog) has(fragment string) bool {
	for _, w := range l.warnings {
		if strings.Contains(w, fragment) {
			return true
		}
	}
	return false
}

// newTest returns a planner over f with the default sensitive names.
func newTest(f *fakeSource, o Options) (*Planner, *fakeSink, *fakeLog) {
	sink, log := &fakeSink{}, &fakeLog{}
	if o.Redact == nil {
		o.Redact = values.NewRedactor(values.DefaultSensitive)
	}
	o.Log = log
	return New(f, sink, o), sink, log
}
