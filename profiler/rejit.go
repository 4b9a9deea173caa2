package main

/*
#include <stdlib.h>
#include "capture.h"
#include "rejit.h"
*/
import "C"

import (
	"unsafe"

	"github.com/clrotel/clrotel/folding"
	"github.com/clrotel/clrotel/selection"
)

// reJITLoop runs package folding's re-JIT loop over the function table and
// the ReJIT thread (rejit.c) until stop closes.
func (p *profiler) reJITLoop(stop <-chan struct{}) {
	folding.ReJITLoop{Config: p.cfg.Fold.ReJIT, Submit: p.submitReJIT, Warnf: p.log.Warnf, Debugf: p.log.Debugf,
		Folded: func(add func(uint32)) {
			p.funcs.Each(func(i uint32, f *function) {
				if f != nil && f.c != nil && f.flags()&selection.FnFolded != 0 {
					add(i)
				}
			})
		},
		Log:      foldLog{},
		OnFolded: p.iterFolded,
		KeepHooks: func(i uint32) bool {
			f := p.funcs.At(i)
			return f == nil || f.c == nil || p.keepHooks(f)
		}}.Run(stop)
}

// foldLog is the hooks' log of the methods they folded (fold.c).
type foldLog struct{}

func (foldLog) Len() uint32 { return uint32(C.clr_folds()) }
func (foldLog) Cap() uint32 { return C.FOLD_LOG_CAP }

func (foldLog) At(i uint32) (uint32, bool) {
	v := uint32(C.clr_fold_logged(C.uint32_t(i)))
	return v - 1, v != 0
}

// submitReJIT hands a batch of functions to the ReJIT thread, in C memory:
// it keeps the pointers after the call.
func (p *profiler) submitReJIT(batch []uint32) int {
	arr := (**C.clr_fn)(C.malloc(C.size_t(len(batch)) * C.size_t(unsafe.Sizeof((*C.clr_fn)(nil)))))
	fns := unsafe.Slice(arr, len(batch))
	for k, i := range batch {
		fns[k] = p.funcs.At(i).c
	}
	n := int(C.clr_rejit_submit(arr, C.uint32_t(len(fns))))
	C.free(unsafe.Pointer(arr))
	return n
}
