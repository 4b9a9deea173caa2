package planning

import "github.com/clrotel/clrotel/values"

// Shape is how an object of a class is read (values.h SHAPE_*).
type Shape uint8

// Shapes.
const (
	ShapeObject Shape = 1 // fields at offsets from the object
	ShapeString Shape = 2 // System.String
	ShapeArray  Shape = 3 // elements of ElemKind, ElemSize bytes each
	ShapeBoxed  Shape = 4 // a boxed value type: Elem at BoxOffset
	ShapeStruct Shape = 5 // a value type stored inline
)

// Bound marks an array field read only up to a count (values.h BOUND_*).
type Bound uint8

// Bounds.
const (
	BoundNone       Bound = 0
	BoundCollection Bound = 1 // a collection's elements, up to the count
	BoundText       Bound = 2 // a text's characters, up to the count
	BoundTree       Bound = 3 // a binary tree's root, walked
	BoundChains     Bound = 4 // an array of hash chains, walked
	BoundInner      Bound = 5 // the collection's own inner part
)

// NoCount is the BoundOffset of a walked collection without a count field
// (values.h BOUND_NO_COUNT).
const NoCount uint32 = 0xFFFFFFFF

// View is how package values shows an object of a class (values.h
// VIEW_*), which tells the hooks what of it they need not read.
type View uint8

// Views.
const (
	// ViewRendered: by its meaning (package typerender), which may read
	// any of its fields, at any depth.
	ViewRendered View = 0
	// ViewPlain: field by field (an app's class).
	ViewPlain View = 1
	// ViewTerse: field by field as a slot's value, as its type name alone
	// nested in one (values.ClassInfo.Terse): a framework class with no
	// rendering of its own.
	ViewTerse View = 2
)

// StaticWhere is where the runtime keeps a static field (values.h STATIC_*).
type StaticWhere uint32

// Places of static fields.
const (
	StaticAppDomain StaticWhere = 1
	StaticThread    StaticWhere = 2 // [ThreadStatic]
	StaticRVA       StaticWhere = 3 // data in the image (fdHasFieldRVA)
)

// Value says how to read one value (values.h clr_value_plan).
type Value struct {
	Kind   values.Kind
	Redact bool
	// ElemKind is, for KindByRef, the kind of the value pointed to.
	ElemKind values.Kind
	// MethodVar is set for a KindTypeArg (or a by-ref to one) that is a
	// method's type parameter rather than its type's.
	MethodVar bool
	// Offset is a field's offset from the object's (or struct's) start;
	// for KindTypeArg, the type parameter's index.
	Offset uint32
	// Bounded, for an array field, and BoundOffset, where the count is.
	Bounded     Bound
	BoundOffset uint32
	// Class is the inline layout of a KindStruct, or of the struct a
	// KindByRef points to.
	Class *Class
}

// Class is the plan of one runtime class (values.h clr_class_plan). A plan
// is complete, and never changes, once the planner hands it out.
type Class struct {
	ID    uint64
	Shape Shape
	// Arrays: the elements' kind, size and rank. Structs: ElemSize is the
	// value's size.
	ElemKind values.Kind
	ElemSize uint32
	Rank     uint32
	// BoxOffset is where a box's value starts in the object.
	BoxOffset uint32
	// Elem is the value type of an array of structs, or of a box.
	Elem *Class
	// Link holds 1 + the index of the fields linking a walked
	// collection's nodes (0: none); NodeCount 1 + the index of its Int32
	// subtree count.
	Link      [2]uint8
	NodeCount uint8
	// View is set for objects (ShapeObject).
	View   View
	Fields []Value
}

// Static is a static field recorded at a method's entry (values.h
// clr_static_plan). The runtime gives the address of the value itself, of
// a value type's too: Value says how to read what is there.
type Static struct {
	ClassID uint64
	Field   uint32 // FieldDef token
	Where   StaticWhere
	Value   Value
}

// Function is a traced method's plan (values.h clr_fn_plan) with how its
// values render: Enter has one slot per value the enter record holds
// (`this` if any, the arguments, the statics), Return the return value's.
type Function struct {
	HasThis bool
	// ThisExact: `this` points into a struct whose exact type only the
	// frame knows (shared code of a generic struct).
	ThisExact  bool
	This       Value
	Args       []Value
	Statics    []Static
	CaptureRet bool
	Ret        Value

	Enter  []values.Slot
	Return []values.Slot
}
