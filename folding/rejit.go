package folding

import (
	"fmt"
	"time"

	"go.opentelemetry.io/otel/attribute"
)

// KeyApproximate marks a span whose folded counts stop short: a method
// folded into it was re-JIT-compiled without hooks before the span ended,
// and its calls from then on reached no hook.
const KeyApproximate = attribute.Key("clrotel.folded.approximate")

// ReJIT says whether and how folded methods are re-JIT-compiled without
// their Enter/Leave hooks (CLROTEL_FOLD_REJIT): a folded call then costs
// what an untraced call costs, and is no longer counted.
type ReJIT struct {
	Enabled bool
	// Interval is how long folded methods gather before one request:
	// each request suspends the runtime once.
	Interval time.Duration
	// MaxBatch caps the methods of one request.
	MaxBatch int
}

// DefaultReJIT is the setting with nothing set. Interval: a request
// suspends the runtime, and methods fold in bursts as a program starts, so
// one request per Interval batches a burst, while a folded method's calls
// stay hooked for at most that long after its verdict: a hot method makes
// thousands of calls in 10 ms, so a longer Interval leaves many more calls
// hooked (docs/user-guide.md, "Folding").
func DefaultReJIT() ReJIT {
	return ReJIT{Enabled: true, Interval: 2 * time.Millisecond, MaxBatch: 1024}
}

// Batcher gathers the functions the hooks folded (by index) and hands them
// out in batches for re-JIT, each once. It holds no lock: one goroutine
// uses it.
type Batcher struct {
	cfg     ReJIT
	seen    map[uint32]bool
	pending []uint32
	last    time.Time
}

// NewBatcher returns a Batcher for cfg; a zero Interval or MaxBatch takes
// the default's.
func NewBatcher(cfg ReJIT) *Batcher {
	d := DefaultReJIT()
	if cfg.Interval <= 0 {
		cfg.Interval = d.Interval
	}
	if cfg.MaxBatch <= 0 {
		cfg.MaxBatch = d.MaxBatch
	}
	return &Batcher{cfg: cfg, seen: map[uint32]bool{}}
}

// Add notes functions found folded; ones already seen are ignored. It
// reports whether one was new.
func (b *Batcher) Add(fns ...uint32) bool {
	if !b.cfg.Enabled {
		return false
	}
	added := false
	for _, f := range fns {
		if !b.seen[f] {
			b.seen[f] = true
			b.pending = append(b.pending, f)
			added = true
		}
	}
	return added
}

// NextLook is how long the re-JIT loop waits after a look that waited
// last: half the interval when methods folded or wait for a batch (busy),
// else twice as long as the last wait, at most IdleLook. The hooks cannot
// wake the loop (they make no system call), so it looks often only while
// methods fold, as they do in bursts.
func NextLook(interval, last time.Duration, busy bool) time.Duration {
	fast := max(interval/2, time.Millisecond/2)
	if busy || last < fast {
		return fast
	}
	return min(2*last, max(IdleLook, fast))
}

// Next returns the next batch to request at now: nothing until Interval has
// passed since the last batch, then at most MaxBatch functions, oldest
// first.
func (b *Batcher) Next(now time.Time) []uint32 {
	if len(b.pending) == 0 || (!b.last.IsZero() && now.Sub(b.last) < b.cfg.Interval) {
		return nil
	}
	n := min(len(b.pending), b.cfg.MaxBatch)
	out := append([]uint32(nil), b.pending[:n]...)
	b.pending = b.pending[n:]
	b.last = now
	return out
}

// Pending is how many functions wait for a batch.
func (b *Batcher) Pending() int { return len(b.pending) }

// ReJITNote is the exit summary's line on re-JIT: how many folded methods
// ran without hooks, so that the counts above are read as lower bounds.
// waiting methods were never asked for: a frame of theirs stayed open (a
// recursive method's old frames and new code would share a FunctionID in
// the runtime's exception callbacks).
func ReJITNote(requested, installed, failed, waiting uint64) string {
	if requested == 0 && failed == 0 && waiting == 0 {
		return ""
	}
	s := fmt.Sprintf("%d folded methods re-JIT-compiled without hooks (%d asked for", installed, requested)
	if failed > 0 {
		s += fmt.Sprintf(", %d refused or failed", failed)
	}
	if waiting > 0 {
		s += fmt.Sprintf(", %d not asked for: a call of theirs was running", waiting)
	}
	return s + "): their counts above are from before re-JIT; spans they folded into say clrotel.folded.approximate"
}

