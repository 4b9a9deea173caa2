package flows

import "strings"

// Role is the part a method plays in linking flows; a method may play
// several (an async lambda is a kickoff and a closure's method).
type Role uint32

const (
	// Kickoff: an async method whose state machine carries its span.
	Kickoff Role = 1 << iota
	// MoveNext: that state machine's step; no span of its own.
	MoveNext
	// Complete: a task builder's SetResult or SetException, which ends the
	// span of the async method whose step calls it.
	Complete
	// ClosureCtor: a closure class's constructor, whose span its lambdas
	// link to.
	ClosureCtor
	// ClosureBody: one of a closure's methods (a lambda), which joins the
	// span that made the closure when it starts a trace.
	ClosureBody
	// IterEnd: an iterator's Dispose, which ends its iterator method's
	// span (with MoveNext: it is a step of that span too).
	IterEnd
	// Plumbing: another method of a traced iterator's enumerator (Current,
	// GetEnumerator, Reset): the compiler's, no span of its own.
	Plumbing
	// IterStep: an iterator's MoveNext (with MoveNext): what it returns
	// counts the elements yielded and ends the enumeration.
	IterStep
	// IterStart: an iterator's enumerator's constructor (with MoveNext),
	// called by its iterator method: where an enumeration begins.
	IterStart
)

// Facts are what Decide needs to know of a method, from its metadata.
type Facts struct {
	Name    string // the method's own name (MoveNext, .ctor, ...)
	HasThis bool   // an instance method
	// Builder: a task builder's SetResult/SetException (the C# builder
	// pattern: its type defines AwaitUnsafeOnCompleted).
	Builder bool
	// StateMachineTracked: the method has AsyncStateMachineAttribute and
	// the state machine it names was given the profiler's fields.
	StateMachineTracked bool
	// OwnerFlowFields, OwnerLinkFields: the method's own type was given
	// the state-machine fields, or the closure fields.
	OwnerFlowFields, OwnerLinkFields bool
	// ExactLayout: the fields' offsets are the same for every call.
	ExactLayout bool
	// SharedLayout: the method is generic code shared by instantiations
	// (over reference types): the hooks find the fields' offsets per call,
	// in the layout of the frame's exact class.
	SharedLayout bool
	// OwnerIterFields: the method's own type is a compiler-generated
	// enumerator given the profiler's fields; IterTracked: an iterator
	// method naming it (IteratorStateMachineAttribute) is traced as one
	// span per enumeration.
	OwnerIterFields, IterTracked bool
}

// Decide returns the parts the method plays, and whether the hooks need
// the fields' offsets from its `this` (MoveNext and closure methods).
// A state machine's or an iterator's steps follow their span in shared
// generic code too; a closure's methods there do not (queued work is told
// by the closure's one class, which shared code does not have).
func Decide(f Facts) (r Role, offsets bool) {
	laidOut := f.ExactLayout || f.SharedLayout
	if f.Builder {
		return Complete, false
	}
	if f.StateMachineTracked {
		r |= Kickoff
	}
	if f.OwnerLinkFields && f.HasThis && f.ExactLayout {
		if f.Name == ".ctor" {
			return r | ClosureCtor, true
		}
		return r | ClosureBody, true
	}
	if r == 0 && f.Name == "MoveNext" && f.OwnerFlowFields && laidOut {
		return MoveNext, true
	}
	// An iterator's state machine: its constructor, called by the iterator
	// method, carries that method's span to the object; MoveNext steps it;
	// Dispose (however the compiler names its explicit implementation)
	// ends it. Its other methods are the compiler's plumbing.
	if f.OwnerIterFields && f.IterTracked && f.HasThis {
		dispose := f.Name == "Dispose" || strings.HasSuffix(f.Name, ".Dispose")
		switch {
		case !laidOut && (dispose || f.Name == ".ctor" || f.Name == "MoveNext"):
			// Its fields not found: traced as calls.
		case f.Name == "MoveNext":
			return r | MoveNext | IterStep, true
		case f.Name == ".ctor":
			return r | MoveNext | IterStart, true
		case dispose:
			return r | MoveNext | IterEnd, true
		case r == 0:
			return Plumbing, false
		}
	}
	return r, false
}
