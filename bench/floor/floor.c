// floor.c: the empty-hook floor of the overhead benchmark. A minimal CoreCLR
// profiler, pure C, that asks for what clrotel asks for (the same event
// mask, slow-path Enter/Leave/Tailcall hooks with argument, return value and
// frame info) and does nothing with it. Every method is hooked and none is
// inlined, like clrotel's selected methods. What a traced call costs here is
// the physical cost of ELT on the runtime; clrotel is measured against it.
//
// Built by `make bench` with gcc, never shipped.
#include <string.h>

#include "../../profiler/clrapi.h"

// Its own CLSID, so it can never be mistaken for clrotel.
static const GUID k_clsid = {0x3C1E0F10, 0x7B2A, 0x4E55, {0x9F, 0x21, 0x0D, 0x44, 0x6B, 0x0E, 0x11, 0x9A}};

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

static UINT_PTR map_all(FunctionID fid, void *data, BOOL *hook) {
    (void)data;
    *hook = 1;
    return fid;
}

static HRESULT no_inlining(void *self, FunctionID caller, FunctionID callee, BOOL *inl) {
    (void)self;
    (void)caller;
    (void)callee;
    *inl = 0;
    return S_OK;
}

static HRESULT initialize(void *self, void *unk) {
    (void)self;
    HRESULT (*uqi)(void *, const GUID *, void **) = (*(void ***)unk)[0];
    if (uqi(unk, &IID_ICorProfilerInfo3, &g_info) != S_OK)
        return E_FAIL;
    ProfInfoVtbl *v = *(ProfInfoVtbl **)g_info;
    // clrotel's mask (profiler/main.go eventMask).
    DWORD mask = COR_PRF_MONITOR_ENTERLEAVE | COR_PRF_ENABLE_FUNCTION_ARGS | COR_PRF_ENABLE_FUNCTION_RETVAL |
                 COR_PRF_ENABLE_FRAME_INFO | COR_PRF_MONITOR_JIT_COMPILATION | COR_PRF_MONITOR_EXCEPTIONS |
                 COR_PRF_MONITOR_MODULE_LOADS;
    if (v->SetEventMask(g_info, mask) < 0 || v->SetFunctionIDMapper2(g_info, map_all, NULL) < 0)
        return E_FAIL;
    return v->SetEnterLeaveFunctionHooks3WithInfo(g_info, empty_hook, empty_hook, empty_hook);
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

__attribute__((visibility("default"))) HRESULT DllGetClassObject(const GUID *clsid, const GUID *iid, void **out) {
    if (!eq(clsid, &k_clsid))
        return CLASS_E_CLASSNOTAVAILABLE;
    for (size_t i = 0; i < CB_COUNT_11; i++)
        g_cb[i] = (void *)ok;
    g_cb[0] = (void *)qi;
    g_cb[1] = (void *)ref;
    g_cb[2] = (void *)ref;
    g_cb[CB_Initialize] = (void *)initialize;
    g_cb[CB_JITInlining] = (void *)no_inlining;
    return cf_qi(&g_factory, iid, out);
}
