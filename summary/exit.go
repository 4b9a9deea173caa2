package summary

import "fmt"

// Exit are the counts the exit report is made of. Notes made elsewhere
// (folding's, re-JIT's, shedding's) come as text, empty
// when they have nothing to say.
type Exit struct {
	Folding, ReJIT string // folding.Summary, folding.ReJITNote
	// GuardFaults: runtime calls about objects that faulted.
	GuardFaults uint64
	// AsyncOverflow: async spans ended untracked, with more than
	// AsyncMaxPending waiting.
	AsyncOverflow, AsyncMaxPending uint64

	Async bool // CLROTEL_ASYNC: the lines below on async and queued work
	// State machines carrying their span, modules left as they are,
	// closures queued with the flow suppressed.
	AsyncTypes, AsyncSkippedModules, QueueSuppressed uint64
	// Work items made under a span, runs joined to their maker's trace,
	// not recorded (table full), forgotten at a collection; collections
	// followed and the ranges of live objects they reported.
	WorkMade, WorkJoined, WorkFull, WorkLost, GCs, GCRanges uint64
	GCEvents                                                GCSession

	Shedding string // shedding.Note
	// EventsDropped: exception, catch or Activity records not recorded.
	EventsDropped uint64
	// FoldedAfterSent: calls folded into spans already sent.
	FoldedAfterSent uint64
	// NoLeave: spans closed without their method's Leave.
	NoLeave uint64
	// ArgLayouts: methods whose argument places the value reader learned
	// from the runtime's answers and reads without asking it; ArgAsking:
	// methods it refused a layout (they keep asking).
	ArgLayouts, ArgAsking uint64
}

// Lines is the exit report, in the order it is logged.
func (e Exit) Lines() []Line {
	var l lines
	l.add(Info, e.Folding)
	l.add(Info, e.ReJIT)
	if e.GuardFaults > 0 {
		l.add(Warn, fmt.Sprintf("%d runtime calls about objects faulted and were abandoned; those values show as <unreadable> (references that point at no object, such as ones forged by unsafe code)", e.GuardFaults))
	}
	if e.AsyncOverflow > 0 {
		l.add(Warn, fmt.Sprintf("%d async spans ended untracked (clrotel.end_reason=async_untracked): more than CLROTEL_ASYNC_MAX_PENDING=%d were waiting for their task", e.AsyncOverflow, e.AsyncMaxPending))
	}
	if e.Async {
		l.add(Info, fmt.Sprintf("async: %d state machines carry their span; %d modules with native code left as they are; %d closures queued with the flow suppressed", e.AsyncTypes, e.AsyncSkippedModules, e.QueueSuppressed))
		l.add(Info, fmt.Sprintf("queued work: %d work items made under a span, %d runs continued their maker's trace; %d collections followed (%d ranges of live objects reported)", e.WorkMade, e.WorkJoined, e.GCs, e.GCRanges))
		if note, warn := e.GCEvents.Note(); warn {
			l.add(Warn, note)
		} else {
			l.add(Info, note)
		}
		if e.WorkFull > 0 {
			l.add(Warn, fmt.Sprintf("queued work: %d work items not recorded, the table was full: their work started traces of its own", e.WorkFull))
		}
		if e.WorkLost > 0 {
			l.add(Warn, fmt.Sprintf("queued work: %d work items forgotten at a collection that did not report them alive (never run, or moved where the runtime did not say): those that ran started traces of their own", e.WorkLost))
		}
	}
	if e.ArgLayouts > 0 || e.ArgAsking > 0 {
		l.add(Info, fmt.Sprintf("values: %d methods' arguments read where the runtime's answers placed them, without asking it again; %d methods keep asking (an argument outside the saved registers, shared generic code, a float return, or answers that differed)", e.ArgLayouts, e.ArgAsking))
	}
	l.add(Info, e.Shedding)
	if e.EventsDropped > 0 {
		l.add(Warn, fmt.Sprintf("%d exception, catch or Activity records not recorded: capture buffers full (their spans miss those events)", e.EventsDropped))
	}
	if e.FoldedAfterSent > 0 {
		l.add(Info, fmt.Sprintf("%d calls folded into spans after they were sent (frames that began serving, sent while open): counted here, on no span", e.FoldedAfterSent))
	}
	if e.NoLeave > 0 {
		l.add(Warn, fmt.Sprintf("%d spans closed without their method's Leave (clrotel.end_reason=no_leave): a frame below them returned first", e.NoLeave))
	}
	return l
}

// Totals is the last line of the log: where every call went.
type Totals struct {
	Records                                uint64 // drained
	Exported, Failed, Lost                 uint64 // spans
	Dropped, Folded, ShedCalls, ShedTraces uint64 // calls (and traces shed)
	Unsampled, RateLimited                 uint64 // traces
}

func (t Totals) String() string {
	return fmt.Sprintf("shut down: %d records drained; %d spans exported, %d failed, %d lost at exit; %d calls dropped; %d calls folded; %d calls shed (%d traces); %d traces not sampled, %d rate-limited",
		t.Records, t.Exported, t.Failed, t.Lost, t.Dropped, t.Folded, t.ShedCalls, t.ShedTraces, t.Unsampled, t.RateLimited)
}
