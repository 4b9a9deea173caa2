package main

/*
#include "capture.h"
*/
import "C"

import (
	"github.com/clrotel/clrotel/clr"
	"github.com/clrotel/clrotel/flows"
)

// mdVirtual is CorMethodAttr's virtual bit: a virtual callee may be an
// override of another definition, or of another module.
const mdVirtual = 0x0040

// setTailCallees gives the hooks' block of function fid its definition's
// key and those of the methods of its module it calls in tail position
// (flows.TailCallees; none when one is virtual), and registers it by its
// definition: a frame of it that leaves by a tail call stays until the
// callee that replaced it returns (hooks.c, tail calls).
func setTailCallees(c *C.clr_fn, fid uint64, meta clr.Metadata) {
	module, token, err := clr.MethodDef(fid)
	if err != nil {
		return
	}
	c.def_key = C.uint64_t(defKey(module, token))
	C.clr_def_put(c)
	body, ok := clr.ILBody(module, token)
	if !ok {
		return
	}
	toks, err := flows.TailCallees(body)
	if err != nil {
		return
	}
	for _, t := range toks {
		// A virtual callee may be an override elsewhere: its Enter could
		// not be told, so none is waited for.
		if a, err := meta.MethodAttrs(t); err != nil || a&mdVirtual != 0 {
			return
		}
	}
	for i, t := range toks {
		c.tail_keys[i] = C.uint64_t(defKey(module, t))
	}
}

// defKey identifies a method's definition: its module and MethodDef.
func defKey(module uint64, token uint32) uint64 {
	return module*0x9e3779b97f4a7c15 ^ uint64(token)
}
