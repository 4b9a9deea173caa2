// Package flows decides how a call that continues elsewhere is linked to
// the span it belongs to: an async method's steps after an await, and work
// a traced method queued with a capturing lambda (a closure).
//
// What it owns: the part a method plays (Decide, from facts the profiler
// reads from metadata once per method), the reading of the attribute that
// names an async method's state machine, what a task builder's
// completion says about the task (AsyncOutcome), and which arguments of
// CoreLib's queuing methods are callbacks (QueueMethod).
//
// What it must not do: read the runtime or metadata itself (the profiler
// hands it facts), or keep state: the spans waiting for their tasks are
// otelbridge's, the fields that carry a flow are written by the hooks
// (profiler/async.c).
package flows
