package planning

// TypeNames is what ValueType reads of a module's metadata.
type TypeNames interface {
	TypeDefName(module uint64, td uint32) (string, error)
	BaseType(module uint64, td uint32) (uint32, error)
	TypeRefName(module uint64, tr uint32) (name string, scope uint32, err error)
}

// ValueType tells from metadata alone whether TypeDef td of module is a
// struct or an enum: its base type is System.ValueType or System.Enum (a
// TypeRef to it, or a TypeDef inside CoreLib). An instance method's `this`
// is then a managed pointer to the value, never an object reference.
func ValueType(src TypeNames, module uint64, td uint32) bool {
	ext, err := src.BaseType(module, td)
	if err != nil || ext == 0 {
		return false
	}
	var base string
	switch ext & tokKind {
	case tokTypeRef:
		base, _, err = src.TypeRefName(module, ext)
	case tokTypeDef:
		base, err = src.TypeDefName(module, ext)
	}
	return err == nil && (base == "System.ValueType" || base == "System.Enum")
}
