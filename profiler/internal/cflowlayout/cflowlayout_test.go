package cflowlayout

import (
	"reflect"
	"sync"
	"testing"
)

// A state machine's six added fields (async.h ASYNC_LOOP_FIELDS).
var toks = []uint32{0x04000101, 0x04000102, 0x04000103, 0x04000104, 0x04000105, 0x04000106}

// Two instantiations of one shared state machine: over a class (the added
// fields after its reference) and over a struct holding a reference (the
// struct after them), as the runtime lays them out.
const (
	overClass  = 0x7000
	overStruct = 0x7100
)

func setUp(t *testing.T) Layout { return setUpLayout(t, false) }

// setUpLayout is setUp for the steps of a struct, or of a sealed class
// (objectThis).
func setUpLayout(t *testing.T, objectThis bool) Layout {
	t.Helper()
	Init()
	SetClass(0, overClass, append([]uint32{0x04000001}, toks...), []uint32{8, 16, 24, 32, 40, 48, 56})
	SetClass(1, overStruct, append(toks, 0x04000001), []uint32{8, 16, 24, 32, 40, 48, 56})
	l, ok := New(toks, objectThis)
	if !ok {
		t.Fatal("no layout")
	}
	t.Cleanup(l.Free)
	return l
}

// Each class has its own offsets, asked of the runtime once.
func TestOffsetsPerExactClass(t *testing.T) {
	l := setUp(t)
	for round := 0; round < 3; round++ {
		for _, c := range []struct {
			cls  uint64
			want []uint16
		}{{overClass, []uint16{16, 24, 32, 40, 48, 56}}, {overStruct, []uint16{8, 16, 24, 32, 40, 48}}} {
			got, ok := l.Offsets(c.cls)
			if !ok || !reflect.DeepEqual(got, c.want) {
				t.Fatalf("round %d, class %#x: %v %v, want %v", round, c.cls, got, ok, c.want)
			}
		}
	}
	if n := LayoutCalls(); n != 2 {
		t.Errorf("the runtime's layout asked %d times for 2 classes over 3 rounds, want 2", n)
	}
}

// A class whose layout lacks a field, or refused, or with a field past
// what the hooks' offsets hold, gives nothing (counted), never a guess.
func TestOffsetsRefused(t *testing.T) {
	l := setUp(t)
	SetClass(2, 0x7200, toks[:5], []uint32{8, 16, 24, 32, 40})
	SetClass(3, 0x7300, toks, []uint32{8, 16, 24, 32, 40, 1 << 16})
	before := Missing()
	for _, cls := range []uint64{0x7200, 0x7300, 0x7400, 0, 1} {
		if got, ok := l.Offsets(cls); ok {
			t.Errorf("class %#x: offsets %v", cls, got)
		}
	}
	if n := Missing() - before; n != 3 {
		t.Errorf("%d classes counted as missing the fields, want 3", n)
	}
	if _, ok := l.Offsets(overClass); !ok {
		t.Error("a good class after refused ones: no offsets")
	}
}

func TestNewBounds(t *testing.T) {
	for _, n := range []int{0, Fields + 1} {
		if l, ok := New(make([]uint32, n), false); ok {
			l.Free()
			t.Errorf("a layout of %d fields", n)
		}
	}
}

// Past the classes a layout remembers, each is still right, asked of the
// runtime at each call, and counted.
func TestMoreClassesThanRemembered(t *testing.T) {
	l := setUp(t)
	n := Classes + 8
	for i := 0; i < n; i++ {
		SetClass(2+i, uint64(0x10000+i*0x100), toks, []uint32{uint32(8 * (i + 1)), 0x200, 0x208, 0x210, 0x218, 0x220})
	}
	before := Uncached()
	for round := 0; round < 2; round++ {
		for i := 0; i < n; i++ {
			got, ok := l.Offsets(uint64(0x10000 + i*0x100))
			if !ok || got[0] != uint16(8*(i+1)) || got[5] != 0x220 {
				t.Fatalf("class %d: %v %v", i, got, ok)
			}
		}
	}
	if calls, want := LayoutCalls(), uint64(Classes+2*8); calls != want {
		t.Errorf("layout asked %d times, want %d (%d remembered, 8 asked each round)", calls, want, Classes)
	}
	if u := Uncached() - before; u != 16 {
		t.Errorf("%d calls not remembered, want 16", u)
	}
}

// Threads meeting classes at once each get the right offsets.
func TestConcurrentClasses(t *testing.T) {
	l := setUp(t)
	for i := 0; i < 12; i++ {
		SetClass(2+i, uint64(0x20000+i*0x100), toks, []uint32{uint32(8 + 8*i), 0x300, 0x308, 0x310, 0x318, 0x320})
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for k := 0; k < 2000; k++ {
				i := (k + g) % 12
				got, ok := l.Offsets(uint64(0x20000 + i*0x100))
				if !ok || got[0] != uint16(8+8*i) || got[5] != 0x320 {
					errs <- "wrong offsets"
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

// On entering a step: `this` and the offsets of the frame's exact class.
func TestThisOfExactFrame(t *testing.T) {
	l := setUp(t)
	self, off, ok := l.This(overStruct, 0xabc000, 1)
	if !ok || self != 0xabc000 || off[0] != 8 {
		t.Errorf("struct frame: this %#x, offsets %v, %v", self, off, ok)
	}
	self, off, ok = l.This(overClass, 0xdef000, 1)
	if !ok || self != 0xdef000 || off[0] != 16 {
		t.Errorf("class frame: this %#x, offsets %v, %v", self, off, ok)
	}
	for _, c := range []struct {
		name      string
		cls, self uint64
		ranges    int
	}{{"no exact class", 0, 0xabc000, 1}, {"no this", overClass, 0, 1}, {"no arguments", overClass, 0xabc000, 0}, {"a class without the fields", 0x9999, 0xabc000, 1}} {
		if self, off, ok := l.This(c.cls, c.self, c.ranges); ok {
			t.Errorf("%s: this %#x, offsets %v", c.name, self, off)
		}
	}
}

// A sealed class's step: its exact class is its `this` object's, asked of
// the object, never of the frame; a struct's is the frame's.
func TestThisOfSealedClassFromItsObject(t *testing.T) {
	l := setUpLayout(t, true)
	SetObject(0xdef000, overClass)
	self, off, ok := l.This(overStruct, 0xdef000, 1) // the frame would say overStruct
	if !ok || self != 0xdef000 || off[0] != 16 {
		t.Errorf("sealed class: this %#x, offsets %v, %v; want the object's class's offsets", self, off, ok)
	}
	if n := FrameCalls(); n != 0 {
		t.Errorf("the frame's class was asked %d times", n)
	}
	for _, c := range []struct {
		name string
		self uint64
		cls  uint64
	}{{"no this", 0, overClass}, {"an object the runtime has no class for", 0xabc000, overClass}, {"a class without the fields", 0xdef000, 0x9999}} {
		SetObject(0xdef000, c.cls)
		if self, off, ok := l.This(overClass, c.self, 1); ok {
			t.Errorf("%s: this %#x, offsets %v", c.name, self, off)
		}
	}

	s := setUpLayout(t, false)
	SetObject(0xdef000, overClass)
	if _, off, ok := s.This(overStruct, 0xdef000, 1); !ok || off[0] != 8 || FrameCalls() != 1 {
		t.Errorf("struct: offsets %v, %v after %d frame questions; want the frame's class's, asked once", off, ok, FrameCalls())
	}
}
