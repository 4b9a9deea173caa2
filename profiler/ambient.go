package main

/*
#include <stdlib.h>
#include "ambient.h"
#include "clrinfo.h"
*/
import "C"

import (
	"fmt"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/clrotel/clrotel/ambient"
	"github.com/clrotel/clrotel/sampling"
	"github.com/clrotel/clrotel/selection"
)

// ambientState finds, once, how to read Activity.Current (decisions in
// package ambient) and publishes the plan the hook reads it through
// (ambient.c). Every step that can load a type runs on a runtime thread:
// from newFunction, on the thread that JIT-compiles a traced method.
type ambientState struct {
	p *profiler

	mu   sync.Mutex
	done bool // the plan is complete
	// threadOnly: a plan of the thread's part alone is published (what
	// queue.c reads before the app loads DiagnosticSource).
	threadOnly bool
	logged     string
	// When the last attempt failed: attempts from traced methods' compiles
	// wait retryEvery after it (an app that loads DiagnosticSource but
	// never starts an Activity would pay for each).
	failedAt time.Time
	checked  map[uint64]bool // modules asked about: whether DiagnosticSource
	mods     []C.uintptr_t   // the module list's buffer (diagnosticsLoaded runs per compiled method)
}

const retryEvery = 50 * time.Millisecond

// mapClasses are the IAsyncLocalValueMap implementations, nested in
// System.Threading.AsyncLocalValueMap (CoreLib) on .NET Core 3.1 and 8.
var mapClasses = []string{
	"EmptyAsyncLocalValueMap", "OneElementAsyncLocalValueMap", "TwoElementAsyncLocalValueMap",
	"ThreeElementAsyncLocalValueMap", "FourElementAsyncLocalValueMap",
	"MultiElementAsyncLocalValueMap", "ManyElementAsyncLocalValueMap",
}

// refresh tries to complete the plan. Cheap until the app has loaded
// System.Diagnostics.DiagnosticSource (no Activity can exist before).
// activityCode: called for a method of that assembly (Activity's code is
// about to run), not throttled.
func (a *ambientState) refresh(activityCode bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.done || (!activityCode && time.Since(a.failedAt) < retryEvery) {
		return
	}
	// Activity's own code runs from the loaded DiagnosticSource; before it
	// is loaded, only the thread's part of the plan can be (queue.c).
	if !activityCode && !a.diagnosticsLoaded() {
		a.publishThreadOnly()
		return
	}
	plan, err := a.build()
	if err != nil {
		a.failedAt = time.Now()
		if msg := err.Error(); msg != a.logged {
			a.logged = msg
			a.p.log.Debugf("caller's trace not joined yet: %v", err)
		}
		return
	}
	c := (*C.clr_ambient_plan)(C.calloc(1, C.size_t(unsafe.Sizeof(C.clr_ambient_plan{}))))
	*c = plan
	C.clr_ambient_publish(c) // never freed: published once
	a.done = true
	a.p.log.Infof("caller's trace: Activity.Current is read (%d map classes)", plan.nmaps)
	for i := 0; i < int(plan.nmaps); i++ {
		m := plan.maps[i]
		a.p.log.Debugf("caller's trace: map class %#x: kind %d, %d pairs, array at %d (elements of %d bytes, key %d, value %d)",
			uint64(m.class_id), m.kind, m.n, m.arr_off, m.elem_size, m.elem_key, m.elem_val)
	}
}

// diagnosticsLoaded asks each module's assembly name once (a.mu held),
// without opening its metadata (moduleAssembly).
func (a *ambientState) diagnosticsLoaded() bool {
	if a.mods == nil {
		a.mods = make([]C.uintptr_t, 8192)
	}
	mods := a.mods
	n := C.clr_modules(&mods[0], C.uint32_t(len(mods)))
	if a.checked == nil {
		a.checked = map[uint64]bool{}
	}
	for _, m := range mods[:n] {
		diag, ok := a.checked[uint64(m)]
		if !ok {
			asm, err := moduleAssembly(uint64(m))
			if err != nil {
				continue
			}
			diag = selection.DiagnosticsAssembly(asm)
			a.checked[uint64(m)] = diag
		}
		if diag {
			return true
		}
	}
	return false
}

// classFields returns the instance fields of class cid (its own, not its
// parents': none of the classes read here inherits fields) and, by name,
// the tokens of all its fields (statics included).
func (a *ambientState) classFields(cid uint64) ([]ambient.Field, map[string]uint32, error) {
	c, err := clrRuntime{}.Class(cid)
	if err != nil {
		return nil, nil, err
	}
	md, toks, err := a.p.planner.typeFields(c.Module, c.Token)
	if err != nil {
		return nil, nil, err
	}
	byName := map[string]uint32{}
	names := map[uint32]string{}
	for _, t := range toks {
		if name, _, _, err := md.fieldProps(uint32(t)); err == nil {
			byName[name] = uint32(t)
			names[uint32(t)] = name
		}
	}
	layout, _, err := classLayout(cid)
	if err != nil {
		return nil, nil, err
	}
	var out []ambient.Field
	for _, f := range layout {
		if name, ok := names[uint32(f.token)]; ok {
			out = append(out, ambient.Field{Name: name, Offset: uint32(f.offset)})
		}
	}
	return out, byName, nil
}

