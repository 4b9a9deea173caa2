package folding

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestBatcher(t *testing.T) {
	t0 := time.Unix(1000, 0)
	type step struct {
		add  []uint32
		at   time.Duration
		want []uint32
	}
	tests := []struct {
		name  string
		cfg   ReJIT
		steps []step
	}{
		{"off hands out nothing", ReJIT{Enabled: false}, []step{{add: []uint32{1, 2}, want: nil}}},
		{"first batch at once, each function once", ReJIT{Enabled: true, Interval: 50 * time.Millisecond}, []step{
			{add: []uint32{3, 1, 3}, want: []uint32{3, 1}},
			{add: []uint32{1, 3}, at: time.Second, want: nil},
		}},
		{"later batches wait for the interval", ReJIT{Enabled: true, Interval: 50 * time.Millisecond}, []step{
			{add: []uint32{1}, want: []uint32{1}},
			{add: []uint32{2}, at: 10 * time.Millisecond, want: nil},
			{add: []uint32{3}, at: 50 * time.Millisecond, want: []uint32{2, 3}},
		}},
		{"batches capped, oldest first", ReJIT{Enabled: true, Interval: time.Millisecond, MaxBatch: 2}, []step{
			{add: []uint32{5, 6, 7}, want: []uint32{5, 6}},
			{at: time.Millisecond, want: []uint32{7}},
			{at: 2 * time.Millisecond, want: nil},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewBatcher(tt.cfg)
			for i, s := range tt.steps {
				b.Add(s.add...)
				if got := b.Next(t0.Add(s.at)); !reflect.DeepEqual(got, s.want) {
					t.Fatalf("step %d: Next = %v, want %v", i, got, s.want)
				}
			}
		})
	}
}

func TestReJITNote(t *testing.T) {
	if s := ReJITNote(0, 0, 0, 0); s != "" {
		t.Errorf("nothing asked: %q", s)
	}
	s := ReJITNote(5, 4, 1, 2)
	for _, want := range []string{"4 folded methods re-JIT-compiled without hooks (5 asked for, 1 refused or failed, 2 not asked for: a call of theirs was running)", "from before re-JIT", string(KeyApproximate)} {
		if !strings.Contains(s, want) {
			t.Errorf("%q lacks %q", s, want)
		}
	}
}

func TestReJITLoop(t *testing.T) {
	t0 := time.Unix(1000, 0)
	cfg := ReJIT{Enabled: true, Interval: 10 * time.Millisecond, MaxBatch: 2}
	tests := []struct {
		name      string
		folded    [][]uint32 // found folded at each tick
		queued    int        // Submit's answer; -1: unavailable
		wantBatch [][]uint32
		wantLog   []string
		wantEarly bool // Run returned before stop
	}{
		{name: "batches each function once", folded: [][]uint32{{1, 2, 3}, {1, 2, 3}, {3, 4}}, queued: 2,
			wantBatch: [][]uint32{{1, 2}, {3}, {4}},
			wantLog: []string{"debug: re-JIT of 2 folded methods asked for", "debug: re-JIT of 1 folded methods asked for",
				"debug: re-JIT of 1 folded methods asked for"}},
		{name: "queue full", folded: [][]uint32{{1, 2}}, queued: 1, wantBatch: [][]uint32{{1, 2}},
			wantLog: []string{"debug: re-JIT queue full: 1 of 2 folded methods queued", "debug: re-JIT of 1 folded methods asked for"}},
		{name: "unavailable stops the loop", folded: [][]uint32{{1}, {2}}, queued: -1, wantBatch: [][]uint32{{1}}, wantEarly: true,
			wantLog: []string{"warn: re-JIT without hooks unavailable on this runtime: folded calls keep their hooks"}},
		{name: "nothing folded asks nothing", folded: [][]uint32{nil, nil}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var batches [][]uint32
			var log []string
			logf := func(level string) func(string, ...any) {
				return func(format string, args ...any) { log = append(log, level+": "+fmt.Sprintf(format, args...)) }
			}
			round := 0
			l := ReJITLoop{Config: cfg, Warnf: logf("warn"), Debugf: logf("debug"),
				Folded: func(add func(uint32)) {
					for _, fn := range tc.folded[round] {
						add(fn)
					}
					round++
				},
				Submit: func(batch []uint32) int {
					batches = append(batches, batch)
					return min(tc.queued, len(batch))
				}}
			early := false
			runTicks(l, func(tick chan<- time.Time, done <-chan struct{}) {
				for i := range tc.folded {
					select {
					case tick <- t0.Add(time.Duration(i) * cfg.Interval):
					case <-done:
						early = true
					}
				}
			})
			if early != tc.wantEarly {
				t.Errorf("returned before stop: %v, want %v", early, tc.wantEarly)
			}
			if !reflect.DeepEqual(batches, tc.wantBatch) {
				t.Errorf("batches %v, want %v", batches, tc.wantBatch)
			}
			if !reflect.DeepEqual(log, tc.wantLog) {
				t.Errorf("log %q, want %q", log, tc.wantLog)
			}
		})
	}
}

