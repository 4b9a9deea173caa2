// Package values decodes the value stream the profiler's hooks write for a
// call (arguments, `this`, return value) and renders it as span attributes.
//
// It owns the stream format (shared with profiler/values.h), the rendering
// rules (typed attributes for primitives, a compact deterministic text for
// structured values, sub-attributes for querying, the compact rendering of
// what `this` holds), redaction of sensitive names and of strings holding a
// payment card number. Types rendered by their meaning (System.Decimal,
// List<T>...) come through the TypeRenderer interface (values/typerender).
// It must not call the runtime or use cgo: what it needs to know about
// classes comes through the Classes interface.
package values
