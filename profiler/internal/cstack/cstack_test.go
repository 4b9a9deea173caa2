package cstack

import (
	"reflect"
	"slices"
	"testing"
)

// The functions of the replays.
const (
	mainFn = iota
	caller
	asyncM // a runtime-async method
	helper
	other
	asyncN // another runtime-async method
)

func enter(fn int, sp uint64) Event { return Event{Fn: fn, SP: sp} }
func leave(fn int, sp uint64) Event { return Event{Leave: true, Fn: fn, SP: sp} }

// step is a state machine's step (moveNext, on object 1) with under's
// events in it.
func step(moveNext int, under ...Event) []Event {
	evs := append([]Event{{Fn: moveNext, SP: 900, This: 1}}, under...)
	return append(evs, Event{Leave: true, Fn: moveNext, SP: 900, This: 1})
}

func TestMain(m *testing.M) {
	if err := Setup(); err != nil {
		panic(err)
	}
	m.Run()
}

// .NET 11's runtime-async methods: Enter on the call and again on each
// resume, no Leave when they suspend, a Leave when they complete
// (dotnet/runtime#122488). Each replay is one thread; the stack grows
// down (a callee's ELT block is below its caller's).
func TestRuntimeAsyncKeepsStacksBalanced(t *testing.T) {
	tests := []struct {
		name   string
		evs    []Event
		depths []int
		left   []int
		closed uint64 // frames closed without their Leave
	}{{
		name: "ordinary calls: nothing closed",
		evs: []Event{enter(mainFn, 1000), enter(caller, 900), enter(helper, 800), leave(helper, 800),
			enter(other, 800), leave(other, 800), leave(caller, 900), leave(mainFn, 1000)},
		depths: []int{1, 2, 3, 2, 3, 2, 1, 0},
	}, {
		name: "suspended under a traced caller that returns",
		evs: []Event{enter(mainFn, 1000), enter(caller, 900), enter(asyncM, 800), enter(helper, 700), leave(helper, 700),
			leave(caller, 900), leave(mainFn, 1000)},
		depths: []int{1, 2, 3, 4, 3, 1, 0},
		closed: 1,
	}, {
		name: "suspended, then its caller calls again",
		evs: []Event{enter(mainFn, 1000), enter(caller, 900), enter(asyncM, 800), enter(other, 800), leave(other, 800),
			leave(caller, 900), leave(mainFn, 1000)},
		depths: []int{1, 2, 3, 3, 2, 1, 0},
		closed: 1,
	}, {
		name: "resumed on a pool thread, suspended again, then other work",
		evs: []Event{enter(asyncM, 500), enter(helper, 400), leave(helper, 400),
			enter(asyncN, 500), leave(asyncN, 500), enter(other, 480), leave(other, 480)},
		depths: []int{1, 2, 1, 1, 0, 1, 0},
		closed: 1,
	}, {
		name:   "resumed, suspended, resumed again to completion",
		evs:    []Event{enter(asyncM, 500), enter(asyncM, 500), leave(asyncM, 500)},
		depths: []int{1, 1, 0},
		closed: 1,
	}, {
		name:   "resumed at a root, suspended; the next work deeper on the stack nests under it until a call as shallow",
		evs:    []Event{enter(asyncM, 500), enter(other, 300), leave(other, 300), enter(helper, 520), leave(helper, 520)},
		depths: []int{1, 2, 1, 1, 0},
		closed: 1,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := NoLeave()
			depths, left := Replay(tc.evs)
			if !reflect.DeepEqual(depths, tc.depths) || !reflect.DeepEqual(left, tc.left) {
				t.Errorf("depths %v, frames left %v; want %v, %v", depths, left, tc.depths, tc.left)
			}
			if n := NoLeave() - before; n != tc.closed {
				t.Errorf("%d frames closed without their Leave, want %d", n, tc.closed)
			}
		})
	}
}

// The hooks' cheapest path for a call of a trace: a call in an unsampled
// request. Compare before and after a change to clr_on_enter/clr_on_leave.
func BenchmarkUnsampledCall(b *testing.B) {
	if UnsampledPairs(b.N) == 0 {
		b.Fatal("no slot")
	}
}

// The compiler's plumbing (a constructor of a compiler-generated nested
// type) is a transparent frame: no span, and what it calls is decided
// under the frame below it (a child of the recorded caller, or a root of
// its own at the bottom of the thread); the stack stays balanced.
func TestPlumbingIsTransparent(t *testing.T) {
	flags := []uint32{caller: Plumbing, other: Plumbing}
	for _, tc := range []struct {
		name        string
		evs         []Event
		depths, top []int
	}{{
		name:   "under a recorded call",
		evs:    []Event{enter(mainFn, 1000), enter(caller, 900), enter(helper, 800), leave(helper, 800), leave(caller, 900), leave(mainFn, 1000)},
		depths: []int{1, 2, 3, 2, 1, 0},
		top:    []int{FrameRecorded, FramePass, FrameRecorded, FramePass, FrameRecorded, -1},
	}, {
		name:   "at the bottom of a thread, and nested in another",
		evs:    []Event{enter(other, 1000), enter(caller, 900), enter(helper, 800), leave(helper, 800), leave(caller, 900), leave(other, 1000)},
		depths: []int{1, 2, 3, 2, 1, 0},
		top:    []int{FramePass, FramePass, FrameRecorded, FramePass, FramePass, -1},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			depths, left, top := ReplayFlags(tc.evs, flags)
			if !reflect.DeepEqual(depths, tc.depths) || len(left) != 0 || !reflect.DeepEqual(top, tc.top) {
				t.Errorf("depths %v, frames left %v, top frames %v; want %v, none, %v", depths, left, top, tc.depths, tc.top)
			}
		})
	}
}

