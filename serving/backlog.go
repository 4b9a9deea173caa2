package serving

import "time"

// Backlog decides which finished calls of a thread's outermost frame wait
// for that frame's fate, so that the calls it made before it began serving
// become traces of their own too. The frame (outside any unit of work, so
// that it may serve) nests its calls until the rule says it serves: its
// first calls, up to Rule.Children of them and within Rule.After of its
// start, end before anyone knows whether they were a service's first
// requests or a batch program's steps. Their spans (each call's and those
// under it) are held; when the frame begins serving, each held call becomes
// a trace of its own, linked to the frame, as its later calls are; when
// the frame ends first, or the window closes without it serving, they are
// exported nested, as they were recorded.
//
// What is held is bounded: at most Children calls, at most MaxHeldSpans
// spans, for at most twice After past the frame's start (After, plus as
// long again for the drainer to read the thread's records).
type Backlog struct {
	window   int64  // unix ns: a call started from then on is no first call
	deadline int64  // unix ns: released nested by then, serving or not
	left     uint32 // calls that may still be held
	spans    int    // spans held
	open     bool
}

// MaxHeldSpans bounds the spans one thread's backlog holds: a first call
// with a subtree larger than this is a batch step, not a request.
const MaxHeldSpans = 4096

// Slack is how late past After a call may start and still be one the rule
// let nest: the hooks judge a frame's age on the coarse clock, which lags
// the precise one a call's start is read on by a few milliseconds.
const Slack = 50 * time.Millisecond

// Verdict is what becomes of a finished span, or of what is held.
type Verdict int

const (
	Pass    Verdict = iota // not held: exported now, nested, as recorded
	Hold                   // held until the frame serves, ends or the window closes
	Release                // the window closed: what is held goes now, nested, and this span with it
)

// Backlog returns the backlog of an outermost frame born at born (unix
// ns), or a closed one when neither rule can make it serve.
func (r Rule) Backlog(born int64) Backlog {
	if r.After <= 0 && r.Children == 0 {
		return Backlog{}
	}
	b := Backlog{open: true, left: ^uint32(0), window: 1<<63 - 1, deadline: 1<<63 - 1}
	if r.Children > 0 {
		// The Children-th call serves: at most Children-1 nest.
		b.left = r.Children - 1
	}
	if r.After > 0 {
		b.window = born + int64(r.After+Slack)
		b.deadline = b.window + int64(r.After)
	}
	return b
}

// Open reports whether calls may still be held.
func (b *Backlog) Open() bool { return b.open }

// Call says whether the call the frame makes at start, a nested one (the
// hooks did not make it a trace of its own), is held with the spans under
// it: Hold while the window is open; Release once a call comes that the
// rule would not have let nest had the frame been able to serve (it never
// will: what is held goes nested).
func (b *Backlog) Call(start int64) Verdict {
	if !b.open {
		return Pass
	}
	if b.left == 0 || start >= b.window {
		b.open = false
		return Release
	}
	b.left--
	return Hold
}

// Span says what becomes of one more finished span of a held call: Hold,
// or Release past MaxHeldSpans.
func (b *Backlog) Span() Verdict {
	if !b.open {
		return Pass
	}
	if b.spans >= MaxHeldSpans {
		b.open = false
		return Release
	}
	b.spans++
	return Hold
}

// Due reports whether, at now (unix ns, wall clock), what is held must go
// nested: the frame did not serve within the window, and the drainer has
// had as long again to read the record that says it did.
func (b *Backlog) Due(now int64) bool {
	if b.open && now >= b.deadline {
		b.open = false
		return true
	}
	return false
}

// Close ends the backlog: the frame served or ended, and what it held went.
func (b *Backlog) Close() { *b = Backlog{} }
