package selection

// Special is what async.c found a CoreLib method to be at module load
// (profiler/async.h ASYNC_SPECIAL_*, kept equal by a test in
// profiler/internal/cworkitems): such a method is hooked for its part in
// flows, wherever the selection would leave it.
type Special int

const (
	SpecialNone           Special = 0
	SpecialBuilder        Special = 1 // a task builder's SetResult/SetException
	SpecialQueue          Special = 2 // queues work with a callback (queue.c)
	SpecialWorkMake       Special = 3 // makes a work item (workitems.c)
	SpecialWorkRun        Special = 4 // runs a work item
	SpecialWorkRepeat     Special = 5 // runs an item that may run more than once
	SpecialCompile        Special = 6 // compiles code (the runtime's JIT entry)
	SpecialWorkMakeRepeat Special = 7 // makes an item that may run more than once (a timer's)
	// Makes an item that never runs when made without a delegate (Task's
	// TaskConstructorCore: a promise-style task).
	SpecialWorkMakePromise Special = 8
)

// Work reports whether s makes or runs a work item.
func (s Special) Work() bool {
	return s.Maker() || s == SpecialWorkRun || s == SpecialWorkRepeat
}

// Maker reports whether s makes a work item.
func (s Special) Maker() bool {
	return s == SpecialWorkMake || s == SpecialWorkMakeRepeat || s == SpecialWorkMakePromise
}

// WorkFlags are the flags of a work item's maker or run (s.Work());
// thread: the run is a thread's start (flows.WorkThread), whose root may
// serve.
func WorkFlags(s Special, thread bool) Flags {
	f := FnSelected
	switch s {
	case SpecialWorkMake:
		f |= FnWorkMake
	case SpecialWorkMakeRepeat:
		f |= FnWorkMake | FnWorkRepeat
	case SpecialWorkMakePromise:
		f |= FnWorkMake | FnWorkPromise
	case SpecialWorkRun:
		f |= FnWorkRun
		if thread {
			f |= FnWorkThread
		}
	case SpecialWorkRepeat:
		f |= FnWorkRun | FnWorkRepeat
	}
	return f
}

// QueueFlags are the flags of a method that queues work; unsafe: it never
// flows the caller's context (flows.Queue.Unsafe); registers: its
// callbacks are read from the registers they came in
// (flows.Queue.Registers).
func QueueFlags(unsafe, registers bool) Flags {
	f := FnSelected | FnQueue
	if unsafe {
		f |= FnQueueUnsafe
	}
	if registers {
		f |= FnQueueRegisters
	}
	return f
}
