// clrrt.c: the runtime's ICorProfilerInfo, found once at Initialize
// (clrrt.h).
#include <stddef.h>

#include "clrrt.h"

static clr_runtime g_rt;

const clr_runtime *clr_runtime_open(void *unk) {
    static const GUID *const infos[] = {
        &IID_ICorProfilerInfo12, &IID_ICorProfilerInfo11, &IID_ICorProfilerInfo10,
        &IID_ICorProfilerInfo9, &IID_ICorProfilerInfo8, &IID_ICorProfilerInfo7,
        &IID_ICorProfilerInfo6, &IID_ICorProfilerInfo5, &IID_ICorProfilerInfo4,
        &IID_ICorProfilerInfo3,
    };
    HRESULT (*qi)(void *, const GUID *, void **) = (*(void ***)unk)[0];
    for (size_t i = 0; i < sizeof infos / sizeof *infos; i++) {
        void *info = NULL;
        if (qi(unk, infos[i], &info) == S_OK && info != NULL) {
            g_rt.info = info;
            g_rt.vtbl = *(ProfInfoVtbl **)info;
            g_rt.version = 12 - (uint32_t)i;
            return &g_rt;
        }
    }
    return NULL;
}

void *clr_info(void) { return g_rt.info; }
ProfInfoVtbl *clr_info_vtbl(void) { return g_rt.vtbl; }
uint32_t clr_info_version(void) { return g_rt.version; }
