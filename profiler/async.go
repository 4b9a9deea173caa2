package main

/*
#include <stdlib.h>
#include "async.h"
#include "capture.h"
#include "flowlayout.h"
#include "queue.h"
*/
import "C"

import (
	"fmt"

	"github.com/clrotel/clrotel/clr"
	"github.com/clrotel/clrotel/flows"
	"github.com/clrotel/clrotel/naming"
	"github.com/clrotel/clrotel/selection"
)

// asyncRole is a method's part in async spans (async.c), as the hooks read
// it: flags, the owner TypeDef, and the added fields' offsets from `this`.
type asyncRole struct {
	flags selection.Flags
	owner uint32
	off   [flows.MaxFlowFields]uint16
	// layout: shared generic code's step, whose fields the hooks find in
	// each call's exact class (flowlayout.h) instead of at off.
	layout *C.clr_flow_layout
	// iterates: an iterator's step, the iterator method (its FunctionID)
	// that the enumerations it begins are named after (flows.Iterators).
	iterates uint64
	// group: an iterator method, or a method of its enumerator, the
	// enumerator's TypeDef: they fold together (folding.Groups).
	group uint32
}

// apply gives the hooks' entry of a function its part.
func (r asyncRole) apply(c *C.clr_fn) {
	for i, o := range r.off {
		c.flow_off[i] = C.uint16_t(o)
	}
	c.async_owner = C.uint32_t(r.owner)
	c.flow_layout = r.layout
}

// asyncRoleOf decides a method's part in async spans and queued work
// (flows.Gather) and tells the C tables what they need of it.
func (p *profiler) asyncRoleOf(fid uint64, m *naming.Method) (asyncRole, error) {
	var r asyncRole
	module, token, err := clr.MethodDef(fid)
	if err != nil {
		return r, err
	}
	fm := flows.Method{Name: m.Name, Display: m.SelectName, Token: token, Owner: m.OwnerToken,
		ClassID: m.ClassID, HasThis: m.Sig.HasThis, ReturnType: m.ReturnType,
		Builder: clr.Special(module, token) == selection.SpecialBuilder}
	var mod clr.FlowModule
	if !fm.Builder {
		info, err := p.resolver.ModuleInfo(m.ModuleID)
		if err != nil {
			return r, err
		}
		mod = clr.FlowModule{Meta: info.Meta.(clr.Metadata), Module: m.ModuleID, Iterators: &p.iterators}
	}
	roles, err := flows.Gather(fm, mod)
	if roles.Iterator != 0 {
		p.iterators.Add(m.ModuleID, roles.Iterator, fid)
		r.group = roles.Iterator
	}
	if roles.Role&flows.IterStep != 0 {
		r.iterates, _ = p.iterators.Method(m.ModuleID, m.OwnerToken)
	}
	if roles.Role&(flows.MoveNext|flows.Plumbing) != 0 && roles.Role&flows.Kickoff == 0 {
		if _, ok := p.iterators.Method(m.ModuleID, m.OwnerToken); ok {
			r.group = m.OwnerToken // a method of an iterator's enumerator
		}
	}
	if roles.Role&(flows.ClosureCtor|flows.ClosureBody) != 0 {
		// queue.c tells a closure by its class.
		var c [C.CLOSURE_FIELDS]C.uint16_t
		for i := range c {
			c[i] = C.uint16_t(roles.Offsets[i])
		}
		if C.clr_closure_class_add(C.uintptr_t(roles.Closure), &c[0]) != 0 {
			p.log.Debugf("async: closure class table full: %s not marked when queued with the flow suppressed", m.SelectName)
		}
	}
	r.flags = selection.RoleFlags(roles.Role, roles.Loop)
	r.off, r.owner = roles.Offsets, roles.Owner
	if roles.Shared {
		if r.layout = newFlowLayout(roles.Fields, roles.ObjectThis); r.layout == nil {
			// Without it the hooks would write at offsets of no class.
			return asyncRole{}, fmt.Errorf("%s: no memory for its fields' layouts", m.SelectName)
		}
	}
	return r, err
}

// newFlowLayout makes the C table in which the hooks remember, per exact
// class, where the added fields toks (0 past the last) are, the exact
// class being the `this` object's when objectThis; nil when C has no
// memory for it.
func newFlowLayout(toks [flows.MaxFlowFields]uint32, objectThis bool) *C.clr_flow_layout {
	var c [C.FLOW_LAYOUT_FIELDS]C.uint32_t
	n := 0
	for _, t := range toks {
		if t == 0 || n == len(c) {
			break
		}
		c[n] = C.uint32_t(t)
		n++
	}
	return C.clr_flow_layout_new(&c[0], C.uint32_t(n), cBool(objectThis))
}
