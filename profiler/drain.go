package main

/*
#include "capture.h"
#include "profiler.h"
#include "shed.h"
*/
import "C"

import (
	"os"
	"runtime"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"github.com/clrotel/clrotel/capture"
	"github.com/clrotel/clrotel/draining"
	"github.com/clrotel/clrotel/otelbridge"
	"github.com/clrotel/clrotel/shedding"
	"github.com/clrotel/clrotel/summary"
	"github.com/clrotel/clrotel/translate"
)

// drainer moves records from the C rings into the bridge, on its own
// goroutine. It is the only consumer of every ring.
type drainer struct {
	p *profiler

	slots draining.Walker
	stop  chan struct{}
	done  chan struct{}

	records   atomic.Uint64
	drops     summary.Drops
	lastStats time.Time

	// tr turns each record into spans.
	tr translate.Translator

	// Load shedding: the drainer's own CPU and the traces it began, per
	// window, decide how many new traces per second the hooks may start
	// (shed.h).
	shed shedding.Meter
}

func newDrainer(p *profiler) *drainer {
	d := &drainer{p: p, stop: make(chan struct{}), done: make(chan struct{}), lastStats: time.Now(),
		shed: shedding.Meter{Controller: shedding.Controller{Budget: p.cfg.ExportCPU}}}
	d.drops.Start(time.Now())
	d.tr = translate.Translator{Bridge: p.bridge, Methods: methods{p}, Render: p.render, Log: p.log,
		KeepActivity: p.keepActivity, Threads: d.bridgeThreads, Shapes: p.shapes}
	d.slots = draining.Walker{Slots: cSlots{}, Sink: (*drainSink)(d),
		Behind: setBehind, Errorf: p.log.Errorf}
	return d
}

func (d *drainer) run() {
	defer close(d.done)
	// One OS thread, so that its CPU time is the span work's.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	d.shed.Start(time.Now(), time.Duration(C.clr_thread_cpu_ns()))
	var idle draining.Idle
	for {
		n := d.pass()
		d.releaseDue()
		d.shedTick()
		sleep := idle.After(n)
		d.p.bridge.SetDroppedCalls(dropped())
		d.reportDrops(false)
		if time.Since(d.lastStats) >= summary.TablesEvery {
			d.lastStats = time.Now()
			d.p.log.Infof("%v", d.stats())
		}
		if C.clr_abort_requested() != 0 {
			d.p.flushBeforeAbort()
			return
		}
		select {
		case <-d.stop:
			d.pass()
			return
		case <-time.After(sleep):
		}
	}
}

// Finish stops the loop after a last pass, waiting at most wait. It
// reports whether the loop ended in time (it may be blocked on a full
// export queue with the collector gone).
func (d *drainer) Finish(wait time.Duration) bool {
	close(d.stop)
	return d.Wait(wait)
}

// Wait waits at most wait for the loop to end, after Finish.
func (d *drainer) Wait(wait time.Duration) bool {
	select {
	case <-d.done:
		return true
	case <-time.After(wait):
		return false
	}
}

func slotAt(i int) *C.clr_slot {
	base := unsafe.Pointer(C.clr_slots())
	return (*C.clr_slot)(unsafe.Add(base, uintptr(i)*unsafe.Sizeof(C.clr_slot{})))
}

// pass drains every slot once and returns how many records it handled.
func (d *drainer) pass() int {
	total := d.slots.Pass()
	d.records.Add(uint64(total))
	return total
}

// drainSink hands the slots' records to the translator.
type drainSink drainer

func (k *drainSink) Record(t *draining.Thread, r capture.Record) { k.tr.Record(t.Thread, r) }
func (k *drainSink) End(t *draining.Thread)                      { k.p.bridge.Abandon(t.Spans, time.Now().UnixNano()) }

// setBehind tells the hooks whether the drainer is behind.
func setBehind(behind bool) {
	on := C.int(0)
	if behind {
		on = 1
	}
	C.clr_shed_backlog(on)
}

// shedTick hands a finished window to the shedding controller and
// publishes the limit it answers to the hooks.
func (d *drainer) shedTick() {
	now := time.Now()
	if !d.shed.Due(now) {
		return
	}
	was := d.shed.Limit()
	if l, changed := d.shed.Tick(now, time.Duration(C.clr_thread_cpu_ns()), d.tr.Roots()); changed {
		iv, tol := l.Params()
		C.clr_shed_set(C.int64_t(iv), C.int64_t(tol))
		if (l.Rate == 0) != (was.Rate == 0) {
			d.p.log.Debugf("load shedding: new traces %v", l)
		}
	}
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

// releaseDue exports, nested, the first calls of outermost frames that
// did not serve in time (otelbridge.Bridge.ReleaseDue).
func (d *drainer) releaseDue() {
	now := time.Now().UnixNano()
	d.slots.Each(func(_ int, t *draining.Thread) { d.p.bridge.ReleaseDue(t.Spans, now) })
}

// bridgeThreads lists the threads' span stacks, for a walk across them.
func (d *drainer) bridgeThreads() []*otelbridge.Thread {
	out := make([]*otelbridge.Thread, 0, d.slots.Len())
	d.slots.Each(func(_ int, t *draining.Thread) { out = append(out, t.Spans) })
	return out
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

// reportDrops logs, at most every summary.DropsEvery (or when forced), what
// was not traced in full since the last report.
func (d *drainer) reportDrops(force bool) {
	if d.drops.Due(time.Now(), force) {
		d.p.logLines(d.drops.Report(summary.DropCounts{Dropped: dropped(), ShedTraces: uint64(C.clr_shed_traces()),
			ShedCalls: uint64(C.clr_shed_calls()), Limit: d.shed.Limit(), ValuesDropped: d.tr.ValuesDropped()}))
	}
}

// abandonUnhandled ends every open span of every thread as failed by the
// exception in flight: the process is aborting.
func (d *drainer) abandonUnhandled() {
	now := time.Now().UnixNano()
	d.slots.Each(func(_ int, t *draining.Thread) { d.p.bridge.AbandonUnhandled(t.Spans, now) })
	d.p.bridge.AbandonAsync(now)
}

// abandonAll ends every open span: the process is shutting down.
func (d *drainer) abandonAll() {
	now := time.Now().UnixNano()
	n := int(C.clr_slot_count())
	d.slots.Each(func(i int, t *draining.Thread) {
		if i < n {
			if folds, ok := openFolds(slotAt(i), t.Spans.Depth()); ok {
				d.tr.AbandonAtExit(t.Spans, now, folds, rejitInstalled() > 0)
			}
		}
		d.p.bridge.Abandon(t.Spans, now)
	})
	// Async methods whose task never completed.
	d.p.bridge.AbandonAsync(now)
}

// openFolds reads what the hooks folded so far into a slot's open frames,
// outermost first; false unless there are exactly open of them.
func openFolds(s *C.clr_slot, open int) ([]translate.OpenFold, bool) {
	if open == 0 {
		return nil, false
	}
	calls := make([]C.uint32_t, open)
	ns := make([]C.uint64_t, open)
	if got := int(C.clr_slot_open_folds(s, C.clr_stack_cap(), &calls[0], &ns[0], C.uint32_t(open))); got != open {
		return nil, false
	}
	out := make([]translate.OpenFold, open)
	for k := range out {
		out[k] = translate.OpenFold{Calls: uint32(calls[k]), Ns: uint64(ns[k])}
	}
	return out, true
}
