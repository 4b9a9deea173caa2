package serving

import "time"

// Rule says when a frame serves: the calls made under it, and the work it
// queues, from then on begin traces of their own, each linked to it; and
// when, short of that, the work a frame queues does (WorkDue). Only a
// frame outside any unit of work can serve; a unit of work is a trace
// begun by this rule, by an entry method, by work run on the thread pool,
// or joined to a caller's Activity.
type Rule struct {
	// After: the outermost traced frame of its thread (Main, a thread's
	// body, an async loop resumed on a pool thread) serves once open this
	// long (open long past any request), and the work any frame queues
	// once that frame is. 0 turns the age rule off.
	After time.Duration
	// Children: the outermost traced frame of its thread serves once it
	// has made this many calls (or resumed this many times), and the work
	// any frame queues, once it has queued this many items. 0 turns the
	// count rule off. Below the outermost frame, a frame open long with
	// many calls is a long computation, whose calls are its parts.
	Children uint32
	// Entry names entry methods (globs over Namespace.Type.Method): each
	// call of one outside any unit of work begins a trace of its own,
	// linked to the span it was called under, for services the rule does
	// not catch.
	Entry []string
}

// Default is the rule with nothing set. After: well past the time of a
// request yet short next to a service's life, so that a service's first
// second is all that precedes it. Children: past the few calls of a
// program's Main or of a thread's body that does one job, and well below
// the 250 calls after which folding judges a method hot (folding.Rule), so
// that a request handler begins traces before it could fold.
func Default() Rule {
	return Rule{After: time.Second, Children: 32}
}

// Frame is what the rule knows of a frame when something starts under it.
type Frame struct {
	Born   time.Time // when its span began (an async loop's: its call)
	Level  int       // 0: the outermost traced frame of its thread
	Calls  uint32    // calls made under it (an async loop's resumes)
	Queued uint32    // work items and closures made under it
	Unit   bool      // in a unit of work's trace
}

// Due reports whether f serves at now under r: its calls and its work
// begin traces of their own.
func (r Rule) Due(f Frame, now time.Time) bool {
	return !f.Unit && f.Level == 0 && (r.aged(f, now) || r.Children > 0 && f.Calls >= r.Children)
}

// WorkDue reports whether the work f queues at now begins traces of its
// own under r, f not serving.
func (r Rule) WorkDue(f Frame, now time.Time) bool {
	return !f.Unit && (r.aged(f, now) || r.Children > 0 && f.Queued >= r.Children)
}

func (r Rule) aged(f Frame, now time.Time) bool {
	return r.After > 0 && now.Sub(f.Born) >= r.After
}
