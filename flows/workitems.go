package flows

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
