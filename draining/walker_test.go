package draining

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/clrotel/clrotel/capture"
	"github.com/clrotel/clrotel/translate"
)

// fakeSlot is one slot of fakeSlots: a ring in Go memory written as the
// hooks write it.
type fakeSlot struct {
	state      State
	head, tail uint64
	data       []byte
	noRing     bool // the thread has no ring yet
	openErr    error
	opened     int
	released   int
	tid        int64
}

type fakeSlots struct{ s []*fakeSlot }

func (f *fakeSlots) Count() int        { return len(f.s) }
func (f *fakeSlots) Soft() uint64      { return 1024 }
func (f *fakeSlots) State(i int) State { return f.s[i].state }
func (f *fakeSlots) Release(i int)     { f.s[i].released++; f.s[i].state = Free }
func (f *fakeSlots) Open(i int) (*Thread, error) {
	s := f.s[i]
	if s.noRing {
		return nil, nil
	}
	if s.openErr != nil {
		return nil, s.openErr
	}
	s.opened++
	r, err := capture.NewRing(&s.head, &s.tail, s.data)
	if err != nil {
		return nil, err
	}
	return &Thread{Ring: r, TID: s.tid, Thread: translate.NewThread(s.tid, nil)}, nil
}

// put writes an enter record whose time is ts, with payload bytes after
// its header.
func (s *fakeSlot) put(ts int64, payload int) {
	size := uint64(capture.HeaderSize + payload)
	off := s.head & uint64(len(s.data)-1)
	if uint64(len(s.data))-off < size { // a pad to the end
		binary.LittleEndian.PutUint32(s.data[off:], uint32(uint64(len(s.data))-off))
		binary.LittleEndian.PutUint16(s.data[off+4:], uint16(capture.KindPad))
		s.head += uint64(len(s.data)) - off
		off = 0
	}
	binary.LittleEndian.PutUint32(s.data[off:], uint32(size))
	binary.LittleEndian.PutUint16(s.data[off+4:], uint16(capture.KindEnter))
	binary.LittleEndian.PutUint64(s.data[off+8:], uint64(ts))
	s.head += size
}

func newSlot(state State, tid int64) *fakeSlot {
	return &fakeSlot{state: state, data: make([]byte, 1024), tid: tid}
}

type sink struct {
	got   []string
	ended []int64
}

func (k *sink) Record(t *Thread, r capture.Record) {
	k.got = append(k.got, fmt.Sprintf("%d:%d", t.TID, r.Time))
}
func (k *sink) End(t *Thread) { k.ended = append(k.ended, t.TID) }

func newWalker(slots *fakeSlots, k *sink, behind *[]bool, errs *[]string) *Walker {
	return &Walker{Slots: slots, Sink: k,
		Behind: func(b bool) { *behind = append(*behind, b) },
		Errorf: func(f string, a ...any) { *errs = append(*errs, fmt.Sprintf(f, a...)) }}
}

// Each live slot's records in order, free slots skipped, each thread
// opened once; a slot without its ring yet is asked again next pass.
func TestPassReadsLiveSlots(t *testing.T) {
	a, free, b, later := newSlot(Live, 1), newSlot(Free, 2), newSlot(Live, 3), newSlot(Live, 4)
	later.noRing = true
	slots := &fakeSlots{[]*fakeSlot{a, free, b, later}}
	a.put(10, 0)
	a.put(11, 8)
	free.put(99, 0)
	b.put(20, 0)
	later.put(40, 0)
	k := &sink{}
	var behind []bool
	var errs []string
	w := newWalker(slots, k, &behind, &errs)
	if n := w.Pass(); n != 3 {
		t.Errorf("first pass: %d records, want 3", n)
	}
	a.put(12, 0)
	later.noRing = false
	if n := w.Pass(); n != 2 {
		t.Errorf("second pass: %d records, want 2", n)
	}
	if want := []string{"1:10", "1:11", "3:20", "1:12", "4:40"}; !slices.Equal(k.got, want) {
		t.Errorf("records %v, want %v", k.got, want)
	}
	if a.opened != 1 || b.opened != 1 || free.opened != 0 || later.opened != 1 {
		t.Errorf("opened %d %d %d %d, want 1 1 0 1", a.opened, b.opened, free.opened, later.opened)
	}
	if w.Len() != 3 || len(k.ended) != 0 || len(errs) != 0 || len(behind) != 0 {
		t.Errorf("threads %d, ended %v, errors %v, behind %v", w.Len(), k.ended, errs, behind)
	}
}

