package otelbridge

import "github.com/clrotel/clrotel/folding"

// What the hooks folded into a span (calls of hot methods counted, not
// traced) comes with each exit record, raw. It is kept raw on the frame,
// and on an async or iterator span's state across its steps, and rendered
// into attributes once, when the span is exported: a span of many steps
// adds its steps' counts and lists each method once, and rendering each
// step's list only to merge the strings would cost more than the step.

// Fold adds s, what the hooks folded into t's innermost span until its
// exit record, to that span: call it before Exit.
func (b *Bridge) Fold(t *Thread, s folding.Span) {
	if n := len(t.stack); n > 0 && s.Calls > 0 {
		t.stack[n-1].fold.Add(s)
	}
}

// renderFold adds what was folded into f to the attributes it ends with.
func (b *Bridge) renderFold(f *frame, e *ending) {
	if f.fold.Calls == 0 {
		return
	}
	e.attrs = append(e.attrs, folding.Attrs(f.fold)...)
	f.fold = folding.Span{}
}
