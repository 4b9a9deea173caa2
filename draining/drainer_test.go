package draining

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clrotel/clrotel/capture"
	"github.com/clrotel/clrotel/otelbridge"
	"github.com/clrotel/clrotel/shedding"
	"github.com/clrotel/clrotel/summary"
	"github.com/clrotel/clrotel/translate"
)

// fakeHooks are the hooks' counters, set by the test.
type fakeHooks struct {
	mu                         sync.Mutex
	dropped, shedTr, shedCalls uint64
	aborting, rejit            bool
	folds                      map[int][]translate.OpenFold
	shedding                   []shedding.Limit
	cpu, record                time.Duration
}

func (h *fakeHooks) ThreadCPU() time.Duration     { return h.cpu }
func (h *fakeHooks) RecordTime() time.Duration    { return h.record }
func (h *fakeHooks) SetShedding(l shedding.Limit) { h.shedding = append(h.shedding, l) }
func (h *fakeHooks) Dropped() uint64              { return h.dropped }
func (h *fakeHooks) Shed() (uint64, uint64)       { return h.shedTr, h.shedCalls }
func (h *fakeHooks) ReJITInstalled() bool         { return h.rejit }
func (h *fakeHooks) Aborting() bool               { h.mu.Lock(); defer h.mu.Unlock(); return h.aborting }
func (h *fakeHooks) OpenFolds(slot, open int) ([]translate.OpenFold, bool) {
	f, ok := h.folds[slot]
	return f, ok
}

// fakeSpans and fakeTranslator log what the drainer asks of them.
type fakeSpans struct {
	log      []string
	dropped  uint64
	released int // ReleaseDue calls
}

func (s *fakeSpans) SetDroppedCalls(n uint64)                { s.dropped = n }
func (s *fakeSpans) Abandon(t *otelbridge.Thread, now int64) { s.log = append(s.log, "abandon") }
func (s *fakeSpans) AbandonUnhandled(t *otelbridge.Thread, now int64) {
	s.log = append(s.log, "unhandled")
}
func (s *fakeSpans) AbandonAsync(now int64)                     { s.log = append(s.log, "async") }
func (s *fakeSpans) ReleaseDue(t *otelbridge.Thread, now int64) { s.released++ }

type fakeTranslator struct {
	records []string
	exits   []string
}

func (f *fakeTranslator) Record(t *translate.Thread, r capture.Record) {
	f.records = append(f.records, fmt.Sprint(r.Time))
}
func (f *fakeTranslator) Roots() uint64         { return 0 }
func (f *fakeTranslator) ValuesDropped() uint64 { return 7 }
func (f *fakeTranslator) AbandonAtExit(t *otelbridge.Thread, now int64, folds []translate.OpenFold, approximate bool) {
	f.exits = append(f.exits, fmt.Sprint(folds, approximate))
}

func newDrainer(slots *fakeSlots, h *fakeHooks) (*Drainer, *fakeSpans, *fakeTranslator, *[]string) {
	sp, tr := &fakeSpans{}, &fakeTranslator{}
	var log []string
	logf := func(format string, args ...any) { log = append(log, fmt.Sprintf(format, args...)) }
	d := &Drainer{Walker: Walker{Slots: slots}, Hooks: h, Spans: sp, Translator: tr, Infof: logf, Debugf: logf, Warnf: logf,
		Tables: func() summary.Tables { return summary.Tables{} },
		Report: func(lines []summary.Line) {
			for _, l := range lines {
				log = append(log, l.Text)
			}
		}}
	d.Init(0.05, time.Now())
	return d, sp, tr, &log
}

// Run drains until Finish, with a last pass; the bridge is told what the
// hooks dropped.
func TestDrainerRunsUntilFinish(t *testing.T) {
	a := newSlot(Live, 1)
	a.put(10, 0)
	a.put(11, 0)
	h := &fakeHooks{dropped: 3}
	d, sp, tr, _ := newDrainer(&fakeSlots{[]*fakeSlot{a}}, h)
	go d.Run()
	deadline := time.Now().Add(5 * time.Second)
	for d.Records.Load() < 2 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if !d.Finish(5 * time.Second) {
		t.Fatal("Finish: the loop did not end")
	}
	if got := strings.Join(tr.records, ","); got != "10,11" || d.Records.Load() != 2 {
		t.Errorf("records %q (%d counted), want 10,11", got, d.Records.Load())
	}
	if sp.dropped != 3 {
		t.Errorf("dropped calls told to the bridge: %d, want 3", sp.dropped)
	}
}

