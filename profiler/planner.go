package main

/*
#include "values.h"
#include "capture.h"
*/
import "C"

import (
	"errors"
	"sync"

	"github.com/clrotel/clrotel/naming"
	"github.com/clrotel/clrotel/planning"
	"github.com/clrotel/clrotel/profiler/internal/cplan"
	"github.com/clrotel/clrotel/values"
)

// planner runs the value planner (package planning) for the profiler:
// it answers the planner through typeSource, copies its plans into C
// memory for the hooks, and plans, on a goroutine of its own, the classes
// the drainer met without a plan.
type planner struct {
	*planning.Planner
	p      *profiler
	src    planning.TypeSource
	redact *values.Redactor
	c      cplan.Plans // the plans' copies in C memory

	queueMu  sync.Mutex
	queued   map[uint64]bool
	requests chan uint64

	methodsMu sync.Mutex
	methods   map[uint64]string // code address -> method (MethodAt), "" if none

	// rt guards the runtime calls made from Go's own threads (the
	// planner's loop, the drainer's MethodAt, the warm-up): once Shutdown
	// has returned to the runtime (rtClosed), what they would ask about
	// is being torn down.
	rt       sync.RWMutex
	rtClosed bool
}

// fnPlan is a function's C plan and how its values render.
type fnPlan struct {
	c     *C.clr_fn_plan
	enter []values.Slot // this (if any), the arguments, the statics
	ret   []values.Slot
}

func newPlanner(p *profiler, redact *values.Redactor, statics []string, messages bool) *planner {
	pl := &planner{
		p: p, redact: redact,
		queued:   map[uint64]bool{},
		requests: make(chan uint64, 1024),
	}
	rt := typeSource{resolver: p.resolver}
	pl.src = planning.PerModule(rt, rt.metadata)
	pl.Planner = planning.New(pl.src, (*planSink)(pl), planning.Options{
		Redact: redact, Statics: statics, Messages: messages, Log: p.log,
	})
	return pl
}

// planSink hands the planner's class plans and System.Exception's layout
// to the hooks.
type planSink planner

var errPlanTableFull = errors.New("class plan table full")

func (s *planSink) Publish(p *planning.Class) error {
	if C.clr_plan_publish((*C.clr_class_plan)(s.c.Class(p))) != 0 {
		return errPlanTableFull
	}
	return nil
}

func (s *planSink) ExceptionLayout(message, inner uint32) {
	C.clr_set_exception_layout(C.uint32_t(message), C.uint32_t(inner))
}

// functionPlan builds the plan of a traced method, on the thread that
// JIT-compiles it, and copies it into C memory.
func (pl *planner) functionPlan(m *naming.Method) *fnPlan {
	f := pl.Function(m)
	return &fnPlan{c: (*C.clr_fn_plan)(pl.c.Function(f)), enter: f.Enter, ret: f.Return}
}

// completionPlan is the plan of a task builder's SetResult or
// SetException (planning.Planner.Completion).
func (pl *planner) completionPlan(m *naming.Method) *fnPlan {
	f := pl.Completion(m)
	return &fnPlan{c: (*C.clr_fn_plan)(pl.c.Function(f)), enter: f.Enter, ret: f.Return}
}

// run plans the classes hooks met without a plan (written as VT_NOPLAN).
func (pl *planner) run(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case cid := <-pl.requests:
			pl.rt.RLock()
			if !pl.rtClosed {
				if err := pl.Plan(cid); err != nil {
					pl.p.log.Debugf("class plan %#x: %v", cid, err)
				}
			}
			pl.rt.RUnlock()
		}
	}
}

// closeRuntime waits for the runtime calls under way on Go's own threads
// and lets no more start: the last thing Shutdown does.
func (pl *planner) closeRuntime() {
	pl.rt.Lock()
	pl.rtClosed = true
	pl.rt.Unlock()
}

// request asks for a class plan without waiting (drainer side).
func (pl *planner) request(cid uint64) {
	pl.queueMu.Lock()
	defer pl.queueMu.Unlock()
	if pl.queued[cid] || pl.Planned(cid) {
		return
	}
	select {
	case pl.requests <- cid:
		pl.queued[cid] = true
	default:
	}
}