// fakeLog is a FoldLog whose state at each tick comes down ticks as the
// loop asks for its length, on the loop's goroutine.
type fakeLog struct {
	ticks chan logTick
	cur   logTick
	cap   uint32
}

// logTick is the log and the methods folded at one tick.
type logTick struct {
	at      time.Duration
	entries []int    // the log: entries[i] the i-th method folded, -1 not written yet
	n       uint32   // methods folded (past cap, not logged)
	scan    []uint32 // what a look at every method finds
}

func (f *fakeLog) Len() uint32 { f.cur = <-f.ticks; return f.cur.n }
func (f *fakeLog) Cap() uint32 { return f.cap }
func (f *fakeLog) At(i uint32) (uint32, bool) {
	if i >= f.cap || int(i) >= len(f.cur.entries) || f.cur.entries[i] < 0 {
		return 0, false
	}
	return uint32(f.cur.entries[i]), true
}

// With the hooks' log, the loop reads what folded since the last tick, and
// looks at every method only at its first tick, once every ScanEvery, or
// once the log is full.
func TestReJITLoopLog(t *testing.T) {
	t0 := time.Unix(1000, 0)
	cfg := ReJIT{Enabled: true, Interval: time.Millisecond, MaxBatch: 100}
	tests := []struct {
		name      string
		cap       uint32
		keep      map[uint32]bool
		ticks     []logTick
		wantScans int
		wantBatch [][]uint32
	}{
		{name: "reads what is new", cap: 8, ticks: []logTick{
			{at: 0},
			{at: 5 * time.Millisecond, entries: []int{3, 5}, n: 2, scan: []uint32{3, 5}},
			{at: 10 * time.Millisecond, entries: []int{3, 5, 9}, n: 3, scan: []uint32{3, 5, 9}},
		}, wantScans: 1, wantBatch: [][]uint32{{3, 5}, {9}}},
		{name: "an entry not written yet is read at a later tick", cap: 8, ticks: []logTick{
			{at: 0},
			{at: 5 * time.Millisecond, entries: []int{-1, 4}, n: 2, scan: []uint32{4}},
			{at: 10 * time.Millisecond, entries: []int{7, 4}, n: 2, scan: []uint32{4, 7}},
		}, wantScans: 1, wantBatch: [][]uint32{{7, 4}}},
		{name: "looks at every method once a second", cap: 8, ticks: []logTick{
			{at: 0},
			{at: 500 * time.Millisecond, entries: []int{1}, n: 1, scan: []uint32{1, 2}},
			{at: time.Second, entries: []int{1}, n: 1, scan: []uint32{1, 2}},
		}, wantScans: 2, wantBatch: [][]uint32{{1}, {2}}},
		{name: "a full log: a look at every tick", cap: 1, ticks: []logTick{
			{at: 0},
			{at: 5 * time.Millisecond, entries: []int{1, 2}, n: 2, scan: []uint32{1, 2}},
			{at: 10 * time.Millisecond, entries: []int{1, 2, 3}, n: 3, scan: []uint32{1, 2, 3}},
		}, wantScans: 3, wantBatch: [][]uint32{{1, 2}, {3}}},
		{name: "methods that keep their hooks are left", cap: 8, keep: map[uint32]bool{2: true}, ticks: []logTick{
			{at: 0},
			{at: 5 * time.Millisecond, entries: []int{1, 2, 3}, n: 3, scan: []uint32{1, 2, 3}},
		}, wantScans: 1, wantBatch: [][]uint32{{1, 3}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			log := &fakeLog{ticks: make(chan logTick), cap: tc.cap}
			var batches [][]uint32
			scans := 0
			l := ReJITLoop{Config: cfg, Log: log, Warnf: t.Logf, Debugf: func(string, ...any) {},
				Folded: func(add func(uint32)) {
					scans++
					for _, fn := range log.cur.scan {
						add(fn)
					}
				},
				KeepHooks: func(fn uint32) bool { return tc.keep[fn] },
				Submit: func(batch []uint32) int {
					batches = append(batches, batch)
					return len(batch)
				}}
			runTicks(l, func(tick chan<- time.Time, _ <-chan struct{}) {
				for _, tk := range tc.ticks {
					tick <- t0.Add(tk.at)
					log.ticks <- tk
				}
			})
			if scans != tc.wantScans {
				t.Errorf("%d looks at every method, want %d", scans, tc.wantScans)
			}
			if !reflect.DeepEqual(batches, tc.wantBatch) {
				t.Errorf("batches %v, want %v", batches, tc.wantBatch)
			}
		})
	}
}

