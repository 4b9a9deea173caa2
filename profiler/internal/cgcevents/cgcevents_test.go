package cgcevents

import (
	"encoding/binary"
	"testing"
	"time"
)

func TestMaskHigh(t *testing.T) {
	cases := []struct {
		mask, version, want uint32
	}{
		{MaskMoved, 12, MaskEventPipe},
		{MaskMoved | 0x10, 13, MaskEventPipe},
		{MaskMoved, 11, 0}, // .NET Core 3.1: no ICorProfilerInfo12
		{0x10, 12, 0},      // work items off: nothing to follow
	}
	for _, c := range cases {
		if got := MaskHigh(c.mask, c.version); got != c.want {
			t.Errorf("mask %#x, Info%d: %#x, want %#x", c.mask, c.version, got, c.want)
		}
	}
}

func TestStart(t *testing.T) {
	Init(MaskMoved|MaskEventPipe, 0, 0)
	rc := Start()
	want := Asked{Calls: 1, Configs: 1, Provider: "Microsoft-Windows-DotNETRuntime", Keywords: 0x400000, Level: 4, FilterNull: true}
	if a := WhatAsked(); rc != 0 || a != want {
		t.Errorf("started: rc %d, asked %+v, want 0, %+v", rc, a, want)
	}
	if st, _, _, _ := Counts(); st != 1 {
		t.Errorf("state %d after a start, want 1", st)
	}
	Init(MaskMoved|MaskEventPipe, -2147467259, 0) // E_FAIL
	if rc := Start(); rc != -1 || WhatAsked().Calls != 1 {
		t.Errorf("refused: rc %d, %d calls", rc, WhatAsked().Calls)
	}
	if st, _, _, _ := Counts(); st != -1 {
		t.Errorf("state %d after a refused start, want -1", st)
	}
	Init(MaskMoved, 0, 0)
	if rc := Start(); rc != -1 || WhatAsked().Calls != 0 {
		t.Errorf("without the mask bit: rc %d, %d calls, want no session asked for", rc, WhatAsked().Calls)
	}
}

// The session starts on a thread of its own, once however many times it
// is asked, and nobody waits for it, even when it takes long.
func TestStartLater(t *testing.T) {
	Init(MaskMoved|MaskEventPipe, 0, 20*time.Millisecond)
	StartLater()
	StartLater()
	StartLater()
	for st, _, _, _ := Counts(); st == 0; st, _, _, _ = Counts() {
		time.Sleep(5 * time.Millisecond)
	}
	if st, _, _, _ := Counts(); st != 1 {
		t.Errorf("state %d, want 1 (running)", st)
	}
	if n := WhatAsked().Calls; n != 1 {
		t.Errorf("%d sessions started, want 1", n)
	}

	// A start that takes long: the callers go on while it runs.
	Init(MaskMoved|MaskEventPipe, 0, 2*time.Second)
	StartLater()
	if st, _, _, _ := Counts(); st != 0 {
		t.Errorf("state %d right after asking, want 0: the caller waited for a 2 s start", st)
	}
	for st, _, _, _ := Counts(); st == 0; st, _, _, _ = Counts() {
		time.Sleep(10 * time.Millisecond) // the fake's start finishes
	}

	Init(MaskMoved, 0, 0)
	StartLater()
	time.Sleep(10 * time.Millisecond)
	if st, _, _, _ := Counts(); st != 0 || WhatAsked().Calls != 0 {
		t.Errorf("without the mask bit: state %d, %d calls", st, WhatAsked().Calls)
	}
}

