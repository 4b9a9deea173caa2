// Package hotpath checks, on the machine code of the built library, what
// the per-call hooks can reach: it builds libclrotel.so with its symbols,
// disassembles it, follows every direct call and jump from the
// Enter/Leave/Tailcall trampolines, and fails if the hot path can reach an
// allocator, a lock, a system call or Go, or calls through a pointer
// anywhere but in the few functions that read values through the .NET
// profiling API.
//
// It holds tests only; nothing imports it.
package hotpath
