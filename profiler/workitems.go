package main

/*
#include "workitems.h"
#include "gcevents.h"
*/
import "C"

import (
	"github.com/clrotel/clrotel/flows"
	"github.com/clrotel/clrotel/naming"
	"github.com/clrotel/clrotel/sampling"
	"github.com/clrotel/clrotel/selection"
	"github.com/clrotel/clrotel/summary"
)

// workFunction makes f the maker or the run of one of CoreLib's work items
// (workitems.c): no span; the item carries its maker's span to its run.
func (p *profiler) workFunction(f *function, fid uint64, index uint32, m *naming.Method, kind selection.Special) *function {
	if !m.Sig.HasThis {
		return f
	}
	if kind.Maker() {
		mod, err := p.resolver.ModuleInfo(m.ModuleID)
		if err != nil {
			p.log.Debugf("work items: %s: %v", m.SelectName, err)
			return f
		}
		if !flows.WorkMaker(m.TypeName, m.Name, naming.ParamTypes(mod.Meta, m.Sig)) {
			return f
		}
	}
	f.method = bridgeMethod(m)
	f.c = newCFn(fid, index, uint32(selection.WorkFlags(kind, flows.WorkThread(m.TypeName))), sampling.MethodSetting{})
	// Whether the maker's flow is suppressed is read through the thread's
	// ExecutionContext.
	p.ambient.refresh(false)
	return f
}

// workCounts is what workitems.c counted: items made under a span, runs
// that continued their maker's trace, items not recorded for a full table,
// and items a collection did not report alive (their run starts a trace of
// its own).
func workCounts() (made, joined, full, lostGC uint64) {
	var a, b, c, d C.uint64_t
	C.clr_work_counts(&a, &b, &c, &d)
	return uint64(a), uint64(b), uint64(c), uint64(d)
}

// workGCCounts is how many collections workitems.c followed and how many
// ranges of live objects they reported.
func workGCCounts() (gcs, ranges uint64) {
	var a, b C.uint64_t
	C.clr_work_gc_counts(&a, &b)
	return uint64(a), uint64(b)
}

// gcSession is what gcevents.c's EventPipe session reported.
func gcSession() summary.GCSession {
	var state C.int
	var events, malformed C.uint64_t
	C.clr_gcevents_counts(&state, &events, &malformed)
	return summary.GCSession{State: int(state), Events: uint64(events), Malformed: uint64(malformed)}
}
