// ownfloor.c: the empty-hook floor of the default selection, for the
// start-up section of the benchmark. Like floor.c (same slow-path hooks,
// empty bodies, hooked methods never inlined) but it hooks only what
// clrotel's defaults select, the app's own code (every assembly but the
// runtime's), and keeps ReadyToRun code the way clrotel does: ENTERLEAVE
// is set only while a hooked method compiles. What a workload costs here
// is what ELT on the default selection costs at the least, whatever the
// profiler does in its hooks.
//
// Built by `make bench` with gcc, never shipped.
#include <pthread.h>
#include <string.h>

#include "floorcom.h"

static const GUID k_clsid = {0x3C1E0F11, 0x7B2A, 0x4E55, {0x9F, 0x21, 0x0D, 0x44, 0x6B, 0x0E, 0x11, 0x9B}};

static ProfInfoVtbl *g_v;
static DWORD g_mask;
static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static int g_open;

static int lit_prefix(const WCHAR *s, ULONG n, const char *lit) {
    size_t l = strlen(lit);
    if (n < l)
        return 0;
    for (size_t i = 0; i < l; i++)
        if (s[i] != (WCHAR)lit[i])
            return 0;
    return 1;
}

// The defaults' selection: no method of the runtime's own assemblies.
static int own_code(FunctionID fid) {
    ClassID cls;
    ModuleID mid;
    mdToken tok;
    LPCBYTE base;
    ULONG n = 0, an = 0;
    AssemblyID aid = 0;
    AppDomainID ad;
    ModuleID manifest;
    WCHAR name[512];
    if (g_v->GetFunctionInfo(g_info, fid, &cls, &mid, &tok) < 0 ||
        g_v->GetModuleInfo(g_info, mid, &base, 0, &n, NULL, &aid) < 0 ||
        g_v->GetAssemblyInfo(g_info, aid, 512, &an, name, &ad, &manifest) < 0 || an == 0)
        return 0;
    an--; // the terminating NUL
    if ((an == 8 && lit_prefix(name, an, "mscorlib")) || (an == 11 && lit_prefix(name, an, "netstandard")) ||
        (an == 6 && lit_prefix(name, an, "System")))
        return 0;
    return !lit_prefix(name, an, "System.") && !lit_prefix(name, an, "Microsoft.");
}

static __thread FunctionID t_open;
static __thread int t_closed;

static void close_window(void) {
    pthread_mutex_lock(&g_mu);
    if (--g_open == 0)
        g_v->SetEventMask(g_info, g_mask);
    pthread_mutex_unlock(&g_mu);
}

// As clrotel does (profiler/startup.c): the JIT has read its flags when it
// asks the mapper, so the window closes before the IL import loads the
// assemblies the method uses.
static UINT_PTR map_own(FunctionID fid, void *data, BOOL *hook) {
    (void)data;
    if (t_open == fid && !t_closed) {
        t_closed = 1;
        close_window();
    }
    *hook = own_code(fid);
    return fid;
}

static HRESULT no_inlining_own(void *self, FunctionID caller, FunctionID callee, BOOL *inl) {
    (void)self;
    (void)caller;
    if (own_code(callee))
        *inl = 0;
    return S_OK;
}

static HRESULT jit_started(void *self, FunctionID fid, BOOL safe) {
    (void)self;
    (void)safe;
    if (t_open != 0 || !own_code(fid))
        return S_OK;
    t_open = fid;
    t_closed = 0;
    pthread_mutex_lock(&g_mu);
    if (g_open++ == 0)
        g_v->SetEventMask(g_info, g_mask | COR_PRF_MONITOR_ENTERLEAVE);
    pthread_mutex_unlock(&g_mu);
    return S_OK;
}

static HRESULT jit_finished(void *self, FunctionID fid, HRESULT hr, BOOL safe) {
    (void)self;
    (void)hr;
    (void)safe;
    if (t_open != fid)
        return S_OK;
    t_open = 0;
    if (!t_closed)
        close_window();
    return S_OK;
}

static HRESULT initialize(void *self, void *unk) {
    (void)self;
    HRESULT (*uqi)(void *, const GUID *, void **) = (*(void ***)unk)[0];
    if (uqi(unk, &IID_ICorProfilerInfo3, &g_info) != S_OK)
        return E_FAIL;
    g_v = *(ProfInfoVtbl **)g_info;
    g_mask = COR_PRF_ENABLE_FUNCTION_ARGS | COR_PRF_ENABLE_FUNCTION_RETVAL | COR_PRF_ENABLE_FRAME_INFO |
             COR_PRF_MONITOR_JIT_COMPILATION | COR_PRF_MONITOR_EXCEPTIONS | COR_PRF_MONITOR_MODULE_LOADS;
    if (g_v->SetEventMask(g_info, g_mask) < 0 || g_v->SetFunctionIDMapper2(g_info, map_own, NULL) < 0)
        return E_FAIL;
    return g_v->SetEnterLeaveFunctionHooks3WithInfo(g_info, empty_hook, empty_hook, empty_hook);
}

__attribute__((visibility("default"))) HRESULT DllGetClassObject(const GUID *clsid, const GUID *iid, void **out) {
    if (!eq(clsid, &k_clsid))
        return CLASS_E_CLASSNOTAVAILABLE;
    floor_callbacks();
    g_cb[CB_Initialize] = (void *)initialize;
    g_cb[CB_JITInlining] = (void *)no_inlining_own;
    g_cb[CB_JITCompilationStarted] = (void *)jit_started;
    g_cb[CB_JITCompilationFinished] = (void *)jit_finished;
    return floor_factory(iid, out);
}
