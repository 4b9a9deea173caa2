package main

/*
#include "capture.h"
#include "profiler.h"
#include "shed.h"
*/
import "C"

import (
	"os"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"github.com/clrotel/clrotel/capture"
	"github.com/clrotel/clrotel/draining"
	"github.com/clrotel/clrotel/shedding"
	"github.com/clrotel/clrotel/translate"
)

// newDrainer wires package draining's Drainer to the hooks' slot table and
// counters, the translator and the bridge.
func newDrainer(p *profiler) *draining.Drainer {
	d := &draining.Drainer{Hooks: cHooks{}, Spans: p.bridge, Infof: p.log.Infof, Debugf: p.log.Debugf, Warnf: p.log.Warnf,
		Report: p.logLines, Flush: p.pipe.ForceFlush, Flushed: func() { C.clr_abort_flushed() }}
	d.Walker = draining.Walker{Slots: cSlots{}, Behind: setBehind, Errorf: p.log.Errorf}
	p.tr = &translate.Translator{Bridge: p.bridge, Methods: methods{p}, Render: p.render, Log: p.log,
		KeepActivity: p.keepActivity, Threads: d.Threads, Shapes: p.shapes}
	d.Translator = p.tr
	d.Tables = p.tables
	d.Init(p.cfg.ExportCPU, time.Now())
	return d
}

func slotAt(i int) *C.clr_slot {
	base := unsafe.Pointer(C.clr_slots())
	return (*C.clr_slot)(unsafe.Add(base, uintptr(i)*unsafe.Sizeof(C.clr_slot{})))
}

// setBehind tells the hooks whether the drainer is behind.
func setBehind(behind bool) {
	on := C.int(0)
	if behind {
		on = 1
	}
	C.clr_shed_backlog(on)
}

// cHooks are the hooks' counters and controls, as the drainer reads them.
type cHooks struct{}

func (cHooks) ThreadCPU() time.Duration { return time.Duration(C.clr_thread_cpu_ns()) }
func (cHooks) Aborting() bool           { return C.clr_abort_requested() != 0 }
func (cHooks) ReJITInstalled() bool     { return rejitInstalled() > 0 }
func (cHooks) Dropped() uint64          { return dropped() }

func (cHooks) Shed() (traces, calls uint64) {
	return uint64(C.clr_shed_traces()), uint64(C.clr_shed_calls())
}

func (cHooks) SetShedding(l shedding.Limit) {
	iv, tol := l.Params()
	C.clr_shed_set(C.int64_t(iv), C.int64_t(tol))
}

// OpenFolds reads what the hooks folded so far into a slot's open frames.
func (cHooks) OpenFolds(slot, open int) ([]translate.OpenFold, bool) {
	if open == 0 {
		return nil, false
	}
	calls := make([]C.uint32_t, open)
	ns := make([]C.uint64_t, open)
	if got := int(C.clr_slot_open_folds(slotAt(slot), C.clr_stack_cap(), &calls[0], &ns[0], C.uint32_t(open))); got != open {
		return nil, false
	}
	out := make([]translate.OpenFold, open)
	for k := range out {
		out[k] = translate.OpenFold{Calls: uint32(calls[k]), Ns: uint64(ns[k])}
	}
	return out, true
}

// cSlots are the hooks' slot table (slots.h), as draining reads it.
type cSlots struct{}

func (cSlots) Count() int    { return int(C.clr_slot_count()) }
func (cSlots) Soft() uint64  { return uint64(C.clr_ring_soft()) }
func (cSlots) Release(i int) { C.clr_slot_release(slotAt(i)) }

func (cSlots) State(i int) draining.State {
	switch atomic.LoadUint32((*uint32)(unsafe.Pointer(&slotAt(i).state))) {
	case C.SLOT_FREE:
		return draining.Free
	case C.SLOT_DEAD:
		return draining.Dead
	}
	return draining.Live
}

func (cSlots) Open(i int) (*draining.Thread, error) {
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

// dropped sums what the hooks could not record.
func dropped() uint64 {
	total := uint64(C.clr_dropped_no_slot())
	n := int(C.clr_slot_count())
	for i := 0; i < n; i++ {
		total += atomic.LoadUint64((*uint64)(unsafe.Pointer(&slotAt(i).dropped)))
	}
	return total
}