// FoldLog is the hooks' log of the methods they fold, in the order they
// fold (profiler/fold.c): the loop reads what is new at each tick rather
// than looking at every method.
type FoldLog interface {
	// Len is how many methods have folded so far.
	Len() uint32
	// At is the i-th method folded, i < Len; false while its entry is not
	// written yet, or when the log had no room for it.
	At(i uint32) (fn uint32, ok bool)
	// Cap is how many methods the log holds.
	Cap() uint32
}

// ScanEvery is how often the loop with a log still looks at every method
// (Folded): a method whose hooks had to stay when it folded (KeepHooks)
// may lose them after a reload of the settings.
const ScanEvery = time.Second

// IdleLook is the longest the loop waits between two looks for folded
// methods (ReJITLoop.Run): a process whose methods no longer fold is woken
// that far apart, while methods that fold are looked for every half
// Interval.
const IdleLook = 64 * time.Millisecond

// ReJITLoop hands the functions the hooks folded, batched, to the re-JIT
// thread (profiler/rejit.c) at each look.
type ReJITLoop struct {
	Config ReJIT
	// After is when to look next (time.After when nil): the channel sends
	// the time of the look.
	After func(d time.Duration) <-chan time.Time
	// Folded calls add with each function (by index) found folded: a look
	// at every method.
	Folded func(add func(fn uint32))
	// Log, when set, says which functions folded since the last tick;
	// Folded is then called only once every ScanEvery, and at every tick
	// once the log is full.
	Log FoldLog
	// OnFolded, when set, is told of each function found folded, at each
	// look that finds it, before it is batched: what folds with it
	// (Groups) is folded there, and found at a later look.
	OnFolded func(fn uint32)
	// KeepHooks says whether a folded function keeps its hooks (nil: none
	// does).
	KeepHooks func(fn uint32) bool
	// Submit asks for a batch and returns how many were queued, or a
	// negative number when the runtime cannot re-JIT.
	Submit func(batch []uint32) int
	Warnf  func(format string, args ...any)
	Debugf func(format string, args ...any)
}

// Run looks for folded methods, batches and submits them until stop
// closes, or until the runtime says it cannot re-JIT. It looks at once,
// then as NextLook says.
func (l ReJITLoop) Run(stop <-chan struct{}) {
	after := l.After
	if after == nil {
		after = time.After
	}
	b := NewBatcher(l.Config)
	added := false
	add := func(fn uint32) {
		if l.OnFolded != nil {
			l.OnFolded(fn)
		}
		if l.KeepHooks == nil || !l.KeepHooks(fn) {
			added = b.Add(fn) || added
		}
	}
	var read uint32 // log entries read
	var scanned time.Time
	var wait time.Duration
	for {
		select {
		case <-stop:
			return
		case now := <-after(wait):
			added = false
			if l.Log == nil {
				l.Folded(add)
			} else {
				read = l.readLog(read, now, &scanned, add)
			}
			batch := b.Next(now)
			wait = NextLook(l.Config.Interval, wait, added || len(batch) > 0 || b.Pending() > 0)
			if len(batch) == 0 {
				continue
			}
			n := l.Submit(batch)
			if n < 0 {
				l.Warnf("re-JIT without hooks unavailable on this runtime: folded calls keep their hooks")
				return
			}
			if n < len(batch) {
				// The rest stay hooked (and counted).
				l.Debugf("re-JIT queue full: %d of %d folded methods queued", n, len(batch))
			}
			l.Debugf("re-JIT of %d folded methods asked for", n)
		}
	}
}

// readLog adds what folded since entry read of the log, or every folded
// function when a look at every method is due (the first tick, ScanEvery
// after the last, a full log); it returns the entries read.
func (l ReJITLoop) readLog(read uint32, now time.Time, scanned *time.Time, add func(uint32)) uint32 {
	n := l.Log.Len()
	if scanned.IsZero() || now.Sub(*scanned) >= ScanEvery || n > l.Log.Cap() {
		// A method counted in n was flagged folded before it was counted:
		// the look sees it.
		l.Folded(add)
		*scanned = now
		return n
	}
	for ; read < n; read++ {
		fn, ok := l.Log.At(read)
		if !ok {
			break // not written yet: the next tick reads it
		}
		add(fn)
	}
	return read
}
