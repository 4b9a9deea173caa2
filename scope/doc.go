// Package scope answers, before any method is named, where a selection can
// match at all: from the include patterns it derives the literal prefixes
// every selected Namespace.Type.Method name must agree with. The profiler's
// C layer uses them to tell, once per module, that a module holds nothing
// selected, so that its methods keep their ReadyToRun code and cost no call
// into Go.
//
// It owns only that derivation. It must never narrow a selection: a module
// it cannot rule out is in scope, and the final word on each method stays
// with the profiler's selector.
package scope
