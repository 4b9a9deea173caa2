package values

import "go.opentelemetry.io/otel/attribute"

// A TypeRenderer renders the values of the classes it knows (System.Decimal,
// System.Collections.Generic.List<T>, ...) by their meaning instead of their
// fields. Package values/typerender implements it; a Renderer without one
// renders every object by its fields.
type TypeRenderer interface {
	// Render returns the rendering of v, an Object or Struct of class ci,
	// or false when ci is not a class it knows or v lacks what it needs
	// (the generic rendering is used then).
	Render(ci ClassInfo, v Value, c Context) (Rendering, bool)
}

// CollectionRenderer is what a TypeRenderer may also say: that every
// rendering of class ci, when there is one, is a collection's (a
// ".count" sub-attribute). An object's first-level fields of such a class
// get no sub-attribute (the collection's text repeats the parent's), so
// the Renderer then skips rendering them a second time.
type CollectionRenderer interface {
	Collection(ci ClassInfo) bool
}

// Context is what a TypeRenderer may use to render what v holds.
type Context interface {
	// Text is the compact text of a value held by v (an element, a key).
	Text(v Value) string
	// Class resolves a ClassID (a Type object's handle, say).
	Class(id uint64) (ClassInfo, bool)
	// Nested reports whether v is shown inside another value where
	// collections show only their count ([3]).
	Nested() bool
	// Depth is v's nesting depth: 0 for an argument, `this` or a return
	// value itself.
	Depth() int
	// SensitiveKey reports whether a key-value entry with key k must hide
	// its value.
	SensitiveKey(k Value) bool
	// Method names the managed method whose code a code address (a
	// delegate's method pointer) leads to, or false when it cannot tell.
	Method(code uint64) (string, bool)
}

// Methods names code addresses. A Renderer's Classes that implements it
// lets delegates show their target method (package values never calls the
// runtime itself).
type Methods interface {
	MethodAt(code uint64) (string, bool)
}

// Rendering is what a TypeRenderer makes of one value.
type Rendering struct {
	// Text is the value's text: the attribute's value at the top level,
	// and how it shows inside other values.
	Text string
	// As, when set, is rendered in v's place, as any value of its shape
	// would be (a StringBuilder as the String of its text, a Uri as its
	// string, a created Lazy<T> as its value); Text is ignored then.
	As *Value
	// Subs are typed sub-attributes added at the top level, keyed by the
	// value's key plus Suffix (".count", ".value", ".kind").
	Subs []Sub
}

// Sub is one typed sub-attribute.
type Sub struct {
	Suffix string
	Value  attribute.Value
}
