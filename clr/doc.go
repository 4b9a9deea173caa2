// Package clr is the Go view of the runtime's profiling and metadata
// interfaces (ICorProfilerInfo, IMetaDataImport2), through the profiler's
// flat C wrappers: small types that answer the pure packages' questions of
// the runtime (naming.Runtime and its modules' metadata, planning's
// runtime half, flows.Module, the layouts ambient asks for).
//
// Its C functions are defined in profiler/'s C files and declared here from
// their headers; they resolve only when libclrotel.so is linked. So no test
// binary of this package can link: the logic these adapters feed is tested
// in the pure packages, on fakes, and these types only translate between
// Go values and the C calls.
//
// What it must not do: decide anything (that belongs to the pure
// packages), or be called on a runtime thread per call (hooks are C).
package clr
