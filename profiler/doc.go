// Command profiler is libclrotel.so, the CoreCLR profiler (built with
// -buildmode=c-shared), and the composition root: its C half is the COM
// surface, the callbacks, the hooks and the thin wrappers over the
// runtime's interfaces; its Go half wires the pure packages to them,
// through package clr (the runtime's interfaces as Go types) and package
// hookstate (the hooks' slot table and counters) (docs/architecture.md
// lists what each file and package owns).
//
// What it must not do: run Go on a CLR thread per call. Every callback body
// and hook is C, writes into preallocated lock-free rings, never blocks and
// counts what it drops. Go runs on CLR threads only from Initialize (or the
// first function question, when Initialize did not wait for Go),
// Shutdown, FunctionIDMapper2 and JITInlining (once per function), always
// with the runtime's GC activation signal blocked. Nor does it decide:
// decisions belong to the pure packages it wires, behind small interfaces
// it answers through the profiling API.
package main
