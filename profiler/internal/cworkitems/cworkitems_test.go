package cworkitems

import "testing"

const (
	classTask  = 0x1000
	classTimer = 0x2000
	sec        = uint64(1e9)
)

// reset forgets every pending item: a collection that reports nothing.
func reset() { Started(false); Finished() }

func TestMadeThenRun(t *testing.T) {
	reset()
	h := NewHeap(64)
	defer h.Free()
	a, b := h.Obj(0, classTask), h.Obj(8, classTask)
	Made(a, Join, 11, 100*sec)
	Made(b, Link, 22, 100*sec)
	cases := []struct {
		name   string
		item   uintptr
		repeat bool
		now    uint64
		how    int
		span   uint64
	}{
		{"a", a, false, 101 * sec, Join, 11},
		{"a again: taken", a, false, 101 * sec, None, 0},
		{"b", b, false, 101 * sec, Link, 22},
		{"never made", h.Obj(16, classTask), false, 101 * sec, None, 0},
	}
	for _, c := range cases {
		how, span := Take(c.item, c.repeat, c.now)
		if how != c.how || span != c.span {
			t.Errorf("%s: how %d span %d, want %d %d", c.name, how, span, c.how, c.span)
		}
	}
}

func TestRepeatAndLimits(t *testing.T) {
	reset()
	h := NewHeap(64)
	defer h.Free()
	timer := h.Obj(0, classTimer)
	Made(timer, Join, 7, 100*sec)
	for i := 0; i < 3; i++ {
		if how, span := Take(timer, true, 100*sec+uint64(i)); how != Join || span != 7 {
			t.Fatalf("tick %d: how %d span %d", i, how, span)
		}
	}
	// Past the link window: work a minute on starts its own trace.
	if how, _ := Take(timer, true, 100*sec+61*sec); how != None {
		t.Errorf("a tick 61 s on joined (how %d)", how)
	}
	// Another class at the address: not the item.
	old := h.Obj(8, classTask)
	Made(old, Join, 9, 100*sec)
	h.Obj(8, classTimer)
	if how, _ := Take(old, false, 100*sec); how != None {
		t.Errorf("an object of another class took the item's link (how %d)", how)
	}
	// An unsampled maker is passed on, not counted as a join.
	u := h.Obj(16, classTask)
	Made(u, Unsampled, 0, 100*sec)
	_, joined0, _, _ := Counts()
	if how, _ := Take(u, false, 100*sec); how != Unsampled {
		t.Errorf("unsampled: how %d", how)
	}
	if _, joined, _, _ := Counts(); joined != joined0 {
		t.Errorf("an unsampled run counted as joined")
	}
}

func TestCollections(t *testing.T) {
	h := NewHeap(4096)
	defer h.Free()
	cases := []struct {
		name   string
		gen2   bool
		report func(from, to uintptr)
		found  bool // at the new address
		lost   uint64
	}{
		{"moved", false, func(from, to uintptr) { Moved(from-8, to-8, 64) }, true, 0},
		{"moved, reported twice (both interfaces)", false, func(from, to uintptr) { Moved(from, to, 8); Moved32(from, to, 8) }, true, 0},
		{"full compacting collection", true, func(from, to uintptr) { Moved(from, to, 8) }, true, 0},
		{"not reported: forgotten", false, func(from, to uintptr) {}, false, 1},
		{"a range that ends before it", false, func(from, to uintptr) { Moved(from-64, to-64, 64) }, false, 1},
	}
	for i, c := range cases {
		reset()
		from, to := h.Obj(100+i*50, classTask), h.Obj(120+i*50, classTask)
		Made(from, Join, uint64(1000+i), 100*sec)
		_, _, _, lost0 := Counts()
		Started(c.gen2)
		c.report(from, to)
		Finished()
		_, _, _, lost := Counts()
		if lost-lost0 != c.lost {
			t.Errorf("%s: %d lost, want %d", c.name, lost-lost0, c.lost)
		}
		how, span := Take(to, false, 100*sec)
		if c.found != (how == Join && span == uint64(1000+i)) {
			t.Errorf("%s: at the new address how %d span %d, want found=%v", c.name, how, span, c.found)
		}
		if how, _ := Take(from, false, 100*sec); how != None && from != to {
			t.Errorf("%s: still found at the old address", c.name)
		}
	}
}

