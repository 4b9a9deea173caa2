// Command profiler is libclrotel.so, the CoreCLR profiler (built with
// -buildmode=c-shared).
//
// What it owns: the COM surface the runtime loads (com.c) and the callbacks
// behind it, the composition root that hands the runtime and the slot table
// to each component (callbacks.c), the Enter/Leave/Tailcall hooks and
// per-thread capture rings (hooks.c, hooks_amd64.S, slots.c), the
// signal-handler repair that keeps the runtime's
// NullReference/DivideByZero handling intact with Go loaded (signals.c), flat
// C wrappers over the runtime's info and metadata interfaces (clrinfo.c), and
// the Go glue: once-per-function selection and naming at JIT time
// (functions.go, runtime.go), the drainer that feeds the bridge (drain.go),
// and publishing sampling configurations to the hooks as immutable strategy
// blocks swapped by one pointer store (sampling.go, strategy.c; the remote
// strategy and the file reload are decided in packages sampling,
// sampling/jaegerremote and config), and reading the caller's trace context
// (Activity.Current) on a root call through layouts found at run time
// (ambient.c, ambient.go; the plan and when to retry it are package
// ambient's), and the
// fields that carry an async method's span through its state machine and a
// closure's maker to its lambdas, added at module load and read and
// written by the hooks (async.c, async.go; the decisions are package
// flows'), and keeping start-up cheap where nothing is traced: ReadyToRun
// code kept outside selected methods (startup.c) and the Go runtime held
// back until a function that may be selected is first met (golazy.c,
// golazy.ld).
//
// What it must not do: run Go on a CLR thread per call. Every callback body
// and hook is C, writes into preallocated lock-free rings, never blocks and
// counts what it drops. Go runs on CLR threads only from Initialize (or the
// first function question, when Initialize did not wait for Go),
// Shutdown, FunctionIDMapper2 and JITInlining (once per function), always
// with the runtime's GC activation signal blocked. Decisions belong to the
// pure packages the glue wires: naming rules to naming, spans to
// otelbridge, the log's reports to summary, the shedding windows to
// shedding, the function table's indexing to internal/indexed.
package main
