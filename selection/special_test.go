package selection

import "testing"

func TestWorkFlags(t *testing.T) {
	for _, c := range []struct {
		s      Special
		thread bool
		want   Flags
		maker  bool
	}{
		{SpecialWorkMake, false, FnSelected | FnWorkMake, true},
		{SpecialWorkMake, true, FnSelected | FnWorkMake, true}, // only a run is a thread's start
		{SpecialWorkMakeRepeat, false, FnSelected | FnWorkMake | FnWorkRepeat, true},
		{SpecialWorkMakePromise, false, FnSelected | FnWorkMake | FnWorkPromise, true},
		{SpecialWorkRun, false, FnSelected | FnWorkRun, false},
		{SpecialWorkRun, true, FnSelected | FnWorkRun | FnWorkThread, false},
		{SpecialWorkRepeat, true, FnSelected | FnWorkRun | FnWorkRepeat, false},
	} {
		if got := WorkFlags(c.s, c.thread); got != c.want {
			t.Errorf("WorkFlags(%d, %v) = %#x, want %#x", c.s, c.thread, got, c.want)
		}
		if !c.s.Work() || c.s.Maker() != c.maker {
			t.Errorf("%d: Work %v, Maker %v; want true, %v", c.s, c.s.Work(), c.s.Maker(), c.maker)
		}
	}
	for _, s := range []Special{SpecialNone, SpecialBuilder, SpecialQueue, SpecialCompile} {
		if s.Work() || s.Maker() {
			t.Errorf("%d: a work item's maker or run", s)
		}
	}
}

func TestQueueFlags(t *testing.T) {
	for _, c := range []struct {
		unsafe, registers bool
		want              Flags
	}{
		{false, false, FnSelected | FnQueue},
		{true, false, FnSelected | FnQueue | FnQueueUnsafe},
		{false, true, FnSelected | FnQueue | FnQueueRegisters},
		{true, true, FnSelected | FnQueue | FnQueueUnsafe | FnQueueRegisters},
	} {
		if got := QueueFlags(c.unsafe, c.registers); got != c.want {
			t.Errorf("QueueFlags(%v, %v) = %#x, want %#x", c.unsafe, c.registers, got, c.want)
		}
	}
}
