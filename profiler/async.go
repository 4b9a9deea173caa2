package main

/*
#include <stdlib.h>
#include "async.h"
#include "capture.h"
#include "clrinfo.h"
#include "flowlayout.h"
#include "queue.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

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
}

// apply gives the hooks' entry of a function its part.
func (r asyncRole) apply(c *C.clr_fn) {
	for i, o := range r.off {
		c.flow_off[i] = C.uint16_t(o)
	}
	c.async_owner = C.uint32_t(r.owner)
	c.flow_layout = r.layout
}

// asyncSpecialMethod tells a builder's SetResult/SetException
// (ASYNC_SPECIAL_BUILDER) or a CoreLib method that queues work
// (ASYNC_SPECIAL_QUEUE) by FunctionID (the module-load scan found them),
// before the method is named; 0 for any other.
func asyncSpecialMethod(fid uint64) selection.Special {
	var d C.clr_function_desc
	if C.clr_function_info(C.uintptr_t(fid), &d) != 0 {
		return selection.SpecialNone
	}
	return selection.Special(C.clr_async_special_method(d.module_id, C.uint32_t(d.token)))
}

// asyncRoleOf decides a method's part in async spans and queued work
// (flows.Gather) and tells the C tables what they need of it.
func (p *profiler) asyncRoleOf(fid uint64, m *naming.Method) (asyncRole, error) {
	var r asyncRole
	var d C.clr_function_desc
	if hr := C.clr_function_info(C.uintptr_t(fid), &d); hr != 0 {
		return r, hrErr("GetFunctionInfo2", hr)
	}
	fm := flows.Method{Name: m.Name, Display: m.SelectName, Token: uint32(d.token), Owner: m.OwnerToken,
		ClassID: m.ClassID, HasThis: m.Sig.HasThis, ReturnType: m.ReturnType,
		Builder: selection.Special(C.clr_async_special_method(d.module_id, C.uint32_t(d.token))) == selection.SpecialBuilder}
	var mod flowModule
	if !fm.Builder {
		info, err := p.resolver.ModuleInfo(m.ModuleID)
		if err != nil {
			return r, err
		}
		mod = flowModule{p: p, md: info.Meta.(metadata), module: m.ModuleID}
	}
	roles, err := flows.Gather(fm, mod)
	if roles.Iterator != 0 {
		p.iterators.Add(m.ModuleID, roles.Iterator, fid)
	}
	if roles.Role&flows.IterStep != 0 {
		r.iterates, _ = p.iterators.Method(m.ModuleID, m.OwnerToken)
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
		if r.layout = newFlowLayout(roles.Fields); r.layout == nil {
			// Without it the hooks would write at offsets of no class.
			return asyncRole{}, fmt.Errorf("%s: no memory for its fields' layouts", m.SelectName)
		}
	}
	return r, err
}

// newFlowLayout makes the C table in which the hooks remember, per exact
// class, where the added fields toks (0 past the last) are; nil when C has
// no memory for it.
func newFlowLayout(toks [flows.MaxFlowFields]uint32) *C.clr_flow_layout {
	var c [C.FLOW_LAYOUT_FIELDS]C.uint32_t
	n := 0
	for _, t := range toks {
		if t == 0 || n == len(c) {
			break
		}
		c[n] = C.uint32_t(t)
		n++
	}
	return C.clr_flow_layout_new(&c[0], C.uint32_t(n))
}

// flowModule answers flows.Gather from a module's metadata and the
// runtime's class layouts.
type flowModule struct {
	p      *profiler
	md     metadata
	module uint64
}

func (f flowModule) AttributeBlob(token uint32, attr string) ([]byte, bool) {
	return f.md.AttributeBlob(token, attr)
}

func (f flowModule) FindNested(name string) (uint32, bool) { return f.md.FindNested(name) }
func (f flowModule) Added(td uint32) (flows.Added, error)  { return f.md.fields.Added(td) }
func (f flowModule) EnclosingClass(td uint32) uint32       { return f.md.EnclosingClass(td) }
func (f flowModule) GenericParams(owner uint32) ([]string, error) {
	return f.md.GenericParams(owner)
}
func (f flowModule) IteratorTracked(td uint32) bool {
	return f.p.iterators.Has(f.module, td)
}

func (f flowModule) ILBody(token uint32) ([]byte, bool) {
	var body *C.uint8_t
	var n C.uint32_t
	if C.clr_il_body(C.uintptr_t(f.module), C.uint32_t(token), &body, &n) != 0 || n == 0 {
		return nil, false
	}
	return C.GoBytes(unsafe.Pointer(body), C.int(n)), true
}

func (f flowModule) ConstructedType(ctor uint32) (uint32, bool) {
	switch ctor >> 24 {
	case 0x06: // MethodDef
		_, owner, _, err := f.md.MethodProps(ctor)
		return owner, err == nil
	case 0x0a: // MemberRef
		var parent C.uint32_t
		if C.md_memberref_parent(f.md.imp, C.uint32_t(ctor), &parent) != 0 {
			return 0, false
		}
		switch uint32(parent) >> 24 {
		case 0x02:
			return uint32(parent), true
		case 0x1b:
			sig, err := f.md.TypeSpecBlob(uint32(parent))
			if err != nil {
				return 0, false
			}
			return flows.GenericTypeDef(sig)
		}
	}
	return 0, false
}

func (f flowModule) ClassOf(td uint32) (uint64, error) { return typeSource{}.ClassOf(f.module, td) }

func (f flowModule) Layout(cid uint64) ([]flows.FieldAt, error) {
	layout, _, err := classLayout(cid)
	out := make([]flows.FieldAt, len(layout))
	for i, fl := range layout {
		out[i] = flows.FieldAt{Token: fl.Token, Offset: fl.Offset}
	}
	return out, err
}

// addedNames are async.c's names of the fields it adds.
type addedNames struct{}

func (addedNames) Count(kind flows.TypeKind) int { return int(C.clr_async_field_count(C.int(kind))) }

func (addedNames) Index(name string, kind flows.TypeKind) int {
	if name == "" {
		return -1
	}
	w := utf16z(name) // the NUL is past the length given
	return int(C.clr_async_field_index(&w[0], C.uint32_t(len(w)-1), C.int(kind)))
}
