package main

/*
#include "capture.h"
*/
import "C"

import "github.com/clrotel/clrotel/selection"

// joinGroup makes f, at index, a member of its iterator's group (if it is
// one of an iterator's functions): folded at once when the group already
// folded; exempt from folding, with the others, when one of them is
// (CLROTEL_FOLD_EXEMPT names the iterator method, the rule judges its
// MoveNext).
func (p *profiler) joinGroup(f *function, index uint32) {
	if f.c == nil || f.group.Type == 0 {
		return
	}
	fold, exempts := p.groups.Add(f.group, index, f.flags()&selection.FnFoldExempt != 0)
	for _, j := range exempts {
		if g := p.funcs.At(j); g != nil && g.c != nil {
			C.clr_fn_exempt(g.c)
		}
	}
	if fold && f.flags()&selection.FnIterEnd == 0 {
		C.clr_fn_fold_with_iterator(f.c)
	}
}

// iterFolded is told of each function found folded: when it is an
// iterator's judge (its enumerator's MoveNext, which the hooks fold by its
// steps: hooks.c iter_step_judge), the iterator method and the
// enumerator's other methods fold with it, all but Dispose marked to lose
// their hooks (clr_rejit_wanted). The re-JIT loop finds the others folded
// at its next look; the judge is about to be batched.
func (p *profiler) iterFolded(i uint32) {
	f := p.funcs.At(i)
	if f == nil || f.group.Type == 0 || f.flags()&selection.FnIterStep == 0 {
		return
	}
	n := 0
	for _, j := range p.groups.Fold(f.group) {
		// Dispose keeps its hooks: an enumeration open now ends there.
		if g := p.funcs.At(j); g != nil && g.c != nil && g.flags()&selection.FnIterEnd == 0 {
			C.clr_fn_fold_with_iterator(g.c)
			n++
		}
	}
	if n > 0 {
		p.log.Debugf("folded with its iterator's steps: %d functions of %s", n, f.method.SpanName)
	}
}
