// Package flows decides how a call that continues elsewhere is linked to
// the span it belongs to: an async method's steps after an await, and work
// a traced method queued with a capturing lambda (a closure).
//
// What it owns: the part a method plays (Gather reads the facts from a
// method's module through the Module interface, once per method, and
// Decide decides from them), the reading of the attribute that names an
// async method's state machine, what a task builder's completion says
// about the task (AsyncOutcome), and which arguments of CoreLib's queuing
// methods are callbacks (QueueMethod).
//
// What it must not do: read the runtime or metadata other than through
// Module (the profiler implements it), or keep state: the spans waiting
// for their tasks are otelbridge's, the fields that carry a flow are
// written by the hooks (profiler/async.c).
package flows
