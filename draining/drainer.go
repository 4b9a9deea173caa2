package draining

import (
	"context"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/clrotel/clrotel/capture"
	"github.com/clrotel/clrotel/otelbridge"
	"github.com/clrotel/clrotel/shedding"
	"github.com/clrotel/clrotel/summary"
	"github.com/clrotel/clrotel/translate"
)

// Hooks are what the drainer reads of the hooks and tells them, beside
// their slots.
type Hooks interface {
	// ThreadCPU is the calling thread's CPU time so far.
	ThreadCPU() time.Duration
	// RecordTime is the time the app's threads spent recording the calls
	// of admitted traces so far (estimated from a sample of the records).
	RecordTime() time.Duration
	// SetShedding hands the hooks a new admission rate of new traces.
	SetShedding(l shedding.Limit)
	// Dropped counts the calls the hooks could not record; Shed the
	// traces and calls they shed under load.
	Dropped() uint64
	Shed() (traces, calls uint64)
	// Aborting says whether the process is aborting (an unhandled
	// exception).
	Aborting() bool
	// OpenFolds reads what the hooks folded so far into slot's open
	// frames, outermost first; false unless there are exactly open of them.
	OpenFolds(slot, open int) ([]translate.OpenFold, bool)
	// ReJITInstalled says whether a folded method was re-JIT-compiled
	// without hooks (the counts of what folds into it stop short).
	ReJITInstalled() bool
}

// Spans are the bridge's span stacks, which the drainer closes.
type Spans interface {
	SetDroppedCalls(n uint64)
	Abandon(t *otelbridge.Thread, now int64)
	AbandonUnhandled(t *otelbridge.Thread, now int64)
	AbandonAsync(now int64)
	// ReleaseDue exports, nested, the first calls of a thread's outermost
	// frame that did not begin serving in time (otelbridge.Bridge).
	ReleaseDue(t *otelbridge.Thread, now int64)
}

// Translator turns records into spans (translate.Translator).
type Translator interface {
	Record(t *translate.Thread, r capture.Record)
	Roots() uint64
	ValuesDropped() uint64
	AbandonAtExit(t *otelbridge.Thread, now int64, folds []translate.OpenFold, approximate bool)
}

// Drainer moves records from the hooks' rings into spans, on a goroutine
// of its own (Run), the only consumer of every ring. Between passes it
// cuts its own CPU into shedding windows, tells the bridge what was
// dropped, and reports the drops and the tables' sizes.
type Drainer struct {
	Walker
	Hooks      Hooks
	Spans      Spans
	Translator Translator
	// Tables are the tables' sizes, logged every summary.TablesEvery.
	Tables func() summary.Tables
	Infof  func(format string, args ...any)
	Debugf func(format string, args ...any)
	// Report logs a report's lines.
	Report func([]summary.Line)
	// Flush sends the spans ended so far, within its context; Flushed
	// tells the hooks they are sent (the SIGABRT handler waits for it).
	Flush   func(ctx context.Context) error
	Flushed func()
	Warnf   func(format string, args ...any)

	Records atomic.Uint64 // records handled so far

	stop, done chan struct{}
	drops      summary.Drops
	lastStats  time.Time
	// Load shedding: the drainer's own CPU and the traces it began, per
	// window, decide how many new traces per second the hooks may start.
	shed shedding.Meter
}

// Init readies the drainer with the span work's CPU budget; the walker's
// records go to the translator.
func (d *Drainer) Init(budget float64, now time.Time) {
	d.stop, d.done, d.lastStats = make(chan struct{}), make(chan struct{}), now
	d.shed = shedding.Meter{Controller: shedding.Controller{Budget: budget}}
	d.drops.Start(now)
	d.Walker.Sink = recordSink{d}
}

// sink hands the walker's records to the translator.
type recordSink struct{ d *Drainer }

func (k recordSink) Record(t *Thread, r capture.Record) { k.d.Translator.Record(t.Thread, r) }
func (k recordSink) End(t *Thread)                      { k.d.Spans.Abandon(t.Spans, time.Now().UnixNano()) }

// Run drains until Finish, or until the process aborts.
func (d *Drainer) Run() {
	defer close(d.done)
	// One OS thread, so that its CPU time is the span work's.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	d.shed.Start(time.Now(), d.spanWork())
	var idle Idle
	for {
		d.Pass()
		d.releaseDue()
		d.shedTick()
		sleep := idle.After(d.Walker.Fullest())
		d.Spans.SetDroppedCalls(d.Hooks.Dropped())
		d.ReportDrops(false)
		if time.Since(d.lastStats) >= summary.TablesEvery {
			d.lastStats = time.Now()
			d.Infof("%v", d.Tables())
		}
		if d.Hooks.Aborting() {
			d.flushBeforeAbort()
			return
		}
		select {
		case <-d.stop:
			d.Pass()
			return
		case <-time.After(sleep):
		}
	}
}

