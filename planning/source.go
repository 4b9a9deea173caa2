package planning

// TypeSource answers the planner's questions about loaded types: the
// profiling API's (classes, layouts, token resolution, instantiation) and
// each module's metadata (fields, attributes, type names). Classes are
// ClassIDs, modules ModuleIDs, and tokens are the module's metadata tokens.
// Errors are returned, never panics: the planner then plans less.
type TypeSource interface {
	Runtime

	// FindTypeDef finds a TypeDef by its name ("Namespace.Name") and, for
	// a nested type, the TypeDef it is declared in (0 for none).
	FindTypeDef(module uint64, name string, enclosing uint32) (uint32, bool)
	// TypeDefName returns a TypeDef's name as stored.
	TypeDefName(module uint64, td uint32) (string, error)
	// BaseType returns a TypeDef's base type token (0 for none).
	BaseType(module uint64, td uint32) (uint32, error)
	// TypeRefName returns a TypeRef's name and resolution scope (a TypeRef
	// for a nested type).
	TypeRefName(module uint64, tr uint32) (name string, scope uint32, err error)
	// Fields lists a TypeDef's fields, static ones too, in metadata order.
	Fields(module uint64, td uint32) ([]uint32, error)
	// Field returns a FieldDef's name, signature and attributes.
	Field(module uint64, fd uint32) (FieldProps, error)
	// Constant returns a field's constant value (an enum member's) and its
	// attributes.
	Constant(module uint64, fd uint32) (value uint64, attrs uint32, ok bool)
	// HasAttribute reports whether a token carries the custom attribute
	// of that type name ("System.FlagsAttribute").
	HasAttribute(module uint64, token uint32, name string) bool
}

// FieldOffset is one instance field of a class layout.
type FieldOffset struct {
	Token  uint32 // FieldDef
	Offset uint32
}

// FieldProps is what metadata says of a field.
type FieldProps struct {
	Name  string
	Sig   []byte
	Attrs uint32 // CorFieldAttr
}

// Field attributes the planner reads (ECMA-335 II.23.1.5).
const (
	fieldStatic  = 0x10
	fieldLiteral = 0x40
	fieldHasRVA  = 0x100
)

// Sink takes what the hooks need beyond a method's plan.
type Sink interface {
	// Publish makes an object's plan (ShapeObject, ShapeString,
	// ShapeArray, ShapeBoxed) visible to the hooks by its class, for
	// good; an error says it could not (a full table).
	Publish(p *Class) error
	// ExceptionLayout gives where System.Exception keeps its message and
	// inner exception (0: not found).
	ExceptionLayout(message, inner uint32)
}

// Logger takes the planner's diagnostics.
type Logger interface {
	Debugf(format string, args ...any)
	Warnf(format string, args ...any)
}
