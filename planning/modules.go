package planning

import "github.com/clrotel/clrotel/naming"

// Runtime is the profiling API's part of a TypeSource.
type Runtime interface {
	// Class describes a loaded class (GetClassIDInfo2; arrays too).
	Class(cid uint64) (naming.Class, error)
	// ClassName names a class as spans show it ("Acme.Item",
	// "List<String>", "Int32"), or "?".
	ClassName(cid uint64) string
	// Layout returns a class's own instance fields (not its parents') with
	// their offsets from the object's start, and its size (GetClassLayout).
	Layout(cid uint64) ([]FieldOffset, uint32, error)
	// BoxOffset is where a boxed value type's value starts in the object.
	BoxOffset(cid uint64) (uint32, bool)
	// ClassOf returns the class of a TypeDef (GetClassFromToken). It may
	// load the type.
	ClassOf(module uint64, td uint32) (uint64, error)
	// Instantiate returns the class of a generic TypeDef over type
	// arguments (GetClassFromTokenAndTypeArgs), 0 when the runtime gives
	// none. It may load the type.
	Instantiate(module uint64, td uint32, args []uint64) (uint64, error)
	// Modules lists the loaded modules, in load order.
	Modules() []uint64
	// ModuleLoaded reports whether a module is still loaded.
	ModuleLoaded(module uint64) bool
}

// Metadata is one module's metadata, the rest of a TypeSource: the
// methods of TypeSource of the same names, within the module.
type Metadata interface {
	FindTypeDef(name string, enclosing uint32) (uint32, bool)
	TypeDefName(td uint32) (string, error)
	Extends(td uint32) (uint32, error) // TypeSource.BaseType
	TypeRefName(tr uint32) (name string, scope uint32, err error)
	Fields(td uint32) ([]uint32, error)
	Field(fd uint32) (FieldProps, error)
	Constant(fd uint32) (value uint64, attrs uint32, ok bool)
	HasAttribute(token uint32, name string) bool
}

// PerModule is the TypeSource of a runtime and its modules' metadata,
// which open gives by ModuleID. A module open cannot give has no types,
// fields or attributes.
func PerModule(rt Runtime, open func(module uint64) (Metadata, error)) TypeSource {
	return perModule{rt, open}
}

type perModule struct {
	Runtime
	open func(module uint64) (Metadata, error)
}

func (s perModule) FindTypeDef(module uint64, name string, enclosing uint32) (uint32, bool) {
	md, err := s.open(module)
	if err != nil {
		return 0, false
	}
	return md.FindTypeDef(name, enclosing)
}

func (s perModule) TypeDefName(module uint64, td uint32) (string, error) {
	md, err := s.open(module)
	if err != nil {
		return "", err
	}
	return md.TypeDefName(td)
}

func (s perModule) BaseType(module uint64, td uint32) (uint32, error) {
	md, err := s.open(module)
	if err != nil {
		return 0, err
	}
	return md.Extends(td)
}

func (s perModule) TypeRefName(module uint64, tr uint32) (string, uint32, error) {
	md, err := s.open(module)
	if err != nil {
		return "", 0, err
	}
	return md.TypeRefName(tr)
}

func (s perModule) Fields(module uint64, td uint32) ([]uint32, error) {
	md, err := s.open(module)
	if err != nil {
		return nil, err
	}
	return md.Fields(td)
}

func (s perModule) Field(module uint64, fd uint32) (FieldProps, error) {
	md, err := s.open(module)
	if err != nil {
		return FieldProps{}, err
	}
	return md.Field(fd)
}

func (s perModule) Constant(module uint64, fd uint32) (uint64, uint32, bool) {
	md, err := s.open(module)
	if err != nil {
		return 0, 0, false
	}
	return md.Constant(fd)
}

func (s perModule) HasAttribute(module uint64, token uint32, name string) bool {
	md, err := s.open(module)
	if err != nil {
		return false
	}
	return md.HasAttribute(token, name)
}

// NamedField is an instance field of a class layout, by name.
type NamedField struct {
	Name   string
	Offset uint32
}

// ClassFields returns a class's own instance fields (not its parents')
// with their names, in layout order, and the tokens of all its fields
// (statics too) by name. A field whose name cannot be read is left out.
func ClassFields(src TypeSource, cid uint64) ([]NamedField, map[string]uint32, error) {
	c, err := src.Class(cid)
	if err != nil {
		return nil, nil, err
	}
	toks, err := src.Fields(c.Module, c.Token)
	if err != nil {
		return nil, nil, err
	}
	byName := map[string]uint32{}
	names := map[uint32]string{}
	for _, t := range toks {
		if f, err := src.Field(c.Module, t); err == nil {
			byName[f.Name] = t
			names[t] = f.Name
		}
	}
	layout, _, err := src.Layout(cid)
	if err != nil {
		return nil, nil, err
	}
	var out []NamedField
	for _, f := range layout {
		if name, ok := names[f.Token]; ok {
			out = append(out, NamedField{Name: name, Offset: f.Offset})
		}
	}
	return out, byName, nil
}