// runTicks runs l until send has sent its ticks; done closes if l returns
// before.
func runTicks(l ReJITLoop, send func(tick chan<- time.Time, done <-chan struct{})) {
	tick, stop, done := make(chan time.Time), make(chan struct{}), make(chan struct{})
	l.After = func(time.Duration) <-chan time.Time { return tick }
	go func() { l.Run(stop); close(done) }()
	send(tick, done)
	close(stop)
	<-done
}

func TestNextLook(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name     string
		interval time.Duration
		last     time.Duration
		busy     bool
		want     time.Duration
	}{
		{"first look", 2 * ms, 0, false, ms},
		{"methods fold: half the interval", 2 * ms, 32 * ms, true, ms},
		{"nothing folded: twice the last wait", 2 * ms, ms, false, 2 * ms},
		{"backs off to IdleLook", 2 * ms, 48 * ms, false, IdleLook},
		{"stays at IdleLook", 2 * ms, IdleLook, false, IdleLook},
		{"an interval past IdleLook: never slower than it", 10 * time.Second, 5 * time.Second, false, 5 * time.Second},
		{"a tiny interval: at least half a millisecond", ms / 10, 0, true, ms / 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := NextLook(tt.interval, tt.last, tt.busy); got != tt.want {
				t.Errorf("NextLook(%v, %v, %v) = %v, want %v", tt.interval, tt.last, tt.busy, got, tt.want)
			}
		})
	}
}

// The loop looks often while methods fold or wait for a batch, and backs
// off while none does.
func TestReJITLoopBacksOff(t *testing.T) {
	t0 := time.Unix(1000, 0)
	ms := time.Millisecond
	cfg := ReJIT{Enabled: true, Interval: 2 * ms, MaxBatch: 1}
	folded := [][]uint32{nil, nil, {1, 2}, nil, nil, nil, {2}, nil}
	round := 0
	var waits []time.Duration
	looked, stop, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
	var at time.Duration
	l := ReJITLoop{Config: cfg, Warnf: t.Logf, Debugf: func(string, ...any) {},
		Folded: func(add func(uint32)) {
			for _, fn := range folded[round] {
				add(fn)
			}
			round++
		},
		Submit: func(batch []uint32) int { return len(batch) },
		After: func(d time.Duration) <-chan time.Time {
			waits = append(waits, d)
			if len(waits) > len(folded) {
				close(looked)
				return nil // no more looks
			}
			at += d
			c := make(chan time.Time, 1)
			c <- t0.Add(at)
			return c
		}}
	go func() { l.Run(stop); close(done) }()
	<-looked
	close(stop)
	<-done
	// Looks: nothing, nothing, 1 and 2 folded (1 asked for, 2 waits for
	// the interval), 2 asked for, nothing, nothing, 2 again (seen), nothing.
	want := []time.Duration{0, ms, 2 * ms, ms, ms, ms, 2 * ms, 4 * ms, 8 * ms}
	if !reflect.DeepEqual(waits, want) {
		t.Errorf("waits %v, want %v", waits, want)
	}
}

// OnFolded hears of each function found folded before it is batched,
// kept hooks or not, so that what folds with it folds before the batch is
// asked for.
func TestReJITLoopOnFolded(t *testing.T) {
	t0 := time.Unix(1000, 0)
	cfg := ReJIT{Enabled: true, Interval: 10 * time.Millisecond, MaxBatch: 8}
	var events []string
	l := ReJITLoop{Config: cfg, Warnf: t.Logf, Debugf: func(string, ...any) {},
		Folded: func(add func(uint32)) {
			for _, fn := range []uint32{1, 2} {
				add(fn)
			}
		},
		OnFolded:  func(fn uint32) { events = append(events, fmt.Sprint("folded ", fn)) },
		KeepHooks: func(fn uint32) bool { return fn == 2 },
		Submit: func(batch []uint32) int {
			events = append(events, fmt.Sprint("batch ", batch))
			return len(batch)
		}}
	runTicks(l, func(tick chan<- time.Time, _ <-chan struct{}) { tick <- t0 })
	if want := []string{"folded 1", "folded 2", "batch [1]"}; !slices.Equal(events, want) {
		t.Errorf("events %q, want %q", events, want)
	}
}