// A dead thread's slot is released, and its open spans ended, once its
// last record is read; a new thread in the slot is opened afresh.
func TestDeadSlotReleasedWhenRead(t *testing.T) {
	s := newSlot(Live, 7)
	slots := &fakeSlots{[]*fakeSlot{s}}
	k := &sink{}
	var behind []bool
	var errs []string
	w := newWalker(slots, k, &behind, &errs)
	s.put(1, 0)
	w.Pass()
	s.put(2, 0)
	s.state = Dead
	w.Pass()
	if s.released != 1 || !slices.Equal(k.ended, []int64{7}) || w.Len() != 0 {
		t.Fatalf("released %d, ended %v, threads %d", s.released, k.ended, w.Len())
	}
	if want := []string{"7:1", "7:2"}; !slices.Equal(k.got, want) {
		t.Errorf("records %v, want %v", k.got, want)
	}
	s.state, s.tid = Live, 8
	s.put(3, 0)
	w.Pass()
	if s.opened != 2 || k.got[len(k.got)-1] != "8:3" {
		t.Errorf("new owner: opened %d, records %v", s.opened, k.got)
	}
}

// A corrupt ring ends its thread's open spans and is logged; the thread
// goes on with its next records. A slot that cannot be opened is logged
// and skipped.
func TestCorruptRingAndUnopenedSlot(t *testing.T) {
	s, bad := newSlot(Live, 5), newSlot(Live, 6)
	bad.openErr = errors.New("no ring")
	slots := &fakeSlots{[]*fakeSlot{s, bad}}
	k := &sink{}
	var behind []bool
	var errs []string
	w := newWalker(slots, k, &behind, &errs)
	s.put(1, 0)
	binary.LittleEndian.PutUint32(s.data[s.head:], 12) // a size no record has
	s.head += 16
	w.Pass()
	if !slices.Equal(k.ended, []int64{5}) || len(errs) != 2 {
		t.Fatalf("ended %v, errors %q", k.ended, errs)
	}
	if want := "slot 1: no ring"; errs[1] != want {
		t.Errorf("error %q, want %q", errs[1], want)
	}
	s.put(2, 0)
	w.Pass()
	if want := []string{"5:1", "5:2"}; !slices.Equal(k.got, want) {
		t.Errorf("records %v, want %v", k.got, want)
	}
}

// Behind when a ring is found over half full, told once; caught up when
// every ring is under an eighth.
func TestBacklog(t *testing.T) {
	a, b := newSlot(Live, 1), newSlot(Live, 2)
	slots := &fakeSlots{[]*fakeSlot{a, b}}
	k := &sink{}
	var behind []bool
	var errs []string
	w := newWalker(slots, k, &behind, &errs)
	for _, c := range []struct {
		a, b int // bytes of records written to each before the pass
		want []bool
	}{
		{64, 64, nil},
		{320, 64, nil},          // a quarter: late, not behind
		{64, 544, []bool{true}}, // b over half
		{300, 64, []bool{true}}, // between an eighth and half: still behind
		{64, 64, []bool{true, false}},
		{544, 0, []bool{true, false, true}},
	} {
		for n := 0; n < c.a; n += 32 {
			a.put(1, 16)
		}
		for n := 0; n < c.b; n += 32 {
			b.put(2, 16)
		}
		w.Pass()
		if !slices.Equal(behind, c.want) {
			t.Errorf("after %d and %d bytes: behind told %v, want %v", c.a, c.b, behind, c.want)
		}
		// The fullest ring of the pass, as a share of Soft (1024): what
		// the drainer's sleep follows.
		written := func(n int) int { return (n + 31) / 32 * 32 } // records of 32 bytes
		if want := float64(max(written(c.a), written(c.b))) / 1024; w.Fullest() != want {
			t.Errorf("after %d and %d bytes: fullest %v, want %v", c.a, c.b, w.Fullest(), want)
		}
	}
}
