package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/clrotel/clrotel/completing"
	"github.com/clrotel/clrotel/otlpsink"
)

// tickEvery is how often clrotel run looks for complete traces to print
// while its command runs.
const tickEvery = 250 * time.Millisecond

// liveReport is clrotel run's report of what its receiver gets. It holds
// the spans of the traces not yet complete (package completing), prints
// the trees of the complete ones while the command runs, and at the end
// the rest, then the summary (runSummary). With nothing to print (--quiet)
// it holds no span; once --max-spans are printed it holds no more, only
// counts them.
type liveReport struct {
	mu       sync.Mutex
	sum      runSummary
	traces   *completing.Traces // nil: no span is held
	skipped  int                // spans received but not held, for the printer's count
	closed   bool               // finish has begun: a span that arrives now is ignored
	maxSpans int                // --max-spans: spans received past it are not laid out ahead

	// Only the goroutine that calls tick, then finish, touches these.
	w       io.Writer
	printer *otlpsink.TreePrinter
	err     error // the first write error
}

// newLiveReport returns a report printing to w (nothing if quiet), at most
// maxSpans spans (0: all), under rule, for a run that began at begin.
func newLiveReport(w io.Writer, maxSpans int, quiet bool, rule completing.Rule, begin time.Time) *liveReport {
	r := &liveReport{w: w, maxSpans: maxSpans}
	if !quiet {
		r.traces = completing.New(rule, begin)
		r.printer = otlpsink.NewTreePrinter(w, otlpsink.TreeOptions{Attrs: true, Hide: methodKeys(), MaxSpans: maxSpans})
	}
	return r
}

// add takes spans the receiver got at now, holding them where they are;
// the receiver calls it from several goroutines, once per request. It
// lays out their lines for the printer first, unless they are past what
// will be printed: the printing at the command's exit, which the user
// waits for, is then little more than copying.
func (r *liveReport) add(now time.Time, spans ...otlpsink.Span) {
	r.mu.Lock()
	prepare := r.traces != nil && !r.closed && (r.maxSpans == 0 || r.sum.spans < r.maxSpans)
	r.mu.Unlock()
	if prepare {
		r.printer.Prepare(spans)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	for i := range spans {
		s := &spans[i]
		r.sum.add(s)
		if r.traces != nil {
			r.traces.Add(s, now)
		} else {
			r.skipped++
		}
	}
}

// tick prints the traces complete at now.
func (r *liveReport) tick(now time.Time) {
	if r.printer == nil {
		return
	}
	r.mu.Lock()
	var spans []*otlpsink.Span
	if r.traces != nil {
		spans = r.traces.Complete(now)
	}
	skipped := r.skipped
	r.skipped = 0
	r.mu.Unlock()
	r.print(spans, skipped)
}

// print prints spans' trees, counting skipped spans not printed; once the
// printer prints no more, the report stops holding spans.
func (r *liveReport) print(spans []*otlpsink.Span, skipped int) {
	r.printer.Skip(skipped)
	if err := r.printer.Print(spans); err != nil && r.err == nil {
		r.err = err
	}
	if !r.printer.Full() {
		return
	}
	r.mu.Lock()
	if r.traces != nil {
		r.skipped += r.traces.Held()
		r.traces.Rest()
		r.traces = nil
	}
	r.mu.Unlock()
}

// ticking calls tick every tickEvery until the returned stop is called;
// stop returns once the last tick is done.
func (r *liveReport) ticking() (stop func()) {
	done, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		t := time.NewTicker(tickEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				r.tick(now)
			}
		}
	}()
	return func() {
		close(done)
		<-exited
	}
}

// finish prints the traces still held, what was left out, and the
// summary with the method metrics (points); the caller must have
// stopped calling tick; a span added from now on is ignored. It returns
// the first write error.
func (r *liveReport) finish(points []otlpsink.Point) error {
	r.mu.Lock()
	r.closed = true
	if r.printer == nil {
		r.mu.Unlock()
		return nil
	}
	var rest []*otlpsink.Span
	if r.traces != nil {
		rest = r.traces.Rest()
	}
	skipped, sum := r.skipped, &r.sum
	r.skipped = 0
	r.mu.Unlock()
	if sum.spans == 0 {
		_, err := fmt.Fprintln(r.w, "clrotel: no spans received")
		return err
	}
	r.print(rest, skipped)
	if err := r.printer.Finish(); err != nil && r.err == nil {
		r.err = err
	}
	if r.err != nil {
		return r.err
	}
	return sum.write(r.w, points)
}