// An item in a generation the collection leaves alone is not reported and
// stays where it is: kept, through any number of such collections; one in
// generation 0 that nothing reports is forgotten.
func TestUncollectedGenerationKeeps(t *testing.T) {
	h := NewHeap(4096)
	defer h.Free()
	reset()
	old, young := h.Obj(100, classTask), h.Obj(900, classTask)
	gen1 := h.Obj(0, 0)
	Made(old, Join, 7, 100*sec)
	Made(young, Join, 8, 100*sec)
	_, _, _, lost0 := Counts()
	for i := 0; i < 3; i++ {
		StartedGen0(gen1, 800*8) // old in generation 1, young in 0
		Finished()
	}
	_, _, _, lost := Counts()
	if lost-lost0 != 1 {
		t.Errorf("%d lost, want 1 (the unreported generation-0 item)", lost-lost0)
	}
	if how, span := Take(old, false, 100*sec); how != Join || span != 7 {
		t.Errorf("the generation-1 item after three generation-0 collections: how %d span %d, want joined to 7", how, span)
	}
	if how, _ := Take(young, false, 100*sec); how != None {
		t.Errorf("the unreported generation-0 item is still found: how %d", how)
	}
}

// Items made while a collection runs (a background one) are not its to
// judge; an item taken meanwhile is not put back.
func TestMadeDuringCollection(t *testing.T) {
	reset()
	h := NewHeap(256)
	defer h.Free()
	before, taken, during := h.Obj(0, classTask), h.Obj(8, classTask), h.Obj(16, classTask)
	Made(before, Join, 1, 100*sec)
	Made(taken, Join, 2, 100*sec)
	Started(true)
	Made(during, Join, 3, 100*sec)
	if how, _ := Take(taken, false, 100*sec); how != Join {
		t.Fatalf("taken during the collection: how %d", how)
	}
	Moved(taken, h.Obj(24, classTask), 8)
	Finished()
	if how, span := Take(during, false, 100*sec); how != Join || span != 3 {
		t.Errorf("made during the collection: how %d span %d", how, span)
	}
	if how, _ := Take(h.Obj(24, classTask), false, 100*sec); how != None {
		t.Errorf("an item taken during the collection came back (how %d)", how)
	}
	if how, _ := Take(before, false, 100*sec); how != None {
		t.Errorf("an item the collection did not report is still there (how %d)", how)
	}
}

// A full table counts what it could not record; a collection that reports
// every item keeps them all, and the table works on after its rebuild.
func TestFullTableAndRebuild(t *testing.T) {
	reset()
	const n = 40000
	h := NewHeap(2 * n)
	defer h.Free()
	_, _, full0, _ := Counts()
	for i := 0; i < n; i++ {
		Made(h.Obj(2*i, classTask), Join, uint64(i+1), 100*sec)
	}
	_, _, full, _ := Counts()
	if full == full0 {
		t.Fatalf("%d items in a table of 32,768 slots: none counted as not recorded", n)
	}
	_, _, _, lost0 := Counts()
	Started(false)
	Moved(h.Obj(0, classTask), h.Obj(0, classTask), uintptr(2*n*8))
	Finished()
	// Rebuilding a table this full, an item may find no slot again: it is
	// counted as lost.
	_, _, _, lost := Counts()
	kept := 0
	for i := 0; i < n; i++ {
		if how, span := Take(h.Obj(2*i, classTask), false, 100*sec); how == Join {
			if span != uint64(i+1) {
				t.Fatalf("item %d: span %d", i, span)
			}
			kept++
		}
	}
	if uint64(kept)+(lost-lost0) != uint64(n)-(full-full0) {
		t.Errorf("%d kept and %d lost at the rebuild, want every recorded one: %d", kept, lost-lost0, uint64(n)-(full-full0))
	}
	if lost-lost0 > uint64(n)/100 {
		t.Errorf("%d lost at the rebuild of a table that held them", lost-lost0)
	}
	x := h.Obj(1, classTask)
	Made(x, Join, 5, 100*sec)
	if how, _ := Take(x, false, 100*sec); how != Join {
		t.Errorf("after the rebuild: how %d", how)
	}
}
