package main

/*
#include "clrinfo.h"
*/
import "C"

// maxMethodCache bounds MethodAt's cache (delegates' code addresses).
const maxMethodCache = 4096

// MethodAt implements values.Methods: the method a delegate's code pointer
// leads to, as span names show it (Acme.Shop.Service.Count(Int32 extra)).
// Called by the renderer, off the app's threads. An address that names no
// method is retried later (its method may get compiled), not cached.
func (pl *planner) MethodAt(code uint64) (string, bool) {
	pl.methodsMu.Lock()
	name, ok := pl.methods[code]
	pl.methodsMu.Unlock()
	if ok {
		return name, true
	}
	pl.rt.RLock()
	defer pl.rt.RUnlock()
	if pl.rtClosed {
		return "", false
	}
	var fid C.uintptr_t
	if C.clr_code_function(C.uintptr_t(code), &fid) != 0 {
		return "", false
	}
	m, err := pl.p.resolver.Method(uint64(fid), 0, nil)
	if err != nil {
		return "", false
	}
	name = m.FunctionName + "(" + m.Params + ")"
	pl.methodsMu.Lock()
	if pl.methods == nil || len(pl.methods) >= maxMethodCache {
		pl.methods = map[uint64]string{}
	}
	pl.methods[code] = name
	pl.methodsMu.Unlock()
	return name, true
}
