package main

/*
#include "values.h"
#include "capture.h"
*/
import "C"

import (
	"errors"

	"github.com/clrotel/clrotel/clr"
	"github.com/clrotel/clrotel/internal/memo"
	"github.com/clrotel/clrotel/naming"
	"github.com/clrotel/clrotel/planning"
	"github.com/clrotel/clrotel/profiler/internal/cplan"
	"github.com/clrotel/clrotel/values"
)

// planner runs the value planner (package planning) for the profiler:
// it answers the planner through clr.TypeSource, copies its plans into C
// memory for the hooks, and plans, on a goroutine of its own, the classes
// the drainer met without a plan (planning.Requests).
type planner struct {
	*planning.Planner
	p        *profiler
	src      planning.TypeSource
	redact   *values.Redactor
	c        cplan.Plans // the plans' copies in C memory
	requests *planning.Requests
	gate     planning.Gate // the runtime calls of Go's own threads, until Shutdown

	// methods: code address -> method (MethodAt), the delegates' most
	// recent ones.
	methods memo.Map[uint64, string]
}

// fnPlan is a function's C plan and how its values render.
type fnPlan struct {
	c     *C.clr_fn_plan
	enter []values.Slot // this (if any), the arguments, the statics
	ret   []values.Slot
}

func newPlanner(p *profiler, redact *values.Redactor, statics []string, messages bool) *planner {
	pl := &planner{p: p, redact: redact, methods: memo.Map[uint64, string]{Limit: 4096, Renew: true}}
	rt := clr.TypeSource{Resolver: p.resolver}
	pl.src = planning.PerModule(rt, rt.Metadata)
	pl.Planner = planning.New(pl.src, (*planSink)(pl), planning.Options{
		Redact: redact, Statics: statics, Messages: messages, Log: p.log,
	})
	pl.requests = planning.NewRequests(pl.Planner, &pl.gate, 1024, p.log.Debugf)
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