// An iterator's enumerator whose iterator method was folded (called under
// a folded call, or folded into its caller for want of ring room) has no
// span for its steps to continue: each MoveNext is a transparent frame, its
// calls decided under whatever enumerates it (folded under a folded call,
// recorded under a recorded one), none dropped. One whose iterator method
// was recorded continues that span.
func TestIteratorMadeUnderAFoldedCall(t *testing.T) {
	const (
		root = iota
		folded
		iter // the iterator method
		work
		ctor // its enumerator's constructor
		step // its MoveNext
	)
	flags := []uint32{root: Selected, folded: Folded, iter: Kickoff, work: Selected, ctor: IterCtor, step: IterStep}
	made := []Event{enter(iter, 800), {Fn: ctor, SP: 700, This: 1}, leave(ctor, 700), leave(iter, 800)}
	moveNext := func(sp uint64, more bool) []Event {
		return []Event{{Fn: step, SP: sp, This: 1}, enter(work, sp-100), leave(work, sp-100), {Leave: true, Fn: step, SP: sp, This: 1, Ret: more}}
	}
	cat := func(parts ...[]Event) []Event {
		var out []Event
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		evs  []Event
		// the states of the step and of the call under it, at each step
		stepState, workState int
	}{{
		name: "made and enumerated under a folded call",
		evs: cat([]Event{enter(root, 1000), enter(folded, 900)}, []Event{enter(iter, 800), {Fn: ctor, SP: 700, This: 1}, leave(ctor, 700)},
			moveNext(700, true), moveNext(700, false), []Event{leave(iter, 800), leave(folded, 900), leave(root, 1000)}),
		stepState: FramePass, workState: FrameFold,
	}, {
		name: "made under a folded call, enumerated by a recorded one",
		evs: cat([]Event{enter(root, 1000), enter(folded, 900)}, made, []Event{leave(folded, 900)},
			moveNext(900, true), moveNext(900, false), []Event{leave(root, 1000)}),
		stepState: FramePass, workState: FrameRecorded,
	}, {
		name: "made under a recorded call: its steps continue the iterator method's span",
		evs: cat([]Event{enter(root, 1000)}, []Event{enter(iter, 900), {Fn: ctor, SP: 800, This: 1}, leave(ctor, 800), leave(iter, 900)},
			moveNext(900, true), moveNext(900, false), []Event{leave(root, 1000)}),
		stepState: FrameRecorded, workState: FrameRecorded,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			r := ReplayObjects(tc.evs, flags)
			if len(r.Left) != 0 || r.Depths[len(r.Depths)-1] != 0 {
				t.Fatalf("unbalanced: depths %v, frames left %v", r.Depths, r.Left)
			}
			steps := 0
			for i, e := range tc.evs {
				if e.Leave || (e.Fn != step && e.Fn != work) {
					continue
				}
				want := tc.stepState
				if e.Fn == work {
					want = tc.workState
					steps++
				}
				if r.Top[i] != want {
					t.Errorf("event %d (fn %d): frame state %d, want %d (states %v)", i, e.Fn, r.Top[i], want, r.Top)
				}
			}
			if steps != 2 || r.Dropped != 0 {
				t.Errorf("%d steps' calls, %d dropped; want 2, none", steps, r.Dropped)
			}
		})
	}
}

// A call of a method exempt from folding under a folded call is recorded,
// its span under the one the folded call folds into, as it is once the
// folded method lost its hooks; what it calls is decided under it. A call
// of a method not exempt under the folded call still folds.
func TestExemptUnderAFoldedCall(t *testing.T) {
	const (
		root = iota
		folded
		exempt
		plain
	)
	flags := []uint32{root: Selected, folded: Folded, exempt: Exempt, plain: Selected}
	evs := []Event{enter(root, 1000), enter(folded, 900),
		enter(exempt, 800), enter(plain, 700), leave(plain, 700), leave(exempt, 800),
		enter(plain, 800), leave(plain, 800),
		leave(folded, 900), leave(root, 1000)}
	r := ReplayObjects(evs, flags)
	if len(r.Left) != 0 || r.Depths[len(r.Depths)-1] != 0 || r.Dropped != 0 {
		t.Fatalf("unbalanced or dropped: depths %v, frames left %v, %d dropped", r.Depths, r.Left, r.Dropped)
	}
	for i, want := range map[int]int{1: FrameFold, 2: FrameRecorded, 3: FrameRecorded, 6: FrameFold} {
		if r.Top[i] != want {
			t.Errorf("event %d (fn %d): frame state %d, want %d (states %v)", i, evs[i].Fn, r.Top[i], want, r.Top)
		}
	}
	// The records after the root's enter: the exempt call's and its
	// callee's, nested, then the root's exit with the folded calls.
	var got []uint32
	for _, rec := range r.Records {
		if rec.Kind == RecEnter || rec.Kind == RecLeave {
			got = append(got, uint32(rec.Kind)<<16|rec.Fn)
		}
	}
	want := []uint32{uint32(RecEnter)<<16 | exempt, uint32(RecEnter)<<16 | plain, uint32(RecLeave)<<16 | plain, uint32(RecLeave)<<16 | exempt, uint32(RecLeave)<<16 | root}
	if !slices.Equal(got, want) {
		t.Errorf("records (kind<<16|fn) %x, want %x", got, want)
	}
}

