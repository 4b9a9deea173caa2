package hookstate

/*
// The headers of the C layer this package reads, for every file of it.
#cgo CFLAGS: -I${SRCDIR}/../profiler
#include "capture.h"
#include "profiler.h"
*/
import "C"

import (
	"os"
	"sync/atomic"
	"syscall"
	"unsafe"

	"github.com/clrotel/clrotel/capture"
	"github.com/clrotel/clrotel/draining"
	"github.com/clrotel/clrotel/translate"
)

// Slots are the hooks' slot table (slots.h), as draining reads it.
type Slots struct{}

var _ draining.Slots = Slots{}

func slotAt(i int) *C.clr_slot {
	base := unsafe.Pointer(C.clr_slots())
	return (*C.clr_slot)(unsafe.Add(base, uintptr(i)*unsafe.Sizeof(C.clr_slot{})))
}

func (Slots) Count() int    { return int(C.clr_slot_count()) }
func (Slots) Soft() uint64  { return uint64(C.clr_ring_soft()) }
func (Slots) Release(i int) { C.clr_slot_release(slotAt(i)) }

func (Slots) State(i int) draining.State {
	switch atomic.LoadUint32((*uint32)(unsafe.Pointer(&slotAt(i).state))) {
	case C.SLOT_FREE:
		return draining.Free
	case C.SLOT_DEAD:
		return draining.Dead
	}
	return draining.Live
}

func (Slots) Open(i int) (*draining.Thread, error) {
	s := slotAt(i)
	if s.data == nil {
		return nil, nil
	}
	size := int(C.clr_ring_size())
	data := unsafe.Slice((*byte)(unsafe.Pointer(s.data)), size)
	ring, err := capture.NewRing((*uint64)(unsafe.Pointer(&s.head)), (*uint64)(unsafe.Pointer(&s.tail)), data)
	if err != nil {
		return nil, err
	}
	if soft := uint64(C.clr_ring_soft()); soft < uint64(size) {
		ring.SpillAfter(soft, os.Getpagesize(), releasePages)
	}
	tid := int64(s.os_tid)
	return &draining.Thread{Ring: ring, TID: tid, Thread: translate.NewThread(tid, (*uint64)(unsafe.Pointer(&s.span_salt)))}, nil
}

// releasePages gives burst space the drainer has read back to the kernel
// (ring.h): a thread's ring is resident beyond its first part only while
// a burst needs it. Its pages read as zeros when next written.
func releasePages(b []byte) {
	_ = syscall.Madvise(b, syscall.MADV_DONTNEED)
}

// Dropped sums what the hooks could not record.
func Dropped() uint64 {
	total := uint64(C.clr_dropped_no_slot())
	n := int(C.clr_slot_count())
	for i := 0; i < n; i++ {
		total += atomic.LoadUint64((*uint64)(unsafe.Pointer(&slotAt(i).dropped)))
	}
	return total
}

// OpenFoldedCalls counts the folded calls still running in every slot's
// open frames (at exit, once the drain ended).
func OpenFoldedCalls() uint64 {
	return uint64(C.clr_open_folded_calls(C.clr_slots(), C.clr_slot_count(), C.clr_stack_cap()))
}
