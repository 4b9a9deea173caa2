// clrrt.h: the runtime the profiler talks to: the newest ICorProfilerInfo
// the runtime answered at Initialize, and its vtable.
//
// A leaf. The composition root (callbacks.c) opens it once and hands it to
// each component's init; a component keeps a copy (three words in its own
// static data), so the hooks reach the vtable with plain loads and no call.
#ifndef CLROTEL_CLRRT_H
#define CLROTEL_CLRRT_H

#include <stdint.h>

#include "clrapi.h"

typedef struct clr_runtime {
    void *info;         // ICorProfilerInfo<version>
    ProfInfoVtbl *vtbl; // its vtable
    uint32_t version;   // 3 to 12
} clr_runtime;

// Asks unk (Initialize's argument) for the newest ICorProfilerInfo, from 12
// down to 3. NULL when it answers none (the app then runs unprofiled).
const clr_runtime *clr_runtime_open(void *unk);

// The runtime clr_runtime_open found, for Go's cgo code, which has no init
// to receive it in. The C files get it passed.
void *clr_info(void);
ProfInfoVtbl *clr_info_vtbl(void);
uint32_t clr_info_version(void);

#endif
