package main

/*
#include <stdlib.h>
#include "capture.h"
#include "rejit.h"
*/
import "C"

import (
	"time"
	"unsafe"

	"github.com/clrotel/clrotel/folding"
	"github.com/clrotel/clrotel/selection"
)

// reJITLoop finds the functions the hooks folded and hands them, batched
// by package folding, to the ReJIT thread (rejit.c), until stop closes.
func (p *profiler) reJITLoop(stop <-chan struct{}) {
	b := folding.NewBatcher(p.cfg.Fold.ReJIT)
	tick := time.NewTicker(p.cfg.Fold.ReJIT.Interval / 2)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case now := <-tick.C:
			p.funcs.Each(func(i uint32, f *function) {
				if f != nil && f.c != nil && f.flags()&selection.FnFolded != 0 && !p.keepHooks(f) {
					b.Add(i)
				}
			})
			batch := b.Next(now)
			if len(batch) == 0 {
				continue
			}
			fns := make([]*C.clr_fn, len(batch))
			for k, i := range batch {
				fns[k] = p.funcs.At(i).c
			}
			// C memory: the ReJIT thread keeps the pointers after the call.
			arr := (**C.clr_fn)(C.malloc(C.size_t(len(fns)) * C.size_t(unsafe.Sizeof(fns[0]))))
			copy(unsafe.Slice(arr, len(fns)), fns)
			n := int(C.clr_rejit_submit(arr, C.uint32_t(len(fns))))
			C.free(unsafe.Pointer(arr))
			if n < 0 {
				p.log.Warnf("re-JIT without hooks unavailable on this runtime: folded calls keep their hooks")
				return
			}
			if n < len(fns) {
				// The rest stay hooked (and counted).
				p.log.Debugf("re-JIT queue full: %d of %d folded methods queued", n, len(fns))
			}
			p.log.Debugf("re-JIT of %d folded methods asked for", n)
		}
	}
}

func rejitInstalled() uint64 { return uint64(C.clr_rejit_installed()) }

// reJITNote is the exit summary's line on re-JIT (empty when off).
func reJITNote() string {
	return folding.ReJITNote(uint64(C.clr_rejit_requested()), uint64(C.clr_rejit_installed()), uint64(C.clr_rejit_failed()), uint64(C.clr_rejit_waiting()))
}
