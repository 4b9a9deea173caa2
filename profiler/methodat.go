package main

/*
#include <string.h>
#include "values.h"
#include "clrinfo.h"
#include "profiler.h"

// clr_code_function finds the method whose code a delegate's method pointer
// leads to. That pointer is usually not the code itself but a precode, a
// stub that jumps to the code once it is compiled: on .NET Core 3.1 a
// "jmp rel32" (E9), on .NET 7+ a "jmp [rip+disp32]" (FF 25) through the
// precode's data. Such jumps are followed (at most four steps), each target
// asked of GetFunctionFromIP, which names compiled managed code from any
// thread. A precode whose method is not compiled (or whose patching waits
// for a later tier: a stub made for ldftn) jumps to its own second half,
// which loads its MethodDesc into r10 (the register the prestub reads it
// from) before going on: "mov r10, [rip+disp32]" (4C 8B 15) on .NET 7+,
// "mov r10, imm64" (49 BA) before. That MethodDesc, a FunctionID in
// CoreCLR, is taken only when the runtime (asked guarded) knows it as a
// method of a loaded module. Anything else is "not known": the delegate
// shows without its method. Runs on a Go thread, never in a hook; memory
// is read through clr_safe_copy. Nothing of this runs on the app's thread:
// the hook copies the pointer fields with the delegate's others, and each
// address is resolved once (MethodAt caches).
__attribute__((noinline)) static HRESULT function_known(uintptr_t fid) {
    HRESULT hr;
    ClassID cls = 0;
    ModuleID mod = 0;
    mdToken tok = 0;
    ULONG32 n = 0;
    CLR_GUARDED(hr, clr_info_vtbl()->GetFunctionInfo2(clr_info(), fid, 0, &cls, &mod, &tok, 0, &n, NULL));
    if (hr < 0 || mod == 0 || !clr_module_known(mod) || (tok >> 24) != 0x06)
        return E_FAIL;
    return S_OK;
}

static int clr_code_function(uintptr_t ip, uintptr_t *fid) {
    for (int step = 0; step < 4 && ip != 0; step++) {
        FunctionID f = 0;
        if (clr_info_vtbl()->GetFunctionFromIP(clr_info(), (LPCBYTE)ip, &f) >= 0 && f != 0) {
            *fid = f;
            return 0;
        }
        uint8_t op[10];
        int32_t rel;
        uintptr_t next = 0;
        if (clr_safe_copy(op, (const void *)ip, sizeof op) != 0)
            return -1;
        if (op[0] == 0xE9) { // jmp rel32
            memcpy(&rel, op + 1, 4);
            ip = ip + 5 + (intptr_t)rel;
        } else if (op[0] == 0xFF && op[1] == 0x25) { // jmp [rip+disp32]
            memcpy(&rel, op + 2, 4);
            if (clr_safe_copy(&next, (const void *)(ip + 6 + (intptr_t)rel), 8) != 0)
                return -1;
            ip = next;
        } else if (op[0] == 0x4C && op[1] == 0x8B && op[2] == 0x15) { // mov r10, [rip+disp32]
            memcpy(&rel, op + 3, 4);
            if (clr_safe_copy(&next, (const void *)(ip + 7 + (intptr_t)rel), 8) != 0 || function_known(next) != S_OK)
                return -1;
            *fid = next;
            return 0;
        } else if (op[0] == 0x49 && op[1] == 0xBA) { // mov r10, imm64
            memcpy(&next, op + 2, 8);
            if (function_known(next) != S_OK)
                return -1;
            *fid = next;
            return 0;
        } else {
            return -1;
        }
    }
    return -1;
}
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
