// Package naming turns what the runtime and metadata say about a managed
// method into the readable names spans carry, such as
// "Acme.Shop.Repo<Acme.Shop.Item>.Find<Int32>(Int32 key)".
//
// It owns:
//
//   - decoding of ECMA-335 signature blobs (Partition II, 23.2): method,
//     field, TypeSpec and MethodSpec signatures, into Type and MethodSig;
//   - formatting of .NET type names, method names and parameter lists by
//     the project's span-name rules (FormatType, FormatMethodName,
//     FormatParams): primitives by CLR name, nested types joined with '.',
//     generic arguments in <...>;
//   - the glob matching that selects methods by Namespace.Type.Method
//     (Match, Patterns);
//   - the names compiler-generated methods (lambdas, anonymous methods,
//     local functions) read by as the user wrote them (AsWritten), from
//     the compilers' naming schemes, applied only where metadata says the
//     compiler made the method;
//   - the Resolver, which puts these together for a FunctionID;
//   - reading a name through the runtime's "buffer, capacity, length"
//     calls (ReadName): one call for the usual short name, never a cut one.
//
// The package does not call the runtime: it has no cgo and does no I/O.
// Decoding and formatting are pure functions of their arguments; tokens
// are named through a TypeNamer the caller supplies, and the Resolver sees
// the runtime and metadata only through the Runtime and Metadata
// interfaces, which the profiler implements (and tests fake).
//
// Signature blobs come from any assembly a traced program loads, so the
// decoder treats them as hostile: it checks every length and count against
// the bytes left before allocating, bounds nesting, and returns errors
// that say what it expected at which byte, never panicking.
//
// Nothing here is meant for the per-call path: decoding and formatting
// allocate, so callers name a function once, when the runtime first
// reports it, and cache the result.
package naming
