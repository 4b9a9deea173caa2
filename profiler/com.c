// com.c: the COM surface the runtime sees: DllGetClassObject, the class
// factory, and the ICorProfilerCallback object's IUnknown and vtable. The
// callbacks themselves are callbacks.c's (clr_callbacks_fill).
#include <stddef.h>
#include <string.h>

#include "clrapi.h"
#include "callbacks.h"

// The project's CLSID; cmd/clrotel prints the same value.
static const GUID k_clsid = {0x8A4C3E5B, 0x2F61, 0x4D7A, {0x9C, 0x0E, 0x5B, 0x1D, 0x7E, 0x3F, 0x6A, 0x21}};

static int guid_eq(const GUID *a, const GUID *b) { return memcmp(a, b, sizeof(GUID)) == 0; }

// ---- the callback object -------------------------------------------------

typedef struct { void **vtbl; } com_object;

static void *g_cb_vtbl[CB_COUNT_11];
static com_object g_profiler = {g_cb_vtbl};

static const GUID *const k_callback_iids[] = {
    &IID_IUnknown, &IID_ICorProfilerCallback, &IID_ICorProfilerCallback2,
    &IID_ICorProfilerCallback3, &IID_ICorProfilerCallback4, &IID_ICorProfilerCallback5,
    &IID_ICorProfilerCallback6, &IID_ICorProfilerCallback7, &IID_ICorProfilerCallback8,
    &IID_ICorProfilerCallback9, &IID_ICorProfilerCallback10, &IID_ICorProfilerCallback11,
};

static HRESULT cb_query_interface(void *self, const GUID *iid, void **out) {
    for (size_t i = 0; i < sizeof k_callback_iids / sizeof *k_callback_iids; i++) {
        if (guid_eq(iid, k_callback_iids[i])) {
            *out = self;
            return S_OK;
        }
    }
    *out = NULL;
    return E_NOINTERFACE;
}

// The object is static: reference counting has nothing to free.
static ULONG cb_add_ref(void *self) { (void)self; return 1; }
static ULONG cb_release(void *self) { (void)self; return 1; }

// On x86-64 SysV the caller cleans up its arguments, so one S_OK stub can
// stand in for every callback the profiler does not implement.
static HRESULT cb_ok(void) { return S_OK; }

static void build_vtable(void) {
    for (size_t i = 0; i < CB_COUNT_11; i++)
        g_cb_vtbl[i] = (void *)cb_ok;
    g_cb_vtbl[0] = (void *)cb_query_interface;
    g_cb_vtbl[1] = (void *)cb_add_ref;
    g_cb_vtbl[2] = (void *)cb_release;
    clr_callbacks_fill(g_cb_vtbl);
}

// ---- the class factory ---------------------------------------------------

static HRESULT cf_query_interface(void *self, const GUID *iid, void **out) {
    if (guid_eq(iid, &IID_IUnknown) || guid_eq(iid, &IID_IClassFactory)) {
        *out = self;
        return S_OK;
    }
    *out = NULL;
    return E_NOINTERFACE;
}

static HRESULT cf_create_instance(void *self, void *outer, const GUID *iid, void **out) {
    (void)self;
    if (outer != NULL) {
        *out = NULL;
        return CLASS_E_NOAGGREGATION;
    }
    return cb_query_interface(&g_profiler, iid, out);
}

static HRESULT cf_lock_server(void *self, BOOL lock) {
    (void)self;
    (void)lock;
    return S_OK;
}

static void *g_cf_vtbl[5] = {
    (void *)cf_query_interface, (void *)cb_add_ref, (void *)cb_release,
    (void *)cf_create_instance, (void *)cf_lock_server,
};
static com_object g_factory = {g_cf_vtbl};

// The one symbol the runtime looks up. A CLSID other than the project's (a
// library from another build, a typo in CORECLR_PROFILER) is refused, and
// the runtime runs the app without a profiler.
__attribute__((visibility("default"))) HRESULT DllGetClassObject(const GUID *clsid, const GUID *iid, void **out) {
    if (out == NULL)
        return E_INVALIDARG;
    *out = NULL;
    if (!guid_eq(clsid, &k_clsid))
        return CLASS_E_CLASSNOTAVAILABLE;
    build_vtable();
    return cf_query_interface(&g_factory, iid, out);
}
