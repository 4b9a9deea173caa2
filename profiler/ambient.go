package main

/*
#include <stdlib.h>
#include "ambient.h"
*/
import "C"

import (
	"strings"
	"unsafe"

	"github.com/clrotel/clrotel/ambient"
	"github.com/clrotel/clrotel/clr"
	"github.com/clrotel/clrotel/planning"
	"github.com/clrotel/clrotel/sampling"
)

// ambientState answers package ambient's questions through the profiling
// API and publishes the plans its Finder makes into C memory, where the
// hook reads Activity.Current through them (ambient.c).
type ambientState struct {
	p      *profiler
	finder ambient.Finder
	mods   clr.Modules // the module list's buffer (Modules runs per compiled method)
}

func newAmbientState(p *profiler) *ambientState {
	a := &ambientState{p: p}
	a.finder = ambient.Finder{Runtime: a, Modules: a, Publish: a.publish, Debugf: p.log.Debugf}
	return a
}

// refresh: see ambient.Finder.Refresh.
func (a *ambientState) refresh(activityCode bool) { a.finder.Refresh(activityCode) }

// publish copies a plan into C memory and hands it to the hook.
func (a *ambientState) publish(plan ambient.Plan) {
	c := (*C.clr_ambient_plan)(C.calloc(1, C.size_t(unsafe.Sizeof(C.clr_ambient_plan{}))))
	t := plan.Thread
	c.thread_class, c.thread_field = C.uintptr_t(t.Class), C.uint32_t(t.Field)
	c.thread_ec_off, c.thread_native_off = C.uint32_t(t.Context), C.uint32_t(t.Native)
	c.ec_locals_off, c.ec_suppressed_off = C.uint32_t(t.Locals), C.uint32_t(t.FlowSuppressed)
	if plan.Current != 0 {
		l := plan.Activity
		c.current_static, c.activity_class = C.uintptr_t(plan.Current), C.uintptr_t(plan.ActivityClass)
		c.trace_id_off, c.span_id_off, c.flags_off = C.uint32_t(l.TraceID), C.uint32_t(l.SpanID), C.uint32_t(l.Flags)
		c.parent_span_off, c.parent_id_off = C.uint32_t(l.ParentSpanID), C.uint32_t(l.ParentID)
		c.name_off, c.start_off, c.parent_off = C.uint32_t(l.Name), C.uint32_t(l.Start), C.uint32_t(l.Parent)
		c.source_off, c.source_name_off = C.uint32_t(l.Source), C.uint32_t(plan.SourceName)
		c.str_len_off, c.str_buf_off = C.uint32_t(plan.StringLength), C.uint32_t(plan.StringChars)
	}
	for _, mc := range plan.Maps[:min(len(plan.Maps), C.AMB_MAX_MAPS)] {
		e, m := &c.maps[c.nmaps], mc.Map
		e.class_id = C.uintptr_t(mc.Class)
		switch m.Kind {
		case ambient.MapArray, ambient.MapDict:
			e.kind, e.arr_off = C.AMB_MAP_ARRAY, C.uint32_t(m.Array)
			if m.Kind == ambient.MapDict {
				e.kind = C.AMB_MAP_DICT
			}
			e.elem_size, e.elem_key, e.elem_val = C.uint32_t(m.Pair.Size), C.uint32_t(m.Pair.Key), C.uint32_t(m.Pair.Value)
		case ambient.MapInline:
			e.kind, e.n = C.AMB_MAP_INLINE, C.uint32_t(len(m.Keys))
			for i := range m.Keys {
				e.key_off[i], e.val_off[i] = C.uint32_t(m.Keys[i]), C.uint32_t(m.Vals[i])
			}
		default:
			e.kind = C.AMB_MAP_EMPTY
		}
		c.nmaps++
	}
	C.clr_ambient_publish(c) // never freed: a few are published per process
	if plan.Current == 0 {
		return
	}
	a.p.log.Infof("caller's trace: Activity.Current is read (%d map classes)", c.nmaps)
	for i := 0; i < int(c.nmaps); i++ {
		m := c.maps[i]
		a.p.log.Debugf("caller's trace: map class %#x: kind %d, %d pairs, array at %d (elements of %d bytes, key %d, value %d)",
			uint64(m.class_id), m.kind, m.n, m.arr_off, m.elem_size, m.elem_key, m.elem_val)
	}
}

func (a *ambientState) Modules() []uint64                      { return a.mods.Loaded() }
func (a *ambientState) Assembly(module uint64) (string, error) { return clr.ModuleAssembly(module) }

func (a *ambientState) Class(name string) (uint64, error) {
	return a.p.planner.FindType(strings.Split(name, "+"))
}

func (a *ambientState) Fields(cid uint64) ([]ambient.Field, map[string]uint32, error) {
	own, byName, err := planning.ClassFields(a.p.planner.src, cid)
	if err != nil {
		return nil, nil, err
	}
	var out []ambient.Field
	for _, f := range own {
		out = append(out, ambient.Field{Name: f.Name, Offset: f.Offset})
	}
	return out, byName, nil
}

func (a *ambientState) Size(cid uint64) (uint32, error) {
	_, size, err := clr.ClassLayout(cid)
	return size, err
}

func (a *ambientState) Static(cid uint64, field uint32) (uint64, error) {
	return clr.StaticAddress(cid, field)
}

func (a *ambientState) Definition(chain []string) (uint64, uint32, bool) {
	return a.p.planner.FindDef(chain)
}

func (a *ambientState) Instantiate(module uint64, td uint32, args []uint64) (uint64, error) {
	return a.p.planner.src.Instantiate(module, td, args)
}

func (a *ambientState) StringLayout() (uint32, uint32, error) { return clr.StringLayout() }

// keepActivity decides whether a stopped Activity of the app's is exported,
// as the sampler would decide for a root of its trace.
func (p *profiler) keepActivity(s ambient.Span) bool {
	cfg := p.samp.Config()
	return ambient.Export(s, cfg.ParentBased(), func(id [16]byte) bool { return sampling.Sampled(id, cfg.DefaultBound()) })
}
