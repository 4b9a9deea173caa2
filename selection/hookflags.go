package selection

import "github.com/clrotel/clrotel/flows"

// Flags are a hooked function's flags (profiler/capture.h FN_*), which the
// hooks read at each call. Both sides are checked equal, name by name, by
// profiler/internal/ccapture's TestFunctionFlags.
type Flags uint32

const (
	FnSelected      Flags = 1 // hooks are on
	FnSharedGeneric Flags = 2 // shared generic code: the hooks read the exact types from the frame
	FnFolded        Flags = 4 // set by the hooks (fold.c): calls under a span fold into it
	FnFoldExempt    Flags = 8 // never folded
	// An async method's kickoff, its state machine's step, a task
	// builder's completion (flows.Kickoff, MoveNext, Complete).
	FnAsyncKickoff  Flags = 16
	FnAsyncMoveNext Flags = 32
	FnAsyncComplete Flags = 64
	FnAsync               = FnAsyncKickoff | FnAsyncMoveNext | FnAsyncComplete
	// A closure class's constructor and its methods (flows.ClosureCtor,
	// ClosureBody).
	FnClosureCtor Flags = 128
	FnClosureBody Flags = 256
	FnLinked            = FnAsync | FnClosureCtor | FnClosureBody
	// Set by the C layer: folded and asked to be re-JIT-compiled without
	// hooks; its new code installed.
	FnReJIT    Flags = 0x1000
	FnUnhooked Flags = 0x2000
	// Set by Go with FnFolded: folded with its iterator (folding.Groups),
	// re-JIT-compiled without hooks although its role keeps them otherwise.
	FnIterFolded Flags = 1 << 14
	// With FnAsyncMoveNext: an iterator's enumerator's constructor
	// (flows.IterStart).
	FnIterStart Flags = 1 << 15
	// Activity.Stop: no span, a record of the Activity.
	FnActivityStop Flags = 1 << 16
	// A method that queues work; one that never flows the context.
	FnQueue       Flags = 1 << 17
	FnQueueUnsafe Flags = 1 << 18
	// With FnQueue: its callbacks are read from their registers
	// (flows.Queue.Registers).
	FnQueueRegisters Flags = 1 << 9
	// With FnAsyncMoveNext: an iterator's Dispose (flows.IterEnd).
	FnIterEnd Flags = 1 << 19
	// A work item's maker and run; an item run more than once.
	FnWorkMake   Flags = 1 << 20
	FnWorkRun    Flags = 1 << 21
	FnWorkRepeat Flags = 1 << 22
	// Never hooked, but JIT-compiled (refused its ReadyToRun code).
	FnCompile Flags = 1 << 23
	// A special hooked before Go started, waiting for its role.
	FnPending Flags = 1 << 24
	// An entry: each call begins a trace of its own.
	FnEntry Flags = 1 << 25
	// With FnWorkRun: a thread's start.
	FnWorkThread Flags = 1 << 26
	// With FnAsyncMoveNext: a state machine with the serving fields.
	FnAsyncLoop Flags = 1 << 27
	// The compiler's plumbing (naming.Plumbing, flows.Plumbing): no span,
	// a transparent frame; hooked only for a part in a flow (Hooked.Hooks).
	FnPlumbing Flags = 1 << 28
	// With FnAsyncMoveNext: an iterator's MoveNext (flows.IterStep), whose
	// exit record says what it returned.
	FnIterStep Flags = 1 << 29
	// With FnWorkMake: an item made without a delegate never runs.
	FnWorkPromise Flags = 1 << 30

	// Hooked for what they carry: never a span nor a counted call.
	FnNotACall = FnActivityStop | FnQueue | FnWorkMake | FnWorkRun | FnPlumbing
	// Never folded by their own calls nor re-JIT-compiled: their hooks do
	// more than count (an iterator's fold with it: FnIterFolded).
	FnNeverFolded = FnLinked | FnNotACall | FnEntry
)

// roleFlags are the flags of the parts flows.Gather finds.
var roleFlags = []struct {
	role flows.Role
	flag Flags
}{
	{flows.Kickoff, FnAsyncKickoff}, {flows.MoveNext, FnAsyncMoveNext}, {flows.Complete, FnAsyncComplete},
	{flows.ClosureCtor, FnClosureCtor}, {flows.ClosureBody, FnClosureBody}, {flows.IterEnd, FnIterEnd},
	{flows.Plumbing, FnPlumbing}, {flows.IterStep, FnIterStep}, {flows.IterStart, FnIterStart},
}

// RoleFlags are the flags of a method's parts in flows; loop: it is an
// async state machine given the serving fields.
func RoleFlags(r flows.Role, loop bool) Flags {
	var f Flags
	for _, x := range roleFlags {
		if r&x.role != 0 {
			f |= x.flag
		}
	}
	if loop {
		f |= FnAsyncLoop
	}
	return f
}

// Hooked is what decides the flags of a method the hooks trace.
type Hooked struct {
	Shared       bool   // shared generic code
	Plumbing     bool   // the compiler's plumbing (naming.Method.Plumbing)
	Role         Flags  // its parts in flows (RoleFlags)
	ActivityStop bool   // Activity.Stop (ActivityStop)
	Traits       Traits // Policy.Traits
}

// Flags: Activity.Stop makes no span and has no other part; any other
// method is selected with its parts in flows and its traits.
func (h Hooked) Flags() Flags {
	if h.ActivityStop {
		return FnSelected | FnActivityStop
	}
	f := FnSelected | h.Role
	if h.Shared {
		f |= FnSharedGeneric
	}
	if h.Traits.FoldExempt {
		f |= FnFoldExempt
	}
	if h.Traits.Entry {
		f |= FnEntry
	}
	if h.Plumbing {
		f |= FnPlumbing
	}
	return f
}

// Hooks reports whether the method is hooked at all: the compiler's
// plumbing makes no span, and is hooked only for a part in a flow (a
// closure's constructor gives the closure its span; an iterator's carries
// the iterator method's span to the enumerator).
func (h Hooked) Hooks() bool {
	return h.Flags()&FnPlumbing == 0 || h.Role&(FnClosureCtor|FnAsyncMoveNext) != 0
}