// An enumerable enumerated again: its GetEnumerator (the compiler's
// plumbing) makes a fresh enumerator, which no iterator method's call
// gave a span. Its first MoveNext begins the enumeration's span, decided
// as a call under what enumerates it, and writes it to the enumerator for
// the later steps (continuations) and Dispose (which ends it). Under a
// folded call the enumeration folds, its steps transparent; a Dispose of
// an enumerator never stepped is no span.
func TestIteratorEnumeratedAgain(t *testing.T) {
	const (
		root = iota
		folded
		iter    // the iterator method
		work    // what a step calls
		ctor    // its enumerator's constructor
		step    // its MoveNext
		dispose // its Dispose
		getEnum // its GetEnumerator
	)
	flags := []uint32{root: Selected, folded: Folded, iter: Kickoff, work: Selected, ctor: IterCtor, step: IterStep, dispose: IterEnd, getEnum: Plumbing}
	moveNext := func(obj int, sp uint64, more bool) []Event {
		return []Event{{Fn: step, SP: sp, This: obj}, enter(work, sp-100), leave(work, sp-100), {Leave: true, Fn: step, SP: sp, This: obj, Ret: more}}
	}
	disposed := func(obj int, sp uint64) []Event {
		return []Event{{Fn: dispose, SP: sp, This: obj}, {Leave: true, Fn: dispose, SP: sp, This: obj}}
	}
	// The second enumeration's enumerator, object 2, made by object 1's
	// GetEnumerator.
	again := []Event{{Fn: getEnum, SP: 800, This: 1}, {Fn: ctor, SP: 700, This: 2}, leave(ctor, 700), {Leave: true, Fn: getEnum, SP: 800, This: 1}}
	cat := func(parts ...[]Event) []Event {
		var out []Event
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	first := cat([]Event{enter(iter, 900), {Fn: ctor, SP: 800, This: 1}, leave(ctor, 800), leave(iter, 900)},
		moveNext(1, 900, true), moveNext(1, 900, false), disposed(1, 900))

	t.Run("under a recorded call", func(t *testing.T) {
		evs := cat([]Event{enter(root, 1000)}, first, again, moveNext(2, 900, true), moveNext(2, 900, true), moveNext(2, 900, false),
			disposed(2, 900), []Event{leave(root, 1000)})
		r := ReplayObjects(evs, flags)
		if len(r.Left) != 0 || r.Depths[len(r.Depths)-1] != 0 || r.Dropped != 0 {
			t.Fatalf("unbalanced or dropped: depths %v, frames left %v, %d dropped", r.Depths, r.Left, r.Dropped)
		}
		for i, e := range evs {
			if !e.Leave && (e.Fn == step || e.Fn == work || e.Fn == dispose) && r.Top[i] != FrameRecorded {
				t.Errorf("event %d (fn %d, object %d): frame state %d, want recorded", i, e.Fn, e.This, r.Top[i])
			}
		}
		// Both enumerators ended (Dispose): the marks say so, and the
		// second enumeration's span was written to its enumerator.
		for o := 0; o < 2; o++ {
			if w := r.Objects[o]; w != [4]uint64{0, 0, 0, AsyncUntraced} {
				t.Errorf("object %d after Dispose: %#x, want ended", o+1, w)
			}
		}
		// Stopped before Dispose: the fields carry the enumeration's span.
		mid := cat([]Event{enter(root, 1000)}, first, again, moveNext(2, 900, true))
		r = ReplayObjects(mid, flags)
		w := r.Objects[1]
		if w[2] == 0 || w[0]|w[1] == 0 || w[3] != AsyncCheck(w[0], w[1], w[2]) {
			t.Errorf("the second enumerator's fields %#x, want a span", w)
		}
	})
	t.Run("under a folded call", func(t *testing.T) {
		evs := cat([]Event{enter(root, 1000)}, first, []Event{enter(folded, 950)}, again, moveNext(2, 900, true), moveNext(2, 900, false),
			disposed(2, 900), []Event{leave(folded, 950), leave(root, 1000)})
		r := ReplayObjects(evs, flags)
		if len(r.Left) != 0 || r.Depths[len(r.Depths)-1] != 0 || r.Dropped != 0 {
			t.Fatalf("unbalanced or dropped: depths %v, frames left %v, %d dropped", r.Depths, r.Left, r.Dropped)
		}
		steps := 0
		for i, e := range evs[len(first)+1:] {
			i += len(first) + 1
			switch {
			case e.Leave:
			case e.Fn == step && steps == 0:
				steps++
				if r.Top[i] != FrameFold {
					t.Errorf("event %d: the first step %d, want folded", i, r.Top[i])
				}
			case e.Fn == step || e.Fn == dispose:
				if r.Top[i] != FramePass {
					t.Errorf("event %d (fn %d): state %d, want transparent", i, e.Fn, r.Top[i])
				}
			case e.Fn == work:
				if r.Top[i] != FrameFold {
					t.Errorf("event %d: a step's call %d, want folded", i, r.Top[i])
				}
			}
		}
		if w := r.Objects[1]; w != [4]uint64{0, 0, 0, AsyncFolded} {
			t.Errorf("the second enumerator's fields %#x, want folded", w)
		}
	})
	t.Run("disposed before a step", func(t *testing.T) {
		evs := cat([]Event{enter(root, 1000)}, first, again, disposed(2, 900), []Event{leave(root, 1000)})
		r := ReplayObjects(evs, flags)
		if len(r.Left) != 0 || r.Depths[len(r.Depths)-1] != 0 {
			t.Fatalf("unbalanced: depths %v, frames left %v", r.Depths, r.Left)
		}
		if i := len(evs) - 3; r.Top[i] != FramePass {
			t.Errorf("Dispose of a fresh enumerator: state %d, want transparent", r.Top[i])
		}
	})
}

// A method that only shed traces call is judged as a recorded one would
// be: each of its calls timed until the rule has judged enough of them,
// then 1 in 64. It folds after the rule's calls, not 64 times as many.
// Right under the trace's root (a request's entry under the lambda a loop
// queued) it is never judged, as it would not be in a recorded trace:
// shedding must not take a request away. Nor is a call of a method's
// that is its first in the trace: a method called once in each request
// never folds.
func TestShedCallsFoldAsRecordedOnes(t *testing.T) {
	tests := []struct {
		name       string
		min        uint32
		calls      int
		shape      ShedShape
		wantFolded bool
		judgedMin  uint32 // judged calls at least
		judgedMax  uint32 // at most
		// Timed calls the rule did not judge, at most: a call is timed
		// only if the rule may judge it as far as is known when it
		// begins; whether it is a unit of work is known at its end.
		unjudgedTimed int
	}{
		{"past the rule's calls", 250, 300, ShedNested, true, 250, 300, 0},
		{"short of them", 250, 200, ShedNested, false, 199, 199, 0}, // all but the trace's first
		{"a small rule", 10, 20, ShedNested, true, 10, 20, 0},
		// A thread's outermost frame: its calls may be a loop's requests.
		{"right under the thread's root", 10, 300, ShedDirect, false, 0, 0, 0},
		// Each root is the request's handler, its calls the request's
		// parts: a method called once in each request is not judged, one
		// called again is.
		{"once under each root a serving frame's call began", 10, 300, ShedServed, false, 0, 0, 0},
		{"twice under each root a serving frame's call began", 10, 300, ShedServedTwice, true, 10, 150, 0},
		// A serving frame's calls: a getter beside a unit of work folds
		// (a CPU-bound Main's loop), as does one that calls one helper; a
		// leaf handler alone does not, nor does a handler that works
		// through calls, even once what it calls folded and lost its hooks
		// (its first calls, units, are timed until they make it a
		// request's handler).
		{"a getter beside a unit of work", 10, 300, ShedGetter, true, 10, 300, 0},
		{"a getter calling one helper", 10, 300, ShedWrapper, true, 10, 300, 0},
		{"a getter whose first call ran a type initializer", 10, 300, ShedLazyGetter, true, 10, 300, 1},
		{"a leaf that is all a serving frame calls", 10, 300, ShedLoneLeaf, false, 0, 0, 0},
		{"a serving frame's calls that make calls", 10, 300, ShedHandler, false, 0, 0, 8},
		{"a handler whose callees lost their hooks", 10, 1000, ShedHandlerLeaf, false, 0, 0, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// 10 ms: no call of the replay is long, however loaded the machine.
			judged, timed, folded, rejit := ShedFold(tt.min, 10_000_000, tt.calls, tt.shape)
			if folded != tt.wantFolded || judged < tt.judgedMin || judged > tt.judgedMax {
				t.Errorf("%d calls in shed traces (shape %d), rule of %d: %d judged, folded %v; want %d to %d judged, folded %v",
					tt.calls, tt.shape, tt.min, judged, folded, tt.judgedMin, tt.judgedMax, tt.wantFolded)
			}
			if timed < int(judged) || timed > int(judged)+tt.unjudgedTimed {
				t.Errorf("shape %d: %d calls timed, %d judged; want the judged ones and at most %d more", tt.shape, timed, judged, tt.unjudgedTimed)
			}
			// None of its calls began a request: once folded it may lose
			// its hooks (a getter a serving frame called too).
			if folded && !rejit {
				t.Errorf("shape %d: folded, but kept from re-JIT", tt.shape)
			}
		})
	}
}

