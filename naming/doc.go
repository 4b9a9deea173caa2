// Package naming decodes ECMA-335 signature blobs and formats .NET type and
// method names for span names: module, namespace, nested types, generic
// arguments filled in from the runtime, method generic arguments, parameter
// types and names. It also holds the glob matcher used for method selection.
//
// It owns no runtime access: the runtime and metadata come in through the
// Runtime and Metadata interfaces (implemented with cgo by the profiler,
// with fakes in tests). It must not use cgo or do I/O, and it is not on the
// per-call path: callers resolve a function once and cache the result.
package naming
