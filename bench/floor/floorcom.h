// floorcom.h: the COM plumbing both floor profilers share (floor.c,
// ownfloor.c): the callback object whose vtable is g_cb, its class factory,
// and the interfaces they answer. Each floor is one C file that `make
// bench` compiles alone into its own library, so this header holds
// definitions, static to that file.
#ifndef CLROTEL_BENCH_FLOORCOM_H
#define CLROTEL_BENCH_FLOORCOM_H

#include <string.h>

#include "../../profiler/clrapi.h"

typedef struct { void **vtbl; } object;
static void *g_cb[CB_COUNT_11];
static object g_profiler = {g_cb};
static void *g_info;

static int eq(const GUID *a, const GUID *b) { return memcmp(a, b, sizeof *a) == 0; }
static HRESULT ok(void) { return S_OK; }
static ULONG ref(void *self) { (void)self; return 1; }

static HRESULT qi(void *self, const GUID *iid, void **out) {
    const GUID *known[] = {&IID_IUnknown, &IID_ICorProfilerCallback, &IID_ICorProfilerCallback2,
                           &IID_ICorProfilerCallback3, &IID_ICorProfilerCallback4, &IID_ICorProfilerCallback5,
                           &IID_ICorProfilerCallback6, &IID_ICorProfilerCallback7, &IID_ICorProfilerCallback8,
                           &IID_ICorProfilerCallback9, &IID_ICorProfilerCallback10, &IID_ICorProfilerCallback11};
    for (size_t i = 0; i < sizeof known / sizeof *known; i++)
        if (eq(iid, known[i])) {
            *out = self;
            return S_OK;
        }
    *out = NULL;
    return E_NOINTERFACE;
}

static void empty_hook(UINT_PTR id, COR_PRF_ELT_INFO elt) {
    (void)id;
    (void)elt;
}

// floor_callbacks makes every callback answer S_OK, but for IUnknown's
// three; the floor then sets the few it handles.
static void floor_callbacks(void) {
    for (size_t i = 0; i < CB_COUNT_11; i++)
        g_cb[i] = (void *)ok;
    g_cb[0] = (void *)qi;
    g_cb[1] = (void *)ref;
    g_cb[2] = (void *)ref;
}

static HRESULT cf_create(void *self, void *outer, const GUID *iid, void **out) {
    (void)self;
    if (outer != NULL)
        return CLASS_E_NOAGGREGATION;
    return qi(&g_profiler, iid, out);
}

static HRESULT cf_qi(void *self, const GUID *iid, void **out) {
    if (eq(iid, &IID_IUnknown) || eq(iid, &IID_IClassFactory)) {
        *out = self;
        return S_OK;
    }
    *out = NULL;
    return E_NOINTERFACE;
}

static HRESULT cf_lock(void *self, BOOL l) { (void)self; (void)l; return S_OK; }
static void *g_cf_vtbl[5] = {(void *)cf_qi, (void *)ref, (void *)ref, (void *)cf_create, (void *)cf_lock};
static object g_factory = {g_cf_vtbl};

// floor_factory answers DllGetClassObject once the floor's CLSID matched
// and its callbacks are set.
static HRESULT floor_factory(const GUID *iid, void **out) { return cf_qi(&g_factory, iid, out); }

#endif
