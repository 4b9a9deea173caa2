package summary

import (
	"reflect"
	"strings"
	"testing"
)

func TestExitLines(t *testing.T) {
	for _, tc := range []struct {
		name string
		exit Exit
		want []Line
	}{
		{"nothing to say", Exit{}, nil},
		{"notes kept in order", Exit{Folding: "folded: f", ReJIT: "re-JIT: r", Shedding: "shed: s"},
			[]Line{{Info, "folded: f"}, {Info, "re-JIT: r"}, {Info, "shed: s"}}},
		{"faults and losses warn", Exit{GuardFaults: 2, AsyncOverflow: 3, AsyncMaxPending: 10, EventsDropped: 4, NoLeave: 5, FoldedAfterSent: 6},
			[]Line{
				{Warn, "2 runtime calls about objects faulted and were abandoned; those values show as <unreadable> (references that point at no object, such as ones forged by unsafe code)"},
				{Warn, "3 async spans ended untracked (clrotel.end_reason=async_untracked): more than CLROTEL_ASYNC_MAX_PENDING=10 were waiting for their task"},
				{Warn, "4 exception, catch or Activity records not recorded: capture buffers full (their spans miss those events)"},
				{Info, "6 calls folded into spans after they were sent (frames that began serving, sent while open): counted here, on no span"},
				{Warn, "5 spans closed without their method's Leave (clrotel.end_reason=no_leave): a frame below them returned first"},
			}},
		{"argument layouts", Exit{ArgLayouts: 3, ArgAsking: 1, Shedding: "shed: s"},
			[]Line{
				{Info, "values: 3 methods' arguments read where the runtime's answers placed them, without asking it again; 1 methods keep asking (an argument outside the saved registers, shared generic code, a float return, or answers that differed)"},
				{Info, "shed: s"},
			}},
		// Queued work's counts are reported only with async on.
		{"async off", Exit{WorkFull: 1, WorkLost: 1, GCEvents: GCSession{State: -1}}, nil},
		{"async on", Exit{Async: true, AsyncTypes: 1, AsyncSkippedModules: 2, QueueSuppressed: 3, WorkMade: 4, WorkJoined: 5, GCs: 6, GCRanges: 7},
			[]Line{
				{Info, "async: 1 state machines carry their span; 2 modules with native code left as they are; 3 closures queued with the flow suppressed"},
				{Info, "queued work: 4 work items made under a span, 5 runs continued their maker's trace; 6 collections followed (7 ranges of live objects reported)"},
			}},
		{"async: GC events and work items lost", Exit{Async: true, GCEvents: GCSession{State: -1}, WorkFull: 8, WorkLost: 9},
			[]Line{
				{Info, "async: 0 state machines carry their span; 0 modules with native code left as they are; 0 closures queued with the flow suppressed"},
				{Info, "queued work: 0 work items made under a span, 0 runs continued their maker's trace; 0 collections followed (0 ranges of live objects reported)"},
				{Warn, "queued work: the EventPipe session for the runtime's GC events did not start: objects collections move are not reported, and work items moved are forgotten at the next collection"},
				{Warn, "queued work: 8 work items not recorded, the table was full: their work started traces of its own"},
				{Warn, "queued work: 9 work items forgotten at a collection that did not report them alive (never run, or moved where the runtime did not say): those that ran started traces of their own"},
			}},
		{"async: GC events read", Exit{Async: true, GCEvents: GCSession{State: 1, Events: 4}}, []Line{
			{Info, "async: 0 state machines carry their span; 0 modules with native code left as they are; 0 closures queued with the flow suppressed"},
			{Info, "queued work: 0 work items made under a span, 0 runs continued their maker's trace; 0 collections followed (0 ranges of live objects reported)"},
			{Info, "queued work: 4 GC range events read from the EventPipe session"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.exit.Lines()
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Lines =\n%+v\nwant\n%+v", got, tc.want)
			}
		})
	}
}

func TestTotals(t *testing.T) {
	got := Totals{Records: 1, Exported: 2, Failed: 3, Lost: 4, Dropped: 5, Folded: 6, ShedCalls: 7, ShedTraces: 8, Unsampled: 9, RateLimited: 10}.String()
	want := "shut down: 1 records drained; 2 spans exported, 3 failed, 4 lost at exit; 5 calls dropped; 6 calls folded; 7 calls shed (8 traces); 9 traces not sampled, 10 rate-limited"
	if got != want {
		t.Errorf("Totals = %q; want %q", got, want)
	}
}

func TestTables(t *testing.T) {
	got := Tables{SlotsLive: 1, SlotsHigh: 2, Threads: 3, Functions: 4, Classes: 5, GoHeapMB: 6}.String()
	if !strings.HasPrefix(got, "tables: 1 slots in use (high water 2), 3 thread states, 4 functions, 5 classes, Go heap 6 MB") {
		t.Errorf("Tables = %q", got)
	}
	if strings.Contains(got, "full") {
		t.Errorf("Tables with full caches reported: %q", got)
	}
	full := Tables{VerdictsUncached: 7}.String()
	if !strings.HasSuffix(full, "; 7 verdicts found their cache full") {
		t.Errorf("Tables = %q", full)
	}
}
