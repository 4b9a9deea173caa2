package main

/*
#include "capture.h"
#include "workitems.h"
*/
import "C"

import (
	"fmt"
	"math"

	"github.com/clrotel/clrotel/ambient"
	"github.com/clrotel/clrotel/flows"
	"github.com/clrotel/clrotel/naming"
)

// setWorkCallee tells the hooks where the work item's run m finds the
// words its callback is called with (flows.WorkRunCallee,
// workitems.h RUN_*), so that a run that jumps to its callback keeps its
// maker's trace for it. A run left without them ends at the jump, as any
// frame whose callee cannot be told.
func (p *profiler) setWorkCallee(c *C.clr_fn, m *naming.Method) error {
	wc, ok := flows.WorkRunCallee(m.TypeName, len(m.Sig.Params))
	if !ok {
		return nil
	}
	if m.ClassID == 0 {
		return fmt.Errorf("%s: shared code, no class to read", m.TypeName)
	}
	target, err := p.queue.targetOffset(p)
	if err != nil {
		return err
	}
	var via uint32
	holder := m.ClassID
	if wc.Via != "" {
		if via, err = p.fieldOffset(m.ClassID, m.TypeName, wc.Via); err != nil {
			return err
		}
		if holder, err = p.planner.FindType(wc.ViaType); err != nil {
			return err
		}
	}
	dlg, err := p.fieldOffset(holder, m.TypeName, wc.Delegate)
	if err != nil {
		return err
	}
	var arg uint32
	if wc.Arg != "" {
		if arg, err = p.fieldOffset(holder, m.TypeName, wc.Arg); err != nil {
			return err
		}
	}
	for _, o := range []uint32{via, dlg, arg, target} {
		if o > math.MaxUint16 {
			return fmt.Errorf("%s: field offset %d out of range", m.TypeName, o)
		}
	}
	c.flow_off[C.RUN_VIA] = C.uint16_t(via)
	c.flow_off[C.RUN_ARG] = C.uint16_t(arg)
	c.flow_off[C.RUN_TARGET] = C.uint16_t(target)
	if wc.Param {
		c.flow_off[C.RUN_PARAM] = 1
	}
	// Last: a run reads none of the others without it.
	c.flow_off[C.RUN_DELEGATE] = C.uint16_t(dlg)
	return nil
}

// fieldOffset is the offset of the field name of class cid (of the item
// typeName, for errors).
func (p *profiler) fieldOffset(cid uint64, typeName, name string) (uint32, error) {
	fields, _, err := p.ambient.Fields(cid)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", typeName, err)
	}
	off, ok := ambient.Find(fields, name)
	if !ok || off == 0 {
		return 0, fmt.Errorf("%s: no field %s", typeName, name)
	}
	return off, nil
}
