package completing

import (
	"slices"
	"time"

	"github.com/clrotel/clrotel/otlpsink"
)

// Rule says when a trace is complete.
type Rule struct {
	// Start: no trace is complete before the run is this old, so that a
	// short program's trees are printed once, at its exit.
	Start time.Duration
	// Quiet: a trace whose root span has arrived is complete once no
	// span came for it for this long.
	Quiet time.Duration
	// Orphaned: a trace without its root is complete once no span came
	// for it for this long (0: never; it waits for the end of the run).
	Orphaned time.Duration
	// MaxHeld bounds the spans held (0: no bound). When more are held,
	// the traces heard from least recently are given out, complete or
	// not, until at most half of it is held.
	MaxHeld int
}

// DefaultRule is clrotel run's rule: a program that ends within 3 s is
// printed at its exit; a trace is complete 2 s after its root and last
// span, or 10 s after its last span without a root; at most 100,000
// spans are held.
var DefaultRule = Rule{Start: 3 * time.Second, Quiet: 2 * time.Second, Orphaned: 10 * time.Second, MaxHeld: 100_000}

// Traces holds the spans of the traces not yet given out. It is not safe
// for concurrent use.
type Traces struct {
	rule  Rule
	begin time.Time
	byID  map[string]*pending
	held  int
}

// pending is one trace's spans held so far.
type pending struct {
	id    string
	spans []*otlpsink.Span
	root  bool      // its root span has arrived
	last  time.Time // when its last span arrived
}

// New returns an empty Traces for a run that began at begin.
func New(rule Rule, begin time.Time) *Traces {
	return &Traces{rule: rule, begin: begin, byID: map[string]*pending{}}
}

// Add holds s, which arrived at now. Spans are held by pointer: a trace
// can gather thousands, and growing a slice of them would copy each again.
func (t *Traces) Add(s *otlpsink.Span, now time.Time) {
	p := t.byID[s.TraceID]
	if p == nil {
		p = &pending{id: s.TraceID}
		t.byID[s.TraceID] = p
	}
	p.spans = append(p.spans, s)
	if s.ParentSpanID == "" {
		p.root = true
	}
	p.last = now
	t.held++
}

// Held returns how many spans are held.
func (t *Traces) Held() int { return t.held }

// Complete gives out the spans of the traces complete at now, and of
// those given out to keep within MaxHeld, and forgets them. A trace's
// spans come out together, in arrival order; the traces in no particular
// order (the printer orders them).
func (t *Traces) Complete(now time.Time) []*otlpsink.Span {
	var out []*otlpsink.Span
	if now.Sub(t.begin) >= t.rule.Start {
		for id, p := range t.byID {
			if t.complete(p, now) {
				out = append(out, p.spans...)
				t.held -= len(p.spans)
				delete(t.byID, id)
			}
		}
	}
	if t.rule.MaxHeld > 0 && t.held > t.rule.MaxHeld {
		out = append(out, t.shed()...)
	}
	return out
}

func (t *Traces) complete(p *pending, now time.Time) bool {
	quiet := now.Sub(p.last)
	if p.root {
		return quiet >= t.rule.Quiet
	}
	return t.rule.Orphaned > 0 && quiet >= t.rule.Orphaned
}

// shed gives out the traces heard from least recently (ties by id) until
// at most half of MaxHeld spans are held.
func (t *Traces) shed() []*otlpsink.Span {
	ps := make([]*pending, 0, len(t.byID))
	for _, p := range t.byID {
		ps = append(ps, p)
	}
	slices.SortFunc(ps, func(a, b *pending) int {
		if c := a.last.Compare(b.last); c != 0 {
			return c
		}
		if a.id < b.id {
			return -1
		}
		return 1
	})
	var out []*otlpsink.Span
	for _, p := range ps {
		if t.held <= t.rule.MaxHeld/2 {
			break
		}
		out = append(out, p.spans...)
		t.held -= len(p.spans)
		delete(t.byID, p.id)
	}
	return out
}

// Rest gives out every span still held, and forgets them: the run has
// ended.
func (t *Traces) Rest() []*otlpsink.Span {
	out := make([]*otlpsink.Span, 0, t.held)
	for id, p := range t.byID {
		out = append(out, p.spans...)
		delete(t.byID, id)
	}
	t.held = 0
	return out
}
