package cplan

/*
#include <stdlib.h>
#include "values.h"
*/
import "C"

import (
	"sync"
	"unsafe"

	"github.com/clrotel/clrotel/planning"
)

// Plans copies plans into C memory. Each class plan is copied once, so
// that every plan naming it (a field, a box, an array, a method) points at
// the same copy. It is safe for concurrent use.
type Plans struct {
	mu      sync.Mutex
	classes map[*planning.Class]*C.clr_class_plan
	// track keeps every allocation, for free (tests).
	track  bool
	allocs []unsafe.Pointer
}

// alloc returns n zeroed bytes of C memory.
func (c *Plans) alloc(n uintptr) unsafe.Pointer {
	p := C.calloc(1, C.size_t(n))
	if c.track {
		c.allocs = append(c.allocs, p)
	}
	return p
}

// free releases what a tracking Plans allocated.
func (c *Plans) free() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.allocs {
		C.free(p)
	}
	c.allocs, c.classes = nil, nil
}

// Class returns the C copy (a clr_class_plan) of p, nil for nil.
func (c *Plans) Class(p *planning.Class) unsafe.Pointer {
	c.mu.Lock()
	defer c.mu.Unlock()
	return unsafe.Pointer(c.class(p))
}

// Len is the number of class plans copied.
func (c *Plans) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.classes)
}

func (c *Plans) class(p *planning.Class) *C.clr_class_plan {
	if p == nil {
		return nil
	}
	if cp, ok := c.classes[p]; ok {
		return cp
	}
	size := unsafe.Sizeof(C.clr_class_plan{}) + uintptr(len(p.Fields))*unsafe.Sizeof(C.clr_value_plan{})
	cp := (*C.clr_class_plan)(c.alloc(size))
	cp.class_id = C.uintptr_t(p.ID)
	cp.shape = C.uint8_t(p.Shape)
	cp.elem_kind = C.uint8_t(p.ElemKind)
	cp.nfields = C.uint16_t(len(p.Fields))
	cp.elem_size = C.uint32_t(p.ElemSize)
	cp.box_offset = C.uint32_t(p.BoxOffset)
	cp.rank = C.uint32_t(p.Rank)
	cp.elem = c.class(p.Elem)
	cp.link[0], cp.link[1] = C.uint8_t(p.Link[0]), C.uint8_t(p.Link[1])
	cp.node_count = C.uint8_t(p.NodeCount)
	cp.view = C.uint8_t(p.View)
	fields := unsafe.Slice((*C.clr_value_plan)(unsafe.Add(unsafe.Pointer(cp), unsafe.Sizeof(C.clr_class_plan{}))), len(p.Fields))
	for i := range p.Fields {
		c.value(&fields[i], &p.Fields[i])
	}
	if c.classes == nil {
		c.classes = map[*planning.Class]*C.clr_class_plan{}
	}
	c.classes[p] = cp
	return cp
}

func (c *Plans) value(dst *C.clr_value_plan, v *planning.Value) {
	dst.kind = C.uint8_t(v.Kind)
	dst.redact = cbool(v.Redact)
	dst.elem_kind = C.uint8_t(v.ElemKind)
	dst.method_var = cbool(v.MethodVar)
	dst.offset = C.uint32_t(v.Offset)
	dst.bounded = C.uint8_t(v.Bounded)
	dst.bound_offset = C.uint32_t(v.BoundOffset)
	dst.cls = c.class(v.Class)
}

// Function returns a C copy (a clr_fn_plan) of a method's plan.
func (c *Plans) Function(f *planning.Function) unsafe.Pointer {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(f.Args)
	size := unsafe.Sizeof(C.clr_fn_plan{}) + uintptr(n)*unsafe.Sizeof(C.clr_value_plan{})
	cp := (*C.clr_fn_plan)(c.alloc(size))
	cp.nargs = C.uint16_t(n)
	cp.has_this = cbool(f.HasThis)
	cp.this_exact = cbool(f.ThisExact)
	cp.capture_ret = cbool(f.CaptureRet)
	c.value(&cp.this_plan, &f.This)
	c.value(&cp.ret, &f.Ret)
	args := unsafe.Slice((*C.clr_value_plan)(unsafe.Add(unsafe.Pointer(cp), unsafe.Sizeof(C.clr_fn_plan{}))), n)
	for i := range f.Args {
		c.value(&args[i], &f.Args[i])
	}
	if len(f.Statics) > 0 {
		arr := (*C.clr_static_plan)(c.alloc(uintptr(len(f.Statics)) * unsafe.Sizeof(C.clr_static_plan{})))
		statics := unsafe.Slice(arr, len(f.Statics))
		for i, s := range f.Statics {
			statics[i].class_id = C.uintptr_t(s.ClassID)
			statics[i].field = C.uint32_t(s.Field)
			statics[i].where = C.uint32_t(s.Where)
			c.value(&statics[i].value, &f.Statics[i].Value)
		}
		cp.statics = arr
		cp.nstatics = C.uint32_t(len(f.Statics))
	}
	return unsafe.Pointer(cp)
}

func cbool(b bool) C.uint8_t {
	if b {
		return 1
	}
	return 0
}