// An aborting process ends the loop without Finish: the records are
// drained, the open spans failed, the spans flushed within AbortFlush and
// the hooks told, even when the flush fails.
func TestDrainerAbort(t *testing.T) {
	for _, flushErr := range []error{nil, errors.New("collector gone")} {
		a := newSlot(Live, 1)
		a.put(10, 0)
		d, sp, tr, log := newDrainer(&fakeSlots{[]*fakeSlot{a}}, &fakeHooks{aborting: true})
		var budget time.Duration
		d.Flush = func(ctx context.Context) error {
			dl, _ := ctx.Deadline()
			budget = time.Until(dl)
			return flushErr
		}
		flushed := make(chan struct{})
		d.Flushed = func() { close(flushed) }
		go d.Run()
		select {
		case <-flushed:
		case <-time.After(5 * time.Second):
			t.Fatal("Flushed not called")
		}
		if !d.Wait(5 * time.Second) {
			t.Fatal("the loop did not end after the abort")
		}
		if budget <= 0 || budget > AbortFlush {
			t.Errorf("flush budget %v, want at most %v", budget, AbortFlush)
		}
		if len(tr.records) != 1 || !reflect.DeepEqual(sp.log, []string{"unhandled", "async"}) {
			t.Errorf("records %v, spans %v; want the record drained and its thread failed", tr.records, sp.log)
		}
		if sp.released != 1 {
			t.Errorf("ReleaseDue asked %d times for the one thread of one pass, want 1", sp.released)
		}
		want := "process aborting: 1 records drained and flushed"
		if flushErr != nil {
			want = "abort: flushing spans: collector gone\n" + want
		}
		if got := strings.Join(*log, "\n"); !strings.HasSuffix(got, want) {
			t.Errorf("log %q, want it to end %q", got, want)
		}
	}
}

func TestDrainerAbandon(t *testing.T) {
	folds := []translate.OpenFold{{Calls: 4, Ns: 100}}
	cases := []struct {
		name      string
		unhandled bool
		rejit     bool
		folds     map[int][]translate.OpenFold
		wantSpans []string
		wantExits []string
	}{
		{name: "at exit, folds of the open frames first", folds: map[int][]translate.OpenFold{1: folds},
			wantSpans: []string{"abandon", "abandon", "async"}, wantExits: []string{"[{4 100}] false"}},
		{name: "re-JIT installed: approximate", rejit: true, folds: map[int][]translate.OpenFold{0: folds},
			wantSpans: []string{"abandon", "abandon", "async"}, wantExits: []string{"[{4 100}] true"}},
		{name: "aborting: failed by the exception", unhandled: true, folds: map[int][]translate.OpenFold{0: folds},
			wantSpans: []string{"unhandled", "unhandled", "async"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			slots := &fakeSlots{[]*fakeSlot{newSlot(Live, 1), newSlot(Live, 2)}}
			d, sp, tr, _ := newDrainer(slots, &fakeHooks{folds: c.folds, rejit: c.rejit})
			d.Pass() // opens both threads
			if c.unhandled {
				d.AbandonUnhandled()
			} else {
				d.AbandonAll()
			}
			if !reflect.DeepEqual(sp.log, c.wantSpans) {
				t.Errorf("spans %v, want %v", sp.log, c.wantSpans)
			}
			if !reflect.DeepEqual(tr.exits, c.wantExits) {
				t.Errorf("exits %v, want %v", tr.exits, c.wantExits)
			}
			if n := len(d.Threads()); n != 2 {
				t.Errorf("%d threads, want 2", n)
			}
		})
	}
}

// The forced report says what was dropped and shed, from the hooks' and
// the translator's counts.
func TestDrainerReportDrops(t *testing.T) {
	d, _, _, log := newDrainer(&fakeSlots{}, &fakeHooks{dropped: 5, shedTr: 2, shedCalls: 9})
	d.ReportDrops(false)
	if len(*log) != 0 {
		t.Fatalf("unforced report before DropsEvery: %q", *log)
	}
	d.ReportDrops(true)
	all := strings.Join(*log, "\n")
	for _, want := range []string{"5 calls not traced", "2 traces (9 calls) shed", "7 calls traced without their values"} {
		if !strings.Contains(all, want) {
			t.Errorf("report %q lacks %q", all, want)
		}
	}
}

// The CPU budget counts the drainer's thread and the hooks' recording on
// the app's threads.
func TestSpanWorkCountsRecording(t *testing.T) {
	d, _, _, _ := newDrainer(&fakeSlots{}, &fakeHooks{cpu: 3 * time.Millisecond, record: 5 * time.Millisecond})
	if got := d.spanWork(); got != 8*time.Millisecond {
		t.Errorf("span work %v, want 8ms", got)
	}
}