// One collection: items made at from, the events delivered, then each
// item looked for at its new address.
func TestRangeEvents(t *testing.T) {
	h := NewHeap(8192)
	defer h.Free()
	type event struct {
		id      uint32
		payload []byte
		off     int
	}
	var many []Range // 300 ranges: more than one batch of 128
	for i := 0; i < 300; i++ {
		many = append(many, Range{uint64(h.Obj(2000+4*i, taskClass)), uint64(h.Obj(4000+4*i, taskClass)), 16})
	}
	cases := []struct {
		name       string
		from, to   int // words of the item before and after
		events     func(from, to uint64) []event
		found      bool
		malformed  uint64
		eventsRead uint64
	}{
		{"moved", 10, 20, func(f, to uint64) []event {
			return []event{{MovedRanges, Payload(MovedRanges, []Range{{f - 8, to - 8, 32}}), 0}}
		}, true, 0, 1},
		{"moved, unaligned payload", 30, 40, func(f, to uint64) []event {
			return []event{{MovedRanges, Payload(MovedRanges, []Range{{f, to, 8}}), 3}}
		}, true, 0, 1},
		{"moved, the same event twice", 50, 60, func(f, to uint64) []event {
			p := Payload(MovedRanges, []Range{{f, to, 8}})
			return []event{{MovedRanges, p, 0}, {MovedRanges, p, 1}}
		}, true, 0, 2},
		{"surviving in place", 70, 70, func(f, _ uint64) []event {
			return []event{{SurvivingRanges, Payload(SurvivingRanges, []Range{{f, f, 8}}), 1}}
		}, true, 0, 1},
		{"in the third batch of one event", 2000 + 4*260, 4000 + 4*260, func(_, _ uint64) []event {
			return []event{{MovedRanges, Payload(MovedRanges, many), 0}}
		}, true, 0, 1},
		{"another event id: ignored", 90, 100, func(f, to uint64) []event {
			return []event{{23, Payload(MovedRanges, []Range{{f, to, 8}}), 0}}
		}, false, 0, 0},
		{"a range that ends before it", 110, 120, func(f, to uint64) []event {
			return []event{{MovedRanges, Payload(MovedRanges, []Range{{f - 64, to - 64, 64}}), 0}}
		}, false, 0, 1},
		{"truncated payload", 130, 140, func(f, to uint64) []event {
			p := Payload(MovedRanges, []Range{{f, to, 8}})
			return []event{{MovedRanges, p[:len(p)-1], 0}}
		}, false, 1, 0},
		{"a count larger than the payload", 150, 160, func(f, to uint64) []event {
			p := Payload(MovedRanges, []Range{{f, to, 8}})
			binary.LittleEndian.PutUint32(p[4:], 0xffffffff)
			return []event{{MovedRanges, p, 0}}
		}, false, 1, 0},
		{"a surviving layout under the moved id", 170, 170, func(f, _ uint64) []event {
			return []event{{MovedRanges, Payload(SurvivingRanges, []Range{{f, f, 8}}), 0}}
		}, false, 1, 0},
		{"shorter than the header", 190, 200, func(_, _ uint64) []event {
			return []event{{SurvivingRanges, []byte{1, 0, 0, 0, 0}, 0}}
		}, false, 1, 0},
	}
	for _, c := range cases {
		from, to := uint64(h.Obj(c.from, taskClass)), uint64(h.Obj(c.to, taskClass))
		Made(uintptr(from), 77)
		_, ev0, bad0, lost0 := Counts()
		Started()
		for _, e := range c.events(from, to) {
			Deliver(e.id, e.payload, e.off)
		}
		Finished()
		_, ev, bad, lost := Counts()
		if ev-ev0 != c.eventsRead || bad-bad0 != c.malformed {
			t.Errorf("%s: %d events read, %d malformed; want %d, %d", c.name, ev-ev0, bad-bad0, c.eventsRead, c.malformed)
		}
		got := Take(uintptr(to)) == 77
		if got != c.found {
			t.Errorf("%s: found at its new address %v, want %v", c.name, got, c.found)
		}
		if !c.found && lost-lost0 != 1 {
			t.Errorf("%s: %d items forgotten, want 1 (counted)", c.name, lost-lost0)
		}
		if from != to && Take(uintptr(from)) != 0 {
			t.Errorf("%s: still found at the old address", c.name)
		}
	}
	// No payload at all: counted, nothing read.
	_, _, bad0, _ := Counts()
	DeliverNil(MovedRanges)
	if _, _, bad, _ := Counts(); bad != bad0+1 {
		t.Errorf("a missing payload is not counted as malformed")
	}
}