// Recording admitted calls adds to the time the CPU budget counts (one
// record in 8 timed, counted 8 times); calls of a shed trace add nothing.
func TestRecordTimeCountsRecordedCalls(t *testing.T) {
	before := RecordNs()
	evs := []Event{enter(mainFn, 1000)}
	for i := 0; i < 32; i++ {
		evs = append(evs, enter(helper, 900), leave(helper, 900))
	}
	Replay(append(evs, leave(mainFn, 1000)))
	recorded := RecordNs()
	if recorded <= before {
		t.Errorf("66 records: the recording time stayed %d ns", before)
	}
	ShedFold(250, 10_000_000, 64, ShedNested)
	if after := RecordNs(); after != recorded {
		t.Errorf("64 calls of a shed trace: the recording time went from %d to %d ns", recorded, after)
	}
}

// A serving async loop's resume (an accept loop awaiting its next request)
// writes its continuation record only when a record is written under it:
// a resume whose request is not recorded (shed, unsampled) writes nothing,
// and keeps no ring room once it returns. One that is recorded writes the
// continuation first, with the time the resume began, so that the drainer
// sees what it would have seen had the record been written at once.
func TestServingLoopResumeWritesOnlyUnderRecords(t *testing.T) {
	const (
		kickoff = iota // the loop's async method
		moveNext
		handler
		folded
	)
	flags := []uint32{kickoff: Kickoff, moveNext: AsyncLoopStep, handler: Selected, folded: Folded}
	resume := func(under ...Event) []Event { return step(moveNext, under...) }
	call := func(fn int) []Event { return []Event{enter(fn, 800), leave(fn, 800)} }
	// The loop's call and first step, then resumes until it serves (the
	// rule counts 2 resumes: it serves from the one past them).
	evs := []Event{enter(kickoff, 1000), {Fn: moveNext, SP: 900, This: 1}, {Leave: true, Fn: moveNext, SP: 900, This: 1}, leave(kickoff, 1000)}
	for range 3 {
		evs = append(evs, resume()...)
	}
	empty := len(evs)
	evs = append(evs, resume()...)
	withCall := len(evs)
	evs = append(evs, resume(call(handler)...)...)
	withFold := len(evs)
	evs = append(evs, resume(call(folded)...)...)
	last := len(evs)
	evs = append(evs, resume()...)

	r := ReplayServing(evs, flags, 2)
	if len(r.Left) != 0 || r.Dropped != 0 {
		t.Fatalf("frames left %v, %d dropped", r.Left, r.Dropped)
	}
	for i, e := range evs {
		if e.Leave && r.Depths[i] == 0 && r.Reserved[i] != 0 {
			t.Errorf("event %d: %d ring bytes kept with no frame open", i, r.Reserved[i])
		}
	}
	if !servingIn(recordsBetween(r, 1, empty-1)) {
		t.Fatalf("the loop did not serve by event %d: records %+v", empty, r.Records)
	}
	for _, at := range []int{empty, last} {
		if r.Heads[at+1] != r.Heads[at-1] {
			t.Errorf("a resume with nothing recorded under it (events %d-%d) wrote %d bytes", at, at+1, r.Heads[at+1]-r.Heads[at-1])
		}
	}
	// What the resume with the handler's call wrote: the continuation,
	// the handler's root and its exit, the continuation's exit.
	recs := recordsBetween(r, withCall, withCall+3)
	want := []Record{{Kind: RecEnter, Flags: FlagResume, Fn: moveNext}, {Kind: RecEnter, Flags: FlagRoot, Fn: handler},
		{Kind: RecLeave, Fn: handler}, {Kind: RecLeave, Fn: moveNext}}
	if !sameRecords(recs, want) || recs[0].Time > recs[1].Time {
		t.Errorf("the resume with a call under it wrote %+v, want %+v (the continuation no later than the call)", recs, want)
	}
	// A folded call under a resume counts into it: its exit carries the
	// fold part.
	recs = recordsBetween(r, withFold, withFold+3)
	want = []Record{{Kind: RecEnter, Flags: FlagResume, Fn: moveNext}, {Kind: RecLeave, Flags: FlagFolded, Fn: moveNext}}
	if !sameRecords(recs, want) {
		t.Errorf("the resume with a folded call under it wrote %+v, want %+v", recs, want)
	}
}

