// Package planning decides which values the profiler's hooks read for a
// traced method and how: the read plans that profiler/values.c follows
// when a call enters and leaves.
//
// It owns:
//
//   - a method's plan (Function): `this`, each argument (by value or by
//     reference, out parameters skipped), the return value, the static
//     fields configured for its type, and which of them are redacted;
//   - a runtime class's plan (built once per ClassID): an object's, a
//     value type's inline layout and its box, a string's, an array's,
//     with the parents' fields, the fields a collection uses only up to a
//     count, and the links of a walked collection's nodes;
//   - what rendering needs to know of a class (values.ClassInfo): its
//     fields' display names, enum members, nullable and primitive boxes;
//   - the lookups behind those: TypeRefs to TypeDefs across modules, type
//     names to classes, generic instantiations, with their caches;
//   - where System.Exception keeps its message and inner exception;
//   - the classes the hooks met without a plan, planned once each off the
//     drainer's path (Requests), and the gate that stops Go's own threads
//     asking the runtime once it shuts down (Gate).
//
// The package sees the runtime and metadata only through TypeSource, and
// hands the plans the hooks look classes up by (and the exception layout)
// to a Sink: the profiler implements both over the profiling API, and the
// tests fake them. It must not use cgo, read memory of the traced process
// or allocate C memory. Its plan types mirror the structs of
// profiler/values.h field for field; profiler/internal/cplan copies them
// into C memory and checks, from C, that both sides read them alike.
//
// Plans are built when a method is JIT-compiled or a class is first met,
// never per call. A question that could load a type is asked only while a
// method's plan is built on the thread that compiles it: the runtime
// cannot load a type on a thread of the profiler's own. Everything a plan
// depends on is bounded (nesting depth, parents, cached classes), and a
// type the planner cannot plan is read as nothing, never guessed at.
package planning
