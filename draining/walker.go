package draining

import (
	"github.com/clrotel/clrotel/capture"
	"github.com/clrotel/clrotel/shedding"
	"github.com/clrotel/clrotel/translate"
)

// State is a slot's state (profiler/slots.h SLOT_*).
type State int

const (
	Free State = iota // no thread
	Live              // a thread writes to it
	Dead              // its thread ended; records may remain
)

// Slots are the hooks' thread slots, read by the walker alone.
type Slots interface {
	// Count is how many slots were ever in use at once.
	Count() int
	State(i int) State
	// Open gives the thread that owns slot i now its ring and translation
	// state: nil and no error while the slot has no ring yet.
	Open(i int) (*Thread, error)
	// Release frees slot i, whose ended thread's records are all read.
	Release(i int)
	// Soft is a ring's resident size, which the backlog is measured
	// against.
	Soft() uint64
}

// Sink takes what the walker reads.
type Sink interface {
	Record(t *Thread, r capture.Record)
	// End closes what thread t left open: its ring was found corrupt
	// (what it held is lost) or the thread ended.
	End(t *Thread)
}

// Thread is one thread's ring and its translation state.
type Thread struct {
	Ring *capture.Ring
	TID  int64
	*translate.Thread
}

// Walker drains the slots. The zero value with Slots and Sink set is
// ready.
type Walker struct {
	Slots Slots
	Sink  Sink
	// Behind is told when the span work falls behind or catches up.
	Behind func(bool)
	// Errorf logs a ring found corrupt or a slot that cannot be opened.
	Errorf func(format string, args ...any)

	backlog shedding.Backlog
	behind  bool
	threads []*Thread // by slot
	fullest float64   // the last pass's fullest ring, a share of Soft
}

// Pass drains every slot once and returns how many records it handed on.
// The fullest ring decides whether the work is behind: as soon as one is
// found too full, and at the end of the pass.
func (w *Walker) Pass() int {
	n := w.Slots.Count()
	total := 0
	var fullest uint64
	size := float64(w.Slots.Soft())
	defer func() {
		w.fullest = float64(fullest) / size
		w.setBehind(w.backlog.Observe(w.fullest))
	}()
	for i := 0; i < n; i++ {
		state := w.Slots.State(i)
		if state == Free {
			continue
		}
		t := w.thread(i)
		if t == nil {
			continue
		}
		got, err := t.Ring.Drain(func(r capture.Record) { w.Sink.Record(t, r) })
		if p := t.Ring.LastRead(); p > fullest {
			fullest = p
			if !w.behind {
				w.setBehind(w.backlog.Observe(float64(p) / size))
			}
		}
		total += got
		if err != nil {
			w.errorf("thread %d: %v; its open spans are closed", t.TID, err)
			w.Sink.End(t)
		}
		if state == Dead && t.Ring.Pending() == 0 {
			w.Sink.End(t)
			w.threads[i] = nil
			w.Slots.Release(i)
		}
	}
	return total
}

// Fullest is how full the fullest ring was when the last pass read it, a
// share of its resident size (Slots.Soft).
func (w *Walker) Fullest() float64 { return w.fullest }

// thread is slot i's thread, opened at its first pass.
func (w *Walker) thread(i int) *Thread {
	for len(w.threads) <= i {
		w.threads = append(w.threads, nil)
	}
	if t := w.threads[i]; t != nil {
		return t
	}
	t, err := w.Slots.Open(i)
	if err != nil {
		w.errorf("slot %d: %v", i, err)
		return nil
	}
	w.threads[i] = t
	return t
}

func (w *Walker) setBehind(behind bool) {
	if behind == w.behind {
		return
	}
	w.behind = behind
	if w.Behind != nil {
		w.Behind(behind)
	}
}

func (w *Walker) errorf(format string, args ...any) {
	if w.Errorf != nil {
		w.Errorf(format, args...)
	}
}

// Each calls fn for each thread the walker holds, by slot.
func (w *Walker) Each(fn func(slot int, t *Thread)) {
	for i, t := range w.threads {
		if t != nil {
			fn(i, t)
		}
	}
}

// Len is how many threads the walker holds.
func (w *Walker) Len() int {
	n := 0
	w.Each(func(int, *Thread) { n++ })
	return n
}
