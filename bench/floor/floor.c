// floor.c: the empty-hook floor of the overhead benchmark. A minimal CoreCLR
// profiler, pure C, that asks for what clrotel asks for (the same event
// mask, slow-path Enter/Leave/Tailcall hooks with argument, return value and
// frame info) and does nothing with it. Every method is hooked and none is
// inlined, like clrotel's selected methods. What a traced call costs here is
// the physical cost of ELT on the runtime; clrotel is measured against it.
//
// Built by `make bench` with gcc, never shipped.
#include "floorcom.h"

// Its own CLSID, so it can never be mistaken for clrotel.
static const GUID k_clsid = {0x3C1E0F10, 0x7B2A, 0x4E55, {0x9F, 0x21, 0x0D, 0x44, 0x6B, 0x0E, 0x11, 0x9A}};

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

__attribute__((visibility("default"))) HRESULT DllGetClassObject(const GUID *clsid, const GUID *iid, void **out) {
    if (!eq(clsid, &k_clsid))
        return CLASS_E_CLASSNOTAVAILABLE;
    floor_callbacks();
    g_cb[CB_Initialize] = (void *)initialize;
    g_cb[CB_JITInlining] = (void *)no_inlining;
    return floor_factory(iid, out);
}
