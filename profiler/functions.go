package main

/*
#include <stdlib.h>
#include "capture.h"
*/
import "C"

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/clrotel/clrotel/folding"
	"github.com/clrotel/clrotel/naming"
	"github.com/clrotel/clrotel/otelbridge"
	"github.com/clrotel/clrotel/sampling"
)

// selector decides, once per function, whether it is traced.
type selector struct {
	include, exclude naming.Patterns
	ownCodeOnly      bool // no include given: framework modules are out
}

func newSelector(include, exclude, defaultExclude []string) selector {
	s := selector{include: include, exclude: exclude}
	if len(include) == 0 {
		s.ownCodeOnly = true
		s.exclude = append(append(naming.Patterns{}, defaultExclude...), exclude...)
	}
	return s
}

// frameworkAssembly tells the runtime's own assemblies by name.
func frameworkAssembly(name string) bool {
	return name == "mscorlib" || name == "netstandard" ||
		strings.HasPrefix(name, "System.") || strings.HasPrefix(name, "Microsoft.") ||
		name == "System"
}

// selected decides from a method's assembly and Namespace.Type.Method name.
func (s selector) selected(assembly, name string) bool {
	if s.ownCodeOnly && frameworkAssembly(assembly) {
		return false
	}
	if len(s.include) > 0 && !s.include.MatchAny(name) {
		return false
	}
	return !s.exclude.MatchAny(name)
}

// function is one FunctionID the runtime asked about.
type function struct {
	id     uint64
	c      *C.clr_fn // nil when not selected
	method *otelbridge.Method
	plan   *fnPlan // values to read; nil when capture is off for it
	names  sampling.MethodNames

	mu    sync.Mutex
	insts map[string]*otelbridge.Method // exact instantiations of shared code
}

// functionTable maps FunctionIDs to decisions, and the index the hooks
// record to the function. Lookups by index (the drainer, per record) take
// no lock.
type functionTable struct {
	mu   sync.Mutex
	byID map[uint64]*function
	list atomic.Pointer[[]*function]
}

func newFunctionTable() *functionTable {
	t := &functionTable{byID: map[uint64]*function{}}
	t.list.Store(&[]*function{})
	return t
}

// folded lists every function's calls folded into other spans (their
// totals, which the hooks keep in the function's C block).
func (t *functionTable) folded() []folding.Entry {
	var out []folding.Entry
	for i, f := range *t.list.Load() {
		if f == nil || f.c == nil {
			continue
		}
		calls := uint64(C.clr_fn_folded_calls(f.c))
		if calls > 0 {
			out = append(out, folding.Entry{Fn: uint32(i), Calls: calls, Time: time.Duration(C.clr_fn_folded_ns(f.c))})
		}
	}
	return out
}

// funcName names a function by index, for folded calls.
func (p *profiler) funcName(i uint32) string {
	if f := p.funcs.at(i); f != nil && f.method != nil {
		return f.method.SpanName
	}
	return fmt.Sprintf("function #%d", i)
}

func (t *functionTable) at(i uint32) *function {
	l := *t.list.Load()
	if int(i) >= len(l) {
		return nil
	}
	return l[i]
}

// locked runs fn with the table locked: no function is added meanwhile.
func (t *functionTable) locked(fn func(list []*function)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fn(*t.list.Load())
}

// lookupOrAdd returns the function for id, creating it with mk under the
// table lock the first time.
func (t *functionTable) lookupOrAdd(id uint64, mk func(index uint32) *function) *function {
	t.mu.Lock()
	defer t.mu.Unlock()
	if f, ok := t.byID[id]; ok {
		return f
	}
	old := *t.list.Load()
	f := mk(uint32(len(old)))
	t.byID[id] = f
	if f.c != nil {
		nl := append(old[:len(old):len(old)], f)
		t.list.Store(&nl)
	}
	return f
}

// newCFn allocates the client ID the hooks receive. It is never freed: the
// runtime may call the hooks with it until the process ends.
func newCFn(fid uint64, index uint32, flags uint32, m sampling.MethodSetting) *C.clr_fn {
	p := (*C.clr_fn)(C.calloc(1, C.size_t(unsafe.Sizeof(C.clr_fn{}))))
	p.function_id = C.uintptr_t(fid)
	p.index = C.uint32_t(index)
	p.flags = C.uint32_t(flags)
	setFnSampling(p, m)
	return p
}

func bridgeMethod(m *naming.Method) *otelbridge.Method {
	return otelbridge.NewMethod(otelbridge.MethodInfo{
		Module: m.Module, Assembly: m.Assembly, FunctionName: m.FunctionName,
		Params: m.Params, ReturnType: m.ReturnType,
	})
}
