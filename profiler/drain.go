package main

/*
#include "capture.h"
#include "profiler.h"
#include "shed.h"
*/
import "C"

import (
	"encoding/binary"
	"runtime"
	"strings"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/clrotel/clrotel/capture"
	"github.com/clrotel/clrotel/flows"
	"github.com/clrotel/clrotel/folding"
	"github.com/clrotel/clrotel/otelbridge"
	"github.com/clrotel/clrotel/shedding"
	"github.com/clrotel/clrotel/values"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

// drainer moves records from the C rings into the bridge, on its own
// goroutine. It is the only consumer of every ring.
type drainer struct {
	p *profiler

	threads []*threadState // by slot index
	stop    chan struct{}
	done    chan struct{}

	records   atomic.Uint64
	lastDrop  uint64
	lastLog   time.Time
	lastStats time.Time

	// valuesDropped counts records whose values the ring had no room for
	// (the calls are traced, marked dotnet.values.dropped).
	valuesDropped, lastValuesDropped uint64

	// Scratch for one record's values and attributes: the bridge encodes
	// attributes when it is handed them, so both are reused.
	vals  []values.Value
	dec   values.Decoder // reused: its values live until the next record's
	attrs []attribute.KeyValue

	// Load shedding: the drainer's own CPU and the traces it began, per
	// window, decide how many new traces per second the hooks may start
	// (shed.h).
	shed                shedding.Controller
	winStart            time.Time
	winCPU              int64
	roots               uint64
	limit               shedding.Limit
	lastShed, lastCalls uint64
	backlog             shedding.Backlog
	behind              bool
}

type threadState struct {
	ring *capture.Ring
	th   *otelbridge.Thread
	// salt is the slot's span_salt: a span's id when its record carries
	// none (capture.SpanID).
	salt *uint64
	// argBytes[i] is what the arguments of the open span at depth i+1 took
	// of the span's attribute byte limit; its return value gets the rest.
	argBytes []int32
}

// statsEvery is how often the table sizes are logged (info level).
const statsEvery = 10 * time.Second

func newDrainer(p *profiler) *drainer {
	return &drainer{p: p, stop: make(chan struct{}), done: make(chan struct{}), lastLog: time.Now(), lastStats: time.Now(),
		shed: shedding.Controller{Budget: p.cfg.ExportCPU}}
}

// shedWindow is how often the drainer tells the shedding controller what
// its span work cost.
const shedWindow = 100 * time.Millisecond

func (d *drainer) run() {
	defer close(d.done)
	// One OS thread, so that its CPU time is the span work's.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	d.winStart, d.winCPU = time.Now(), int64(C.clr_thread_cpu_ns())
	idle := time.Millisecond
	for {
		n := d.pass()
		d.shedTick()
		if n > 0 {
			idle = time.Millisecond
		} else if idle < 8*time.Millisecond {
			idle *= 2
		}
		d.p.bridge.SetDroppedCalls(dropped())
		d.reportDrops(false)
		if time.Since(d.lastStats) >= statsEvery {
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
		case <-time.After(idle):
		}
	}
}

// finish stops the loop after a last pass, waiting at most wait. It
// reports whether the loop ended in time (it may be blocked on a full
// export queue with the collector gone).
func (d *drainer) finish(wait time.Duration) bool {
	close(d.stop)
	return d.wait(wait)
}

// wait waits at most wait for the loop to end, after finish.
func (d *drainer) wait(wait time.Duration) bool {
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
	n := int(C.clr_slot_count())
	total := 0
	// The fullest ring decides whether new traces are shed for backlog: as
	// soon as one is found too full, and at the end of the pass.
	var fullest uint64
	size := float64(C.clr_ring_size())
	defer func() { d.setBehind(d.backlog.Observe(float64(fullest) / size)) }()
	for i := 0; i < n; i++ {
		s := slotAt(i)
		state := atomic.LoadUint32((*uint32)(unsafe.Pointer(&s.state)))
		if state == C.SLOT_FREE {
			continue
		}
		ts := d.thread(i, s)
		if ts == nil {
			continue
		}
		if p := ts.ring.Pending(); p > fullest {
			fullest = p
			if !d.behind {
				d.setBehind(d.backlog.Observe(float64(p) / size))
			}
		}
		got, err := ts.ring.Drain(func(r capture.Record) { d.handle(ts, r) })
		total += got
		if err != nil {
			d.p.log.Errorf("thread %d: %v; its open spans are closed", s.os_tid, err)
			d.p.bridge.Abandon(ts.th, time.Now().UnixNano())
		}
		if state == C.SLOT_DEAD && ts.ring.Pending() == 0 {
			// The thread ended: close what it left open and free the slot.
			d.p.bridge.Abandon(ts.th, time.Now().UnixNano())
			d.threads[i] = nil
			C.clr_slot_release(s)
		}
	}
	d.records.Add(uint64(total))
	return total
}

// setBehind tells the hooks whether the drainer is behind.
func (d *drainer) setBehind(behind bool) {
	if behind == d.behind {
		return
	}
	d.behind = behind
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
	el := now.Sub(d.winStart)
	if el < shedWindow {
		return
	}
	cpu := int64(C.clr_thread_cpu_ns())
	l := d.shed.Observe(shedding.Window{Elapsed: el, CPU: time.Duration(cpu - d.winCPU), Traces: d.roots})
	d.winStart, d.winCPU, d.roots = now, cpu, 0
	if l != d.limit {
		iv, tol := l.Params()
		C.clr_shed_set(C.int64_t(iv), C.int64_t(tol))
		if (l.Rate == 0) != (d.limit.Rate == 0) {
			d.p.log.Debugf("load shedding: new traces %v", l)
		}
		d.limit = l
	}
}

func (d *drainer) thread(i int, s *C.clr_slot) *threadState {
	for len(d.threads) <= i {
		d.threads = append(d.threads, nil)
	}
	if ts := d.threads[i]; ts != nil {
		return ts
	}
	if s.data == nil {
		return nil
	}
	size := int(C.clr_ring_size())
	data := unsafe.Slice((*byte)(unsafe.Pointer(s.data)), size)
	ring, err := capture.NewRing((*uint64)(unsafe.Pointer(&s.head)), (*uint64)(unsafe.Pointer(&s.tail)), data)
	if err != nil {
		d.p.log.Errorf("slot %d: %v", i, err)
		return nil
	}
	ts := &threadState{ring: ring, th: otelbridge.NewThread(int64(s.os_tid)), salt: (*uint64)(unsafe.Pointer(&s.span_salt))}
	d.threads[i] = ts
	return ts
}

func (d *drainer) handle(ts *threadState, r capture.Record) {
	b := d.p.bridge
	switch r.Kind {
	case capture.KindEnter:
		e, err := capture.DecodeEnter(r)
		if err != nil {
			d.p.log.Debugf("%v", err)
			return
		}
		f := d.p.funcs.at(e.Func)
		if f == nil {
			d.p.log.Debugf("enter record for unknown function %d", e.Func)
			return
		}
		if r.Flags&capture.FlagResume != 0 {
			d.resume(ts, r, e, f)
			return
		}
		m := f.method
		if r.Flags&capture.FlagGeneric != 0 {
			m = d.p.instantiation(f, e.Class, e.TypeArgs)
		}
		var tid trace.TraceID
		if r.Flags&capture.FlagRoot != 0 {
			tid = trace.TraceID(e.TraceID)
			d.roots++
		}
		var attrs []attribute.KeyValue
		used := 0
		if e.Values != nil && f.plan != nil {
			attrs, used = d.values(f.plan.enter, e.Values, d.p.render.Limits.MaxAttrBytes)
		}
		attrs = d.markDropped(r, attrs)
		switch {
		case r.Flags&capture.FlagSpanID != 0 && f.c.flags&C.FN_ASYNC_KICKOFF != 0:
			b.EnterAsync(ts.th, r.Time, m, tid, trace.SpanID(e.SpanID), attrs...)
		case r.Flags&capture.FlagSpanID != 0:
			b.EnterWithID(ts.th, r.Time, m, tid, trace.SpanID(e.SpanID), attrs...)
		default:
			// The slot's salt is read now: a slot changes hands (and salt)
			// only once its last owner's records are drained.
			b.EnterWithID(ts.th, r.Time, m, tid, trace.SpanID(capture.SpanID(atomic.LoadUint64(ts.salt), r.Pos)), attrs...)
		}
		if r.Flags&capture.FlagParent != 0 {
			b.JoinParent(ts.th, trace.SpanID(e.Parent))
		}
		if r.Flags&capture.FlagLink != 0 {
			b.LinkRoot(ts.th, trace.TraceID(e.LinkTrace), trace.SpanID(e.LinkSpan))
		}
		ts.pushArgBytes(used)
	case capture.KindLeave:
		var attrs []attribute.KeyValue
		x, err := capture.DecodeExit(r)
		if err != nil {
			d.p.log.Debugf("%v", err)
		}
		if r.Flags&capture.FlagValues != 0 && err == nil {
			if f := d.p.funcs.at(x.Func); f != nil && f.plan != nil {
				budget := d.p.render.Limits.MaxAttrBytes
				if depth := ts.th.Depth(); depth > 0 && depth <= len(ts.argBytes) {
					budget -= int(ts.argBytes[depth-1])
				}
				attrs, _ = d.values(f.plan.ret, x.Values, budget)
			}
		}
		attrs = d.markDropped(r, attrs)
		attrs = d.folded(r, x, attrs)
		if r.Flags&capture.FlagSyncEnd != 0 {
			b.EndsWithCall(ts.th)
		}
		b.Exit(ts.th, r.Time, otelbridge.ExitReturn, attrs...)
	case capture.KindException:
		x, err := capture.DecodeExit(r)
		if err != nil {
			return
		}
		b.Throw(ts.th, r.Time, d.exception(x.Values))
	case capture.KindCatch:
		b.Catch(ts.th, r.Time)
	case capture.KindServing:
		b.Serving(r.Time, ts.th, d.bridgeThreads())
	case capture.KindActivity:
		d.activity(ts, r)
	case capture.KindTailcall, capture.KindUnwind, capture.KindNoLeave:
		x, err := capture.DecodeExit(r)
		if err != nil {
			d.p.log.Debugf("%v", err)
		}
		attrs := d.folded(r, x, nil)
		switch r.Kind {
		case capture.KindTailcall:
			b.Exit(ts.th, r.Time, otelbridge.ExitTailcall, attrs...)
		case capture.KindNoLeave:
			b.Exit(ts.th, r.Time, otelbridge.ExitNoLeave, attrs...)
		default:
			b.Exit(ts.th, r.Time, otelbridge.ExitUnwind, attrs...)
		}
	}
}

// bridgeThreads lists the threads' span stacks, for a walk across them.
func (d *drainer) bridgeThreads() []*otelbridge.Thread {
	out := make([]*otelbridge.Thread, 0, len(d.threads))
	for _, ts := range d.threads {
		if ts != nil {
			out = append(out, ts.th)
		}
	}
	return out
}

// pushArgBytes records the value bytes of the frame the bridge just
// opened, which its return value's budget is reduced by.
func (ts *threadState) pushArgBytes(used int) {
	depth := ts.th.Depth()
	outer := ts.argBytes[:min(len(ts.argBytes), depth-1)]
	for len(outer) < depth-1 { // out of step: the bridge has more frames
		outer = append(outer, 0)
	}
	ts.argBytes = append(outer, int32(used))
}

// resume handles a continuation of an async span: a MoveNext after an
// await (or its first step), or the builder call that completes the task,
// which ends the span with the task's outcome.
func (d *drainer) resume(ts *threadState, r capture.Record, e capture.Enter, f *function) {
	b := d.p.bridge
	sid := trace.SpanID(e.SpanID)
	if r.Flags&capture.FlagAsyncEnd != 0 {
		var args []attribute.KeyValue
		if e.Values != nil && f.plan != nil {
			args, _ = d.values(f.plan.enter, e.Values, d.p.render.Limits.MaxAttrBytes)
		}
		setException := f.method != nil && strings.Contains(f.method.SpanName, ".SetException(")
		b.AsyncEnd(ts.th, r.Time, sid, flows.AsyncOutcome(setException, args))
	}
	b.Resume(ts.th, r.Time, f.method, trace.TraceID(e.TraceID), sid)
	ts.pushArgBytes(0)
}

// folded adds to an exit's attributes what was folded into its span and
// whether its trace was cut at the span budget.
func (d *drainer) folded(r capture.Record, x capture.Exit, attrs []attribute.KeyValue) []attribute.KeyValue {
	if r.Flags&capture.FlagFolded != 0 {
		fs := folding.Span{Calls: uint64(x.Fold.Calls), Time: time.Duration(x.Fold.Ns)}
		for _, e := range x.Fold.Top {
			fs.Top = append(fs.Top, folding.Entry{Fn: e.Func, Calls: uint64(e.Calls), Time: time.Duration(e.Ns)})
		}
		attrs = append(attrs, folding.Attrs(fs, d.p.funcName)...)
	}
	if r.Flags&capture.FlagFoldedCount != 0 && x.Aux > 0 {
		attrs = append(attrs, folding.KeyCount.Int64(int64(x.Aux)))
	}
	if r.Flags&capture.FlagTruncated != 0 {
		attrs = append(attrs, folding.KeyTruncated.Bool(true))
	}
	if r.Flags&capture.FlagApprox != 0 {
		attrs = append(attrs, folding.KeyApproximate.Bool(true))
	}
	if r.Flags&capture.FlagValuesLimited != 0 {
		attrs = append(attrs, keyValuesLimited.Bool(true))
	}
	return attrs
}

// keyValuesLimited marks a root whose trace reached its value budget:
// its later spans carry no argument or return values.
const keyValuesLimited = attribute.Key("clrotel.values_limited")

// markDropped marks a record whose values did not fit in the ring.
func (d *drainer) markDropped(r capture.Record, attrs []attribute.KeyValue) []attribute.KeyValue {
	if r.Flags&capture.FlagValuesOmitted != 0 {
		// Past the trace's value budget: no values, by design.
		attrs = append(attrs, attribute.Bool("dotnet.values.omitted", true))
	}
	if r.Flags&capture.FlagValuesDropped == 0 {
		return attrs
	}
	d.valuesDropped++
	return append(attrs, attribute.Bool("dotnet.values.dropped", true))
}

// values decodes a record's value stream and renders it for slots, within
// budget bytes of attributes, and reports the bytes used. Classes the hooks
// met without a plan are queued for the planner.
func (d *drainer) values(slots []values.Slot, stream []byte, budget int) ([]attribute.KeyValue, int) {
	dec := &d.dec
	dec.Reset(stream)
	vals := d.vals[:0]
	defer func() { clear(vals); d.vals = vals[:0] }()
	for i := 0; i < len(slots) && dec.More(); i++ {
		v, err := dec.Next()
		if err != nil {
			d.p.log.Debugf("value stream: %v", err)
			break
		}
		vals = append(vals, v)
		if v.Shape == values.Truncated {
			break
		}
	}
	// The hook's byte budget for the record (CLROTEL_VALUE_BYTES) ended
	// inside the values (a Truncated value, shown as "…", or fewer values
	// than slots): the span says so, as when the attribute budget cuts them.
	streamCut := len(vals) < len(slots) || len(vals) > 0 && vals[len(vals)-1].Shape == values.Truncated
	for _, cls := range dec.NoPlanClasses() {
		d.p.planner.request(cls)
	}
	attrs, cut, used := d.p.render.AppendAttrsWithin(d.attrs[:0], slots, vals, budget)
	if cut || streamCut {
		attrs = append(attrs, attribute.Bool("dotnet.values.truncated", true))
	}
	d.attrs = attrs
	return attrs, used
}

// exception decodes an exception record: class, message, inner class and
// message (profiler/values.c clr_capture_exception).
func (d *drainer) exception(b []byte) otelbridge.Exception {
	e := otelbridge.Exception{Type: "?", MessageUnknown: true}
	if len(b) < 8 {
		return e
	}
	e.Type = d.p.resolver.ClassName(binary.LittleEndian.Uint64(b))
	dec := values.NewDecoder(b[8:])
	msg, err := dec.Next()
	if err != nil {
		return e
	}
	e.Message, e.MessageNull, e.MessageUnknown = messageText(msg)
	rest := b[8+dec.Offset():]
	if len(rest) >= 8 {
		if inner := binary.LittleEndian.Uint64(rest); inner != 0 {
			e.InnerType = d.p.resolver.ClassName(inner)
			if v, err := values.NewDecoder(rest[8:]).Next(); err == nil {
				e.InnerMessage, _, _ = messageText(v)
			}
		}
	}
	// A message holding a card number is hidden like any string value.
	if d.p.render.RedactPAN {
		for _, m := range []*string{&e.Message, &e.InnerMessage} {
			if values.HasPANString(*m) {
				*m = values.TextRedacted
			}
		}
	}
	return e
}

func messageText(v values.Value) (text string, null, unknown bool) {
	switch v.Shape {
	case values.String:
		return values.StringText(v), false, false
	case values.Null:
		return "", true, false
	}
	return "", false, true
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

// reportDrops logs, at most every 10 s (or when forced), how many calls the
// hooks dropped since the last report.
func (d *drainer) reportDrops(force bool) {
	if !force && time.Since(d.lastLog) < 10*time.Second {
		return
	}
	d.lastLog = time.Now()
	total := dropped()
	if total > d.lastDrop {
		d.p.log.Warnf("%d calls not traced since the last report (%d in all): capture buffers full or thread slots exhausted", total-d.lastDrop, total)
		d.lastDrop = total
	}
	if traces, calls := uint64(C.clr_shed_traces()), uint64(C.clr_shed_calls()); calls > d.lastCalls {
		d.p.log.Infof("%d traces (%d calls) shed under load since the last report, %d so far; new traces now: %v",
			traces-d.lastShed, calls-d.lastCalls, traces, d.limit)
		d.lastShed, d.lastCalls = traces, calls
	}
	if d.valuesDropped > d.lastValuesDropped {
		d.p.log.Warnf("%d calls traced without their values since the last report, %d so far: capture buffers too full for them (spans marked dotnet.values.dropped)",
			d.valuesDropped-d.lastValuesDropped, d.valuesDropped)
		d.lastValuesDropped = d.valuesDropped
	}
}

// abandonUnhandled ends every open span of every thread as failed by the
// exception in flight: the process is aborting.
func (d *drainer) abandonUnhandled() {
	now := time.Now().UnixNano()
	for _, ts := range d.threads {
		if ts != nil {
			d.p.bridge.AbandonUnhandled(ts.th, now)
		}
	}
	d.p.bridge.AbandonAsync(now)
}

// abandonAll ends every open span: the process is shutting down.
func (d *drainer) abandonAll() {
	now := time.Now().UnixNano()
	n := int(C.clr_slot_count())
	for i, ts := range d.threads {
		if ts == nil {
			continue
		}
		if i < n {
			d.abandonWithFolds(ts, slotAt(i), now)
		}
		d.p.bridge.Abandon(ts.th, now)
	}
	// Async methods whose task never completed.
	d.p.bridge.AbandonAsync(now)
}

// abandonWithFolds ends a thread's open spans at exit with what was folded
// into them so far: no exit record will bring it. The open spans are the
// slot's recorded frames, in the same order; if the two disagree nothing is
// added (Abandon then ends them plainly).
func (d *drainer) abandonWithFolds(ts *threadState, s *C.clr_slot, now int64) {
	open := ts.th.Depth()
	if open == 0 {
		return
	}
	calls := make([]C.uint32_t, open)
	ns := make([]C.uint64_t, open)
	if got := int(C.clr_slot_open_folds(s, C.clr_stack_cap(), &calls[0], &ns[0], C.uint32_t(open))); got != open {
		return
	}
	for k := open - 1; k >= 0; k-- {
		var attrs []attribute.KeyValue
		if calls[k] > 0 {
			attrs = folding.Attrs(folding.Span{Calls: uint64(calls[k]), Time: time.Duration(ns[k])}, d.p.funcName)
			if rejitInstalled() > 0 {
				attrs = append(attrs, folding.KeyApproximate.Bool(true))
			}
		}
		d.p.bridge.Exit(ts.th, now, otelbridge.ExitAbandon, attrs...)
	}
}
