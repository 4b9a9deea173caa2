// Package scope answers, before any method is named, where a selection can
// match at all: from the include patterns it derives the literal prefixes
// every selected Namespace.Type.Method name must agree with. The profiler's
// C layer uses them to tell, once per module, that a module holds nothing
// selected, so that its methods keep their ReadyToRun code and cost no call
// into Go.
//
// It also owns the one list of what is the runtime's own code: its
// assemblies, by name and by file name, and the first segments of their
// type names. The C layer reads that list from profiler/framework.h, which
// go generate writes from it; a test fails when the header is stale.
//
// It must never narrow a selection: a module it cannot rule out is in
// scope, and the final word on each method stays with the profiler's
// selector.
package scope