func servingIn(recs []Record) bool {
	for _, r := range recs {
		if r.Kind == RecServing {
			return true
		}
	}
	return false
}

// recordsBetween returns the records written by events from to to
// (inclusive).
func recordsBetween(r Replayed, from, to int) []Record {
	var out []Record
	pos := r.Heads[0]
	for _, rec := range r.Records {
		if pos >= r.Heads[from-1] && pos < r.Heads[to] {
			out = append(out, rec)
		}
		pos += uint64(rec.Size)
	}
	return out
}

// sameRecords compares kinds, functions and the flags want names.
func sameRecords(got, want []Record) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i].Kind != want[i].Kind || got[i].Fn != want[i].Fn || got[i].Flags&want[i].Flags != want[i].Flags {
			return false
		}
	}
	return true
}

// A call that leaves by a tail call is not over until the call that
// replaced it returns: when the thread's next hook is the Enter of a method
// its method calls in tail position (its IL says which), the callee nests
// under it and both end at the callee's Leave, the caller's exit a tail
// call. Otherwise (its callee was not traced) it ends where it
// tail-called, before what comes next: a call its caller makes next is
// not taken for its callee. A root's tail call so keeps its work in its
// trace.
func TestTailCallKeepsTheCalleeUnderItsCaller(t *testing.T) {
	const (
		root = iota
		a
		b
		c
	)
	none := -1
	tail := func(fn int, sp uint64) Event { return Event{Tail: true, Fn: fn, SP: sp} }
	tests := []struct {
		name   string
		tails  []int // what each function calls in tail position
		evs    []Event
		depths []int
		recs   []Record // written after the first event
	}{{
		name:   "a traced callee",
		tails:  []int{none, b, none, none},
		evs:    []Event{enter(root, 1000), enter(a, 900), tail(a, 900), enter(b, 950), leave(b, 950), leave(root, 1000)},
		depths: []int{1, 2, 2, 3, 1, 0},
		recs: []Record{{Kind: RecEnter, Fn: a}, {Kind: RecEnter, Fn: b}, {Kind: RecLeave, Fn: b},
			{Kind: RecTail, Fn: a}, {Kind: RecLeave, Fn: root}},
	}, {
		name:  "a chain of tail calls",
		tails: []int{none, b, c, none},
		evs: []Event{enter(root, 1000), enter(a, 900), tail(a, 900), enter(b, 850), tail(b, 850), enter(c, 900),
			leave(c, 900), leave(root, 1000)},
		depths: []int{1, 2, 2, 3, 3, 4, 1, 0},
		recs: []Record{{Kind: RecEnter, Fn: a}, {Kind: RecEnter, Fn: b}, {Kind: RecEnter, Fn: c}, {Kind: RecLeave, Fn: c},
			{Kind: RecTail, Fn: b}, {Kind: RecTail, Fn: a}, {Kind: RecLeave, Fn: root}},
	}, {
		name:   "a callee not traced",
		tails:  []int{none, b, none, none},
		evs:    []Event{enter(root, 1000), enter(a, 900), tail(a, 900), leave(root, 1000)},
		depths: []int{1, 2, 2, 0},
		recs:   []Record{{Kind: RecEnter, Fn: a}, {Kind: RecTail, Fn: a}, {Kind: RecLeave, Fn: root}},
	}, {
		name:   "the caller's next call",
		tails:  []int{none, b, none, none},
		evs:    []Event{enter(root, 1000), enter(a, 900), tail(a, 900), enter(c, 900), leave(c, 900), leave(root, 1000)},
		depths: []int{1, 2, 2, 2, 1, 0},
		recs: []Record{{Kind: RecEnter, Fn: a}, {Kind: RecTail, Fn: a}, {Kind: RecEnter, Fn: c}, {Kind: RecLeave, Fn: c},
			{Kind: RecLeave, Fn: root}},
	}, {
		name:   "a method with no call in tail position",
		tails:  []int{none, none, none, none},
		evs:    []Event{enter(root, 1000), enter(a, 900), tail(a, 900), enter(b, 900), leave(b, 900), leave(root, 1000)},
		depths: []int{1, 2, 1, 2, 1, 0},
		recs: []Record{{Kind: RecEnter, Fn: a}, {Kind: RecTail, Fn: a}, {Kind: RecEnter, Fn: b}, {Kind: RecLeave, Fn: b},
			{Kind: RecLeave, Fn: root}},
	}, {
		name:   "the root's own tail call",
		tails:  []int{a, none, none, none},
		evs:    []Event{enter(root, 1000), tail(root, 1000), enter(a, 1000), enter(b, 900), leave(b, 900), leave(a, 1000)},
		depths: []int{1, 1, 2, 3, 2, 0},
		recs: []Record{{Kind: RecEnter, Fn: a}, {Kind: RecEnter, Fn: b}, {Kind: RecLeave, Fn: b}, {Kind: RecLeave, Fn: a},
			{Kind: RecTail, Fn: root}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ReplayTails(tt.evs, []uint32{root: Selected, a: Selected, b: Selected, c: Selected}, tt.tails)
			if !reflect.DeepEqual(r.Depths, tt.depths) || len(r.Left) != 0 {
				t.Errorf("depths %v (left %v), want %v", r.Depths, r.Left, tt.depths)
			}
			if !sameRecords(r.Records, tt.recs) {
				t.Errorf("records %+v, want %+v", r.Records, tt.recs)
			}
			for _, rec := range r.Records {
				if rec.Kind == RecEnter && rec.Flags&FlagRoot != 0 {
					t.Errorf("%+v begins a trace of its own: it is its caller's callee", rec)
				}
			}
			// Exits in order of time: the caller's no earlier than its
			// callee's.
			for i := 1; i < len(r.Records); i++ {
				if r.Records[i].Kind != RecEnter && r.Records[i-1].Kind != RecEnter && r.Records[i].Time < r.Records[i-1].Time {
					t.Errorf("record %d (%+v) ends before record %d (%+v)", i, r.Records[i], i-1, r.Records[i-1])
				}
			}
		})
	}
}

