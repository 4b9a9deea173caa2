// Package selection decides, once per method, whether the profiler traces
// it and what the hooks then do with it: whether it is an entry that
// begins a trace of its own, whether it is exempt from folding, whether
// its values are captured, and so the flags the hooks read for it
// (profiler/capture.h FN_*, kept equal by a test in
// profiler/internal/ccapture). It decides from the method's assembly and
// names (package naming), its parts in flows (package flows) and the
// user's settings. Its Decider takes a function the runtime asks about
// from its cheap names to its route, naming in full only what is hooked,
// and decides which of CoreLib's queuing methods and work items are.
//
// It must not call the runtime, nor decide a method's part in async flows
// (package flows) or its sampling (package sampling). Which modules can
// hold a selected method at all is package scope's.
package selection
