package flows

import "strings"

// WorkMaker says whether a CoreLib method registered as a work item's
// maker (profiler/workitems.c) records the item, from the method's name
// and its parameters' type names (as naming.FormatType writes them:
// Object, Boolean). Every overload of a registered name is
// hooked; a thread is a work item only when started with the caller's
// ExecutionContext: Thread.Start() and Thread.Start(Object), not the
// internal Start(Boolean, Boolean) that UnsafeStart also calls. The thread
// pool starts its worker threads with UnsafeStart, inside whatever call
// queued the work that needed one: those threads, which live on and run
// everybody's work, must not carry that call's span.
func WorkMaker(typeName, name string, params []string) bool {
	if typeName == "System.Threading.Thread" && name == "Start" {
		return len(params) == 0 || len(params) == 1 && params[0] == "Object"
	}
	return true
}

// WorkThread says whether a CoreLib class registered as a work item (by
// its full name) is a thread's start, whose run is the thread's whole life
// rather than one unit of work: a root it runs may serve (serving.Rule),
// where work run on the thread pool is a unit of work of its own.
func WorkThread(typeName string) bool {
	return typeName == "System.Threading.Thread" || typeName == "System.Threading.ThreadHelper"
}

// WorkCallee is where a work item's run finds the words its callback is
// called with, so that the hooks can tell the callback's Enter when the
// run, optimized, jumps to it (a tail call) and its own frame ends first
// (profiler/workitems.h RUN_*). Field names are CoreLib's, on .NET Core 3.1
// and .NET 8.
type WorkCallee struct {
	// Via is the item's field holding the object that has Delegate and
	// Arg, of class ViaType (a nested-type chain); "" for the item itself.
	Via     string
	ViaType []string
	// Delegate is the field of the callback's delegate.
	Delegate string
	// Arg is the field of the object the callback is given; "" when it
	// is none, or not always a reference (a generic item's TState).
	Arg string
	// Param: the run's own argument 1 is what the callback is given (a
	// field the run sets only once it runs).
	Param bool
}

// WorkRunCallee says where the run of a CoreLib work item of class
// typeName (as naming writes it, type arguments in <>), with params
// parameters, finds what it calls its callback with; false for an item
// whose run never jumps to its callback (a Task's and a timer's run return
// through code of their own).
func WorkRunCallee(typeName string, params int) (WorkCallee, bool) {
	generic := false
	if i := strings.IndexByte(typeName, '<'); i >= 0 {
		typeName, generic = typeName[:i], true
	}
	switch typeName {
	case "System.Threading.QueueUserWorkItemCallbackDefaultContext", "System.Threading.QueueUserWorkItemCallback":
		if generic {
			return WorkCallee{Delegate: "_callback"}, true
		}
		return WorkCallee{Delegate: "_callback", Arg: "_state"}, true
	case "System.Threading.Thread":
		// .NET 5 and later: StartCallback runs the StartHelper that
		// Start filled in.
		return WorkCallee{Via: "_startHelper", ViaType: []string{"System.Threading.Thread", "StartHelper"}, Delegate: "_start", Arg: "_startArg"}, true
	case "System.Threading.ThreadHelper":
		// .NET Core 3.1: ThreadStart(Object) is given the argument it
		// stores in _startArg, ThreadStart() none.
		return WorkCallee{Delegate: "_start", Param: params == 1}, true
	}
	return WorkCallee{}, false
}