// A work item's run that jumps to its callback (CoreLib's
// QueueUserWorkItem run, `callback(_state)`, once optimized) stays until
// the callback's Enter, told by the words it is called with, so that the
// callback joins the item's maker's trace; any other next call ends the
// run first and begins a trace of its own.
func TestWorkRunTailCallKeepsItsMakersTrace(t *testing.T) {
	cases := []struct {
		name                  string
		callee                int
		noWords, noArg, above bool
		want                  RunTail
	}{
		{"a static callback given the argument", RunCalleeStatic, false, false, false, RunTail{true, 2, 0}},
		{"an instance callback of the delegate's target", RunCalleeInstance, false, false, false, RunTail{true, 2, 0}},
		{"an instance callback, no argument", RunCalleeInstance, false, true, false, RunTail{true, 2, 0}},
		{"the callback entering above the run", RunCalleeStatic, false, false, true, RunTail{true, 2, 0}},
		{"another call", RunCalleeOther, false, false, false, RunTail{false, 1, 0}},
		{"a run that knows no delegate", RunCalleeStatic, true, false, false, RunTail{false, 1, 0}},
		// Nothing to tell it by: a static method's delegate given null.
		{"a static callback given null", RunCalleeStaticNullArg, false, true, false, RunTail{false, 1, 0}},
	}
	for _, c := range cases {
		if got := ReplayRunTail(c.callee, c.noWords, c.noArg, c.above); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

// A loop whose own trace is not exported (shed under load, or not
// sampled) serves as the same loop recorded does: the calls it makes once
// the serving rule says so begin traces of their own, sampled and
// admitted on their own, each with its call under it; but with no link,
// as there is no span to link to. What it calls before that is its own
// trace's, and writes nothing.
func TestUnexportedLoopServes(t *testing.T) {
	const (
		loop = iota // a thread's outermost frame, or the loop's async method
		moveNext
		handler
		part
	)
	flags := []uint32{loop: Selected, moveNext: AsyncLoopStep, handler: Selected, part: Selected}
	request := []Event{enter(handler, 800), enter(part, 700), leave(part, 700), leave(handler, 800)}
	const requests = 10

	// A thread's loop calling the handler.
	calls := []Event{enter(loop, 1000)}
	for range requests {
		calls = append(calls, request...)
	}
	calls = append(calls, leave(loop, 1000))

	// An async loop: its call and first step, then a resume per request.
	async := append(append([]Event{enter(loop, 1000)}, step(moveNext)...), leave(loop, 1000))
	for range requests {
		async = append(async, step(moveNext, request...)...)
	}
	asyncFlags := append([]uint32(nil), flags...)
	asyncFlags[loop] = Kickoff

	// The requests' records: what a served request writes.
	requestRecords := func(recs []Record) (out []Record, links int) {
		for _, r := range recs {
			if (r.Fn == handler || r.Fn == part) && (r.Kind == RecEnter || r.Kind == RecLeave) {
				out = append(out, r)
				if r.Flags&FlagLink != 0 {
					links++
				}
			}
		}
		return out, links
	}
	for _, tc := range []struct {
		name     string
		evs      []Event
		flags    []uint32
		children uint32
	}{
		{"thread loop", calls, flags, 5},
		{"async loop", async, asyncFlags, 3},
	} {
		// The same loop recorded: its first requests are its children, the
		// rest (from the first root on) what the unexported loop's are.
		recorded := ReplayServing(tc.evs, tc.flags, tc.children)
		all, _ := requestRecords(recorded.Records)
		var want []Record
		roots := 0
		for _, r := range all {
			if r.Kind == RecEnter && r.Flags&FlagRoot != 0 {
				roots++
			}
			if roots > 0 {
				r.Flags &^= FlagLink // linked to the loop's span
				want = append(want, r)
			}
		}
		if roots == 0 || roots == requests {
			t.Fatalf("%s: recorded, the loop serves %d of %d requests; the case needs some before it serves", tc.name, roots, requests)
		}
		for _, first := range []struct {
			name string
			how  int
		}{{"shed", FirstShed}, {"unsampled", FirstUnsampled}} {
			t.Run(tc.name+", "+first.name, func(t *testing.T) {
				r := ReplayFirst(tc.evs, tc.flags, tc.children, first.how)
				if len(r.Left) != 0 || r.Dropped != 0 {
					t.Fatalf("frames left %v, %d dropped", r.Left, r.Dropped)
				}
				got, links := requestRecords(r.Records)
				if len(got) != len(r.Records) {
					t.Errorf("the loop's own trace wrote records: %+v", r.Records)
				}
				if !sameRecords(got, want) {
					t.Errorf("the requests wrote %+v, want %+v (the same loop recorded: %d served)", got, want, roots)
				}
				if links != 0 {
					t.Errorf("%d served requests link to a span not exported", links)
				}
			})
		}
	}
}

// The fold rule judges an iterator by its steps (each MoveNext call), in
// the enumerations after its first in a trace: hot and short, its MoveNext
// folds (Go then folds the iterator method and its enumerator with it),
// whether its enumerations are recorded or folded; one enumerated once in
// each trace, or whose steps are long, does not. Once MoveNext is folded,
// an enumeration begun at its first MoveNext folds too.
func TestIteratorFoldsByItsSteps(t *testing.T) {
	const (
		root = iota
		wrap // a call the enumerations are made under
		iter // the iterator method
		ctor // its enumerator's constructor
		step // its MoveNext
		dispose
	)
	const minCalls = 20
	flags := func(wrapFlags, stepFlags uint32) []uint32 {
		return []uint32{root: Selected, wrap: wrapFlags, iter: Kickoff, ctor: IterStart, step: stepFlags, dispose: IterEnd}
	}
	// An enumeration of three elements on a new enumerator (object 1),
	// made by the iterator method's call and disposed by its caller.
	enumeration := func(sp uint64) []Event {
		evs := []Event{enter(iter, sp), {Fn: ctor, SP: sp - 100, This: 1, Fresh: true}, leave(ctor, sp-100), leave(iter, sp)}
		for i := 0; i < 4; i++ {
			evs = append(evs, Event{Fn: step, SP: sp, This: 1}, Event{Leave: true, Fn: step, SP: sp, This: 1, Ret: i < 3})
		}
		return append(evs, Event{Fn: dispose, SP: sp, This: 1}, Event{Leave: true, Fn: dispose, SP: sp, This: 1})
	}
	many := func(n int, under ...int) []Event {
		var evs []Event
		for k := 0; k < n; k++ {
			sp := uint64(1000)
			for _, fn := range under {
				evs = append(evs, enter(fn, sp))
				sp -= 100
			}
			evs = append(evs, enumeration(sp)...)
			for i := len(under) - 1; i >= 0; i-- {
				sp += 100
				evs = append(evs, leave(under[i], sp))
			}
		}
		return evs
	}
	inRoot := func(evs []Event, under ...int) []Event {
		return append(append([]Event{enter(root, 2000)}, evs...), leave(root, 2000))
	}
	for _, tc := range []struct {
		name   string
		evs    []Event
		flags  []uint32
		maxNs  uint64
		folded bool
	}{
		{name: "enumerated again and again in one trace, recorded", evs: inRoot(many(30, wrap)), flags: flags(Selected, IterStep), maxNs: 1e9, folded: true},
		{name: "enumerated again and again under a folded call", evs: inRoot(many(30, wrap)), flags: flags(Folded, IterStep), maxNs: 1e9, folded: true},
		{name: "enumerated once in each trace", evs: many(30, root), flags: flags(Selected, IterStep), maxNs: 1e9, folded: false},
		{name: "its steps long", evs: inRoot(many(30, wrap)), flags: flags(Selected, IterStep), maxNs: 1, folded: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := ReplayFolding(tc.evs, tc.flags, minCalls, tc.maxNs)
			if len(r.Left) != 0 || r.Depths[len(r.Depths)-1] != 0 || r.Dropped != 0 {
				t.Fatalf("unbalanced or dropped: frames left %v, %d dropped", r.Left, r.Dropped)
			}
			if got := r.FnFlags[step]&FnFolded != 0; got != tc.folded {
				t.Errorf("MoveNext folded: %v, want %v (flags %#x)", got, tc.folded, r.FnFlags[step])
			}
			for _, fn := range []int{iter, ctor, dispose} {
				if r.FnFlags[fn]&FnFolded != 0 {
					t.Errorf("function %d folded by the hooks: only MoveNext is judged", fn)
				}
			}
		})
	}
	t.Run("MoveNext folded: an enumeration begun at its first step folds", func(t *testing.T) {
		evs := inRoot([]Event{enter(wrap, 1000),
			{Fn: step, SP: 900, This: 2, Fresh: true}, {Leave: true, Fn: step, SP: 900, This: 2, Ret: true},
			{Fn: step, SP: 900, This: 2}, {Leave: true, Fn: step, SP: 900, This: 2},
			{Fn: dispose, SP: 900, This: 2}, {Leave: true, Fn: dispose, SP: 900, This: 2},
			leave(wrap, 1000)})
		r := ReplayFolding(evs, flags(Selected, IterStep|FnFolded), minCalls, 1e9)
		if len(r.Left) != 0 || r.Dropped != 0 {
			t.Fatalf("unbalanced or dropped: frames left %v, %d dropped", r.Left, r.Dropped)
		}
		// After the root's and wrap's enters: the first step folds into
		// wrap's span, the second is a transparent frame.
		if r.Top[2] != FrameFold || r.Top[4] != FramePass {
			t.Errorf("steps' frame states %d, %d; want folded %d, transparent %d (states %v)", r.Top[2], r.Top[4], FrameFold, FramePass, r.Top)
		}
	})
}