func (a *ambientState) build() (C.clr_ambient_plan, error) {
	var p C.clr_ambient_plan
	find := a.findClass
	// Activity and its s_current first: until the class is initialised
	// (the app starts its first Activity) this is where an attempt stops.
	act, af, atoks, err := find("System.Diagnostics.Activity")
	if err != nil {
		return p, err
	}
	layout, err := ambient.ActivityLayout(af)
	if err != nil {
		return p, err
	}
	stok, ok := atoks[ambient.ActivityCurrent]
	if !ok {
		return p, fmt.Errorf("Activity has no %s", ambient.ActivityCurrent)
	}
	var addr C.uintptr_t
	if hr := C.clr_ambient_static(C.uintptr_t(act), C.uint32_t(stok), &addr); hr != 0 {
		return p, fmt.Errorf("Activity.s_current: HRESULT %#x (class not initialised yet)", uint32(hr))
	}
	p.current_static = addr
	p.activity_class = C.uintptr_t(act)
	p.trace_id_off, p.span_id_off, p.flags_off = C.uint32_t(layout.TraceID), C.uint32_t(layout.SpanID), C.uint32_t(layout.Flags)
	p.parent_span_off, p.parent_id_off = C.uint32_t(layout.ParentSpanID), C.uint32_t(layout.ParentID)
	p.name_off, p.start_off = C.uint32_t(layout.Name), C.uint32_t(layout.Start)
	p.parent_off = C.uint32_t(layout.Parent)
	if layout.Source != 0 {
		if _, sf, _, err := find("System.Diagnostics.ActivitySource"); err == nil {
			if off, ok := ambient.Find(sf, ambient.SourceName...); ok {
				p.source_off, p.source_name_off = C.uint32_t(layout.Source), C.uint32_t(off)
			}
		}
	}
	if err := a.threadPart(&p); err != nil {
		return p, err
	}
	var lenOff, bufOff C.uint32_t
	if C.clr_string_layout(&lenOff, &bufOff) != 0 {
		return p, fmt.Errorf("GetStringLayout2 failed")
	}
	p.str_len_off, p.str_buf_off = lenOff, bufOff
	// The map classes; .NET 8's keep KeyValuePair<IAsyncLocal, object>
	// structs, whose layout the runtime gives too.
	pair := a.pairLayout()
	for _, name := range mapClasses {
		full := "System.Threading.AsyncLocalValueMap+" + name
		cid, mf, _, err := find(full)
		if err != nil {
			continue // not in this runtime
		}
		m, ok := ambient.MapLayout(full, mf, pair)
		if name == "ManyElementAsyncLocalValueMap" {
			m, ok = a.dictMap()
		}
		if p.nmaps >= C.AMB_MAX_MAPS {
			break
		}
		e := &p.maps[p.nmaps]
		e.class_id = C.uintptr_t(cid)
		switch {
		case !ok:
			e.kind = C.AMB_MAP_EMPTY // known, not read (ambient.MapLayout)
		case m.Kind == ambient.MapArray || m.Kind == ambient.MapDict:
			e.kind, e.arr_off = C.AMB_MAP_ARRAY, C.uint32_t(m.Array)
			if m.Kind == ambient.MapDict {
				e.kind = C.AMB_MAP_DICT
			}
			e.elem_size, e.elem_key, e.elem_val = C.uint32_t(m.Pair.Size), C.uint32_t(m.Pair.Key), C.uint32_t(m.Pair.Value)
		case m.Kind == ambient.MapInline:
			e.kind, e.n = C.AMB_MAP_INLINE, C.uint32_t(len(m.Keys))
			for i := range m.Keys {
				e.key_off[i], e.val_off[i] = C.uint32_t(m.Keys[i]), C.uint32_t(m.Vals[i])
			}
		default:
			e.kind = C.AMB_MAP_EMPTY
		}
		p.nmaps++
	}
	return p, nil
}

// findClass finds a loaded class by its reflection name (nested types
// joined by '+'), with its fields' offsets and all its fields' tokens.
func (a *ambientState) findClass(name string) (uint64, []ambient.Field, map[string]uint32, error) {
	cid, err := a.p.planner.FindType(strings.Split(name, "+"))
	if err != nil {
		return 0, nil, nil, err
	}
	fields, toks, err := a.classFields(cid)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	return cid, fields, toks, nil
}