// releaseDue hands each thread's held first calls whose time is up to
// the spans (Spans.ReleaseDue).
func (d *Drainer) releaseDue() {
	now := time.Now().UnixNano()
	d.Each(func(_ int, t *Thread) { d.Spans.ReleaseDue(t.Spans, now) })
}

// AbortFlush is how long the spans may take to leave when the process
// aborts: within the 3 s the SIGABRT handler waits.
const AbortFlush = 2500 * time.Millisecond

// flushBeforeAbort runs when the process is aborting (an unhandled
// exception): what is recorded is drained, open spans end as failed, and
// the export gets a bounded time to send them.
func (d *Drainer) flushBeforeAbort() {
	defer d.Flushed()
	d.Pass()
	d.AbandonUnhandled()
	ctx, cancel := context.WithTimeout(context.Background(), AbortFlush)
	defer cancel()
	if err := d.Flush(ctx); err != nil {
		d.Warnf("abort: flushing spans: %v", err)
	}
	d.Infof("process aborting: %d records drained and flushed", d.Records.Load())
}

// Pass drains every slot once and returns how many records it handled.
func (d *Drainer) Pass() int {
	total := d.Walker.Pass()
	d.Records.Add(uint64(total))
	return total
}

// Finish stops the loop after a last pass, waiting at most wait. It
// reports whether the loop ended in time (it may be blocked on a full
// export queue with the collector gone).
func (d *Drainer) Finish(wait time.Duration) bool {
	close(d.stop)
	return d.Wait(wait)
}

// Wait waits at most wait for the loop to end, after Finish.
func (d *Drainer) Wait(wait time.Duration) bool {
	select {
	case <-d.done:
		return true
	case <-time.After(wait):
		return false
	}
}

// spanWork is the CPU the span work took so far, as the CPU budget counts
// it: the drainer's thread, and the hooks recording admitted traces' calls
// on the app's threads (which cost as much again or more: a memo replays
// the drainer's renderings, never the hooks' copies).
func (d *Drainer) spanWork() time.Duration { return d.Hooks.ThreadCPU() + d.Hooks.RecordTime() }

// shedTick hands a finished window to the shedding controller and
// publishes the limit it answers to the hooks.
func (d *Drainer) shedTick() {
	now := time.Now()
	if !d.shed.Due(now) {
		return
	}
	was := d.shed.Limit()
	if l, changed := d.shed.Tick(now, d.spanWork(), d.Translator.Roots()); changed {
		d.Hooks.SetShedding(l)
		if (l.Rate == 0) != (was.Rate == 0) {
			d.Debugf("load shedding: new traces %v", l)
		}
	}
}

// ReportDrops reports, at most every summary.DropsEvery (or when forced),
// what was not traced in full since the last report.
func (d *Drainer) ReportDrops(force bool) {
	if d.drops.Due(time.Now(), force) {
		traces, calls := d.Hooks.Shed()
		d.Report(d.drops.Report(summary.DropCounts{Dropped: d.Hooks.Dropped(), ShedTraces: traces, ShedCalls: calls,
			Limit: d.shed.Limit(), ValuesDropped: d.Translator.ValuesDropped()}))
	}
}

// Threads lists the threads' span stacks, for a walk across them.
func (d *Drainer) Threads() []*otelbridge.Thread {
	out := make([]*otelbridge.Thread, 0, d.Len())
	d.Each(func(_ int, t *Thread) { out = append(out, t.Spans) })
	return out
}

// AbandonUnhandled ends every open span of every thread as failed by the
// exception in flight: the process is aborting.
func (d *Drainer) AbandonUnhandled() {
	now := time.Now().UnixNano()
	d.Each(func(_ int, t *Thread) { d.Spans.AbandonUnhandled(t.Spans, now) })
	d.Spans.AbandonAsync(now)
}

// AbandonAll ends every open span: the process is shutting down. The
// calls the hooks folded into a thread's open frames go on their spans
// first.
func (d *Drainer) AbandonAll() {
	now := time.Now().UnixNano()
	n := d.Slots.Count()
	d.Each(func(i int, t *Thread) {
		if i < n {
			if folds, ok := d.Hooks.OpenFolds(i, t.Spans.Depth()); ok {
				d.Translator.AbandonAtExit(t.Spans, now, folds, d.Hooks.ReJITInstalled())
			}
		}
		d.Spans.Abandon(t.Spans, now)
	})
	// Async methods whose task never completed.
	d.Spans.AbandonAsync(now)
}
