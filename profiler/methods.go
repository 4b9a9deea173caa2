package main

/*
#include "capture.h"
*/
import "C"

import (
	"github.com/clrotel/clrotel/otelbridge"
	"github.com/clrotel/clrotel/selection"
	"github.com/clrotel/clrotel/translate"
)

// methods answers the translator from the function table, the planner and
// the resolver.
type methods struct{ p *profiler }

var _ translate.Methods = methods{}

func (m methods) Function(i uint32) (translate.Function, bool) {
	f := m.p.funcs.At(i)
	if f == nil {
		return translate.Function{}, false
	}
	out := translate.Function{Method: f.method, AsyncKickoff: f.flags()&selection.FnAsyncKickoff != 0, Meta: f.meta}
	if f.plan != nil {
		out.Planned, out.Enter, out.Return = true, f.plan.enter, f.plan.ret
	}
	out.IterStep = f.iterates != 0
	return out, true
}

func (m methods) Instantiation(i uint32, class uint64, typeArgs []uint64) *otelbridge.Method {
	return m.p.instantiation(m.p.funcs.At(i), class, typeArgs)
}

func (m methods) Enumeration(i uint32, class uint64) *otelbridge.Method {
	return m.p.enumeration(m.p.funcs.At(i), class)
}

func (m methods) ClassName(class uint64) string { return m.p.resolver.ClassName(class) }

func (m methods) NeedPlan(class uint64) { m.p.planner.requests.Request(class) }
