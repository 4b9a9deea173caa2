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
