package selection

// Route is what the profiler makes of a method it is asked about, decided
// from what is cheap to read (its assembly, its name, what async.c found
// it to be) before the method is named in full.
type Route int

const (
	Untraced     Route = iota // no hooks
	Compile                   // the runtime's JIT entry (FnCompile)
	Queue                     // queues work with a callback (QueueFlags)
	Work                      // makes or runs a work item (WorkFlags)
	ActivityStop              // Activity.Stop: no span, its Activity recorded
	Traced                    // a span of its own (Hooked)
)

// Route decides a method's route: CoreLib's special methods (special,
// SpecialNone with async off) and Activity.Stop are hooked whatever the
// selection; a task builder's completion is traced (it ends async spans
// and makes none of its own).
func (p Policy) Route(assembly, name string, special Special) Route {
	switch {
	case special == SpecialCompile:
		return Compile
	case special == SpecialQueue:
		return Queue
	case special.Work():
		return Work
	case IsActivityStop(assembly, name):
		return ActivityStop
	case special == SpecialBuilder || p.Selected(assembly, name):
		return Traced
	}
	return Untraced
}
