package main

/*
#include <stdlib.h>
#include "capture.h"
*/
import "C"

import (
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/clrotel/clrotel/folding"
	"github.com/clrotel/clrotel/internal/indexed"
	"github.com/clrotel/clrotel/internal/memo"
	"github.com/clrotel/clrotel/naming"
	"github.com/clrotel/clrotel/otelbridge"
	"github.com/clrotel/clrotel/sampling"
	"github.com/clrotel/clrotel/selection"
	"github.com/clrotel/clrotel/translate"
)

// function is one FunctionID the runtime asked about.
type function struct {
	id     uint64
	c      *C.clr_fn // nil when not selected
	method *otelbridge.Method
	plan   *fnPlan // values to read; nil when capture is off for it
	// meta: the method's metadata form, which no-code targets select by
	// (only when there are targets).
	meta  *naming.MetaForm
	names sampling.MethodNames

	insts memo.Map[string, *otelbridge.Method] // exact instantiations of shared code
	// iterates: an iterator's step, the iterator method (FunctionID) the
	// enumerations it begins are named after (0 for any other), and the
	// step's class (0 for shared code: its records name theirs).
	iterates, class uint64
	// group: an iterator's functions, which fold together; its
	// enumerator's MoveNext (FnIterStep) is the one the hooks judge
	// (iterFolded).
	group folding.GroupKey
}

// flags are the hooks' flags of f (0 when not selected); the hooks set
// some of them (FnFolded, FnUnhooked) as they run.
func (f *function) flags() selection.Flags {
	if f == nil || f.c == nil {
		return 0
	}
	return selection.Flags(atomic.LoadUint32((*uint32)(unsafe.Pointer(&f.c.flags))))
}

// functionTable maps FunctionIDs to decisions, and the index the hooks
// record to the function (a selected one: it has a C block).
type functionTable struct {
	indexed.Table[uint64, *function]
}

func newFunctionTable() *functionTable { return &functionTable{} }

// folded reads f's calls folded into other spans: the totals the hooks
// keep in its C block; false when none were.
func (f *function) folded() (folding.Entry, bool) {
	if f == nil || f.c == nil {
		return folding.Entry{}, false
	}
	calls := uint64(C.clr_fn_folded_calls(f.c))
	if calls == 0 {
		return folding.Entry{}, false
	}
	return folding.Entry{Calls: calls, Time: time.Duration(C.clr_fn_folded_ns(f.c)), Unhooked: f.flags()&selection.FnUnhooked != 0}, true
}

// folded lists every function's folded calls.
func (t *functionTable) folded() []folding.Entry {
	var out []folding.Entry
	t.Each(func(i uint32, f *function) {
		if e, ok := f.folded(); ok {
			e.Fn = i
			out = append(out, e)
		}
	})
	return out
}

// funcName names a function by index, for folded calls.
func (p *profiler) funcName(i uint32) string { return translate.FuncName(methods{p}, i) }

// lookupOrAdd returns the function for id, creating it with mk under the
// table lock the first time.
func (t *functionTable) lookupOrAdd(id uint64, mk func(index uint32) *function) *function {
	return t.LookupOrAdd(id, func(index uint32) (*function, bool) {
		f := mk(index)
		return f, f.c != nil
	})
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
		Params: m.Params, ReturnType: m.ReturnType, CompiledName: m.CompiledName,
	})
}