// publishThreadOnly publishes, once, a plan of the thread's part alone:
// enough to tell whether the flow is suppressed on a thread (queue.c).
func (a *ambientState) publishThreadOnly() {
	if a.threadOnly {
		return
	}
	var p C.clr_ambient_plan
	if err := a.threadPart(&p); err != nil {
		a.failedAt = time.Now()
		return
	}
	c := (*C.clr_ambient_plan)(C.calloc(1, C.size_t(unsafe.Sizeof(C.clr_ambient_plan{}))))
	*c = p
	C.clr_ambient_publish(c) // never freed: published once
	a.threadOnly = true
}

// threadPart fills in Thread.t_currentThread, what proves a cached address
// of it holds this thread's Thread, and the ExecutionContext's fields.
func (a *ambientState) threadPart(p *C.clr_ambient_plan) error {
	find := a.findClass
	need := func(fields []ambient.Field, class string, names []string) (C.uint32_t, error) {
		off, ok := ambient.Find(fields, names...)
		if !ok {
			return 0, fmt.Errorf("%s has no field %s", class, names[0])
		}
		return C.uint32_t(off), nil
	}
	thread, tf, ttoks, err := find("System.Threading.Thread")
	if err != nil {
		return err
	}
	tok, ok := ttoks[ambient.ThreadCurrent]
	if !ok {
		return fmt.Errorf("Thread has no %s", ambient.ThreadCurrent)
	}
	p.thread_class, p.thread_field = C.uintptr_t(thread), C.uint32_t(tok)
	if p.thread_ec_off, err = need(tf, "Thread", ambient.ThreadExecutionContext); err != nil {
		return err
	}
	if p.thread_native_off, err = need(tf, "Thread", ambient.ThreadNative); err != nil {
		return err
	}
	_, ecf, _, err := find("System.Threading.ExecutionContext")
	if err != nil {
		return err
	}
	if p.ec_locals_off, err = need(ecf, "ExecutionContext", ambient.ContextLocals); err != nil {
		return err
	}
	// Optional: without it, no flow is seen as suppressed.
	if off, ok := ambient.Find(ecf, ambient.ContextFlowSuppressed...); ok {
		p.ec_suppressed_off = C.uint32_t(off)
	}
	return nil
}

// pairLayout finds KeyValuePair<IAsyncLocal, object>'s key and value
// offsets; the zero Pair when it is not loaded (no .NET 8 map reads then).
func (a *ambientState) pairLayout() ambient.Pair {
	return a.pairOf([]string{"System.Collections.Generic.KeyValuePair`2"})
}

// asyncLocalInst is the ClassID of the generic type chain names (a type
// of two parameters, or a type nested in one) instantiated over
// <IAsyncLocal, object>, as the AsyncLocal maps use it.
func (a *ambientState) asyncLocalInst(chain []string) (uint64, bool) {
	pl := a.p.planner
	m, td, ok := pl.FindDef(chain)
	if !ok {
		return 0, false
	}
	key, err1 := pl.FindType([]string{"System.Threading.IAsyncLocal"})
	obj, err2 := pl.FindType([]string{"System.Object"})
	if err1 != nil || err2 != nil {
		return 0, false
	}
	args := []C.uintptr_t{C.uintptr_t(key), C.uintptr_t(obj)}
	var cid C.uintptr_t
	if C.clr_class_from_token_args(C.uintptr_t(m), C.uint32_t(td), 2, &args[0], &cid) != 0 || cid == 0 {
		return 0, false
	}
	return uint64(cid), true
}

// pairOf is where the struct chain names, over <IAsyncLocal, object>,
// keeps its key and value.
func (a *ambientState) pairOf(chain []string) ambient.Pair {
	cid, ok := a.asyncLocalInst(chain)
	if !ok {
		return ambient.Pair{}
	}
	fields, _, err := a.classFields(cid)
	if err != nil {
		return ambient.Pair{}
	}
	_, size, err := classLayout(cid)
	k, ok1 := ambient.Find(fields, "key")
	v, ok2 := ambient.Find(fields, "value")
	if !ok1 || !ok2 || err != nil {
		return ambient.Pair{}
	}
	return ambient.Pair{Key: k, Value: v, Size: size}
}

// dictMap is the layout of ManyElementAsyncLocalValueMap, which is a
// Dictionary<IAsyncLocal, object>: its base class's entries array and
// the Entry struct's key and value.
func (a *ambientState) dictMap() (ambient.Map, bool) {
	const dict = "System.Collections.Generic.Dictionary`2"
	cid, ok := a.asyncLocalInst([]string{dict})
	if !ok {
		return ambient.Map{}, false
	}
	fields, _, err := a.classFields(cid)
	if err != nil {
		return ambient.Map{}, false
	}
	return ambient.DictLayout(fields, a.pairOf([]string{dict, "Entry"}))
}

// keepActivity decides whether a stopped Activity of the app's is exported,
// as the sampler would decide for a root of its trace.
func (p *profiler) keepActivity(s ambient.Span) bool {
	cfg := p.samp.config()
	return ambient.Export(s, cfg.ParentBased(), func(id [16]byte) bool { return sampling.Sampled(id, cfg.DefaultBound()) })
}
