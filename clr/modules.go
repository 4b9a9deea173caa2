package clr

/*
#include "clrinfo.h"
#include "profiler.h"
*/
import "C"

import (
	"slices"
	"sync"
)

// maxModules bounds the modules one lookup by name scans.
const maxModules = 8192

// Modules lists the loaded modules, through a buffer kept for the next
// call (a lookup by name may run per compiled method). Not safe for
// concurrent use.
type Modules struct {
	buf []C.uintptr_t
	ids []uint64
}

// Loaded returns the loaded modules; the slice is reused by the next call.
func (l *Modules) Loaded() []uint64 {
	if l.buf == nil {
		l.buf = make([]C.uintptr_t, maxModules)
	}
	n := C.clr_modules(&l.buf[0], C.uint32_t(len(l.buf)))
	l.ids = l.ids[:0]
	for _, m := range l.buf[:n] {
		l.ids = append(l.ids, uint64(m))
	}
	return l.ids
}

// modulesBufs are Modules' buffers for LoadedModules: a lookup by name
// runs per compiled method, and each buffer is 64 KiB.
var modulesBufs = sync.Pool{New: func() any { return new(Modules) }}

// LoadedModules returns the loaded modules in a slice of its own. Safe
// for concurrent use.
func LoadedModules() []uint64 {
	l := modulesBufs.Get().(*Modules)
	ids := slices.Clone(l.Loaded())
	modulesBufs.Put(l)
	return ids
}

// ModuleLoaded reports whether module is loaded and not unloaded since.
func ModuleLoaded(module uint64) bool {
	return C.clr_module_known(C.uintptr_t(module)) != 0
}
