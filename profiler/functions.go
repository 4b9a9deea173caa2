package main

/*
#include <stdlib.h>
#include "capture.h"
*/
import "C"

import (
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/clrotel/clrotel/folding"
	"github.com/clrotel/clrotel/naming"
	"github.com/clrotel/clrotel/otelbridge"
	"github.com/clrotel/clrotel/sampling"
	"github.com/clrotel/clrotel/translate"
)

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
// no lock. The functions sit in fixed chunks, never moved: adding one
// writes it into its chunk and then publishes the new count (a copied list
// made adding the n-th function cost n: 4,156 functions, mcs.exe's
// compile, spent a third of their naming time copying).
type functionTable struct {
	mu     sync.Mutex
	byID   map[uint64]*function
	n      atomic.Uint32 // functions published; entries below it are set
	chunks [maxFuncChunks]atomic.Pointer[[funcChunk]*function]
}

const (
	funcChunk     = 1024
	maxFuncChunks = 1 << 12 // 4 Mi functions: then lookupOrAdd returns functions without an index
)

func newFunctionTable() *functionTable {
	return &functionTable{byID: map[uint64]*function{}}
}

// len is the number of functions with an index.
func (t *functionTable) len() int { return int(t.n.Load()) }

// each calls fn for every function with an index, in index order, up to
// the count when it started.
func (t *functionTable) each(fn func(i uint32, f *function)) {
	n := t.n.Load()
	for i := uint32(0); i < n; i++ {
		fn(i, t.chunks[i/funcChunk].Load()[i%funcChunk])
	}
}

// folded lists every function's calls folded into other spans (their
// totals, which the hooks keep in the function's C block).
func (t *functionTable) folded() []folding.Entry {
	var out []folding.Entry
	t.each(func(i uint32, f *function) {
		if f == nil || f.c == nil {
			return
		}
		calls := uint64(C.clr_fn_folded_calls(f.c))
		if calls > 0 {
			out = append(out, folding.Entry{Fn: i, Calls: calls, Time: time.Duration(C.clr_fn_folded_ns(f.c))})
		}
	})
	return out
}

// funcName names a function by index, for folded calls.
func (p *profiler) funcName(i uint32) string { return translate.FuncName(methods{p}, i) }

func (t *functionTable) at(i uint32) *function {
	if i >= t.n.Load() {
		return nil
	}
	return t.chunks[i/funcChunk].Load()[i%funcChunk]
}

// locked runs fn with the table locked: no function is added meanwhile.
// list is indexed as the hooks record.
func (t *functionTable) locked(fn func(list []*function)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	list := make([]*function, 0, t.len())
	t.each(func(_ uint32, f *function) { list = append(list, f) })
	fn(list)
}

// lookupOrAdd returns the function for id, creating it with mk under the
// table lock the first time.
func (t *functionTable) lookupOrAdd(id uint64, mk func(index uint32) *function) *function {
	t.mu.Lock()
	defer t.mu.Unlock()
	if f, ok := t.byID[id]; ok {
		return f
	}
	n := t.n.Load()
	f := mk(n)
	t.byID[id] = f
	if f.c == nil || n/funcChunk >= maxFuncChunks {
		return f
	}
	c := t.chunks[n/funcChunk].Load()
	if c == nil {
		c = new([funcChunk]*function)
		t.chunks[n/funcChunk].Store(c)
	}
	c[n%funcChunk] = f
	t.n.Store(n + 1)
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
		Params: m.Params, ReturnType: m.ReturnType, CompiledName: m.CompiledName,
	})
}
