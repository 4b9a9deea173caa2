// guard.c: the guard's per-thread state and the guarded profiling-API calls
// (guard.h). Each call is out of line and does nothing but the call, as
// CLR_GUARDED requires.
#include <stdatomic.h>

#include "guard.h"

__thread void *clr_guard_buf[5] __attribute__((tls_model("initial-exec")));
__thread volatile int clr_guard_armed __attribute__((tls_model("initial-exec")));
static _Atomic uint64_t g_guard_faults;

uint64_t clr_guard_faults(void) { return atomic_load_explicit(&g_guard_faults, memory_order_relaxed); }

// In a signal handler: a plain store and a lock-free add.
void clr_guard_faulted(void) {
    clr_guard_armed = 0;
    atomic_fetch_add_explicit(&g_guard_faults, 1, memory_order_relaxed);
}

// Where a guarded call that faulted resumes: on the faulting thread's own
// stack (below the abandoned frames), it jumps back to CLR_GUARDED's
// receiver. Reached only by the handler's change of the fault context.
__attribute__((noinline, used)) void clr_guard_resume(void) { __builtin_longjmp(clr_guard_buf, 1); }

__attribute__((noinline)) HRESULT clr_guarded_class_from_object(const clr_runtime *rt, ObjectID obj, ClassID *cls) {
    HRESULT hr;
    CLR_GUARDED(hr, rt->vtbl->GetClassFromObject(rt->info, obj, cls));
    return hr;
}

__attribute__((noinline)) HRESULT clr_guarded_array_object_info(const clr_runtime *rt, ObjectID obj, ULONG32 rank, ULONG32 *dims,
                                                                int *lbounds, BYTE **data) {
    HRESULT hr;
    CLR_GUARDED(hr, rt->vtbl->GetArrayObjectInfo(rt->info, obj, rank, dims, lbounds, data));
    return hr;
}

__attribute__((noinline)) HRESULT clr_guarded_is_array_class(const clr_runtime *rt, ClassID cls, CorElementType *et, ClassID *ec,
                                                             ULONG *rank) {
    HRESULT hr;
    CLR_GUARDED(hr, rt->vtbl->IsArrayClass(rt->info, cls, et, ec, rank));
    return hr;
}

__attribute__((noinline)) HRESULT clr_guarded_class_id_info(const clr_runtime *rt, ClassID cls, ModuleID *mod, mdTypeDef *td) {
    HRESULT hr;
    CLR_GUARDED(hr, rt->vtbl->GetClassIDInfo(rt->info, cls, mod, td));
    return hr;
}

__attribute__((noinline)) HRESULT clr_guarded_class_id_info2(const clr_runtime *rt, ClassID cls, ModuleID *mod, mdTypeDef *td,
                                                             ClassID *parent, ULONG32 cap, ULONG32 *n, ClassID *args) {
    HRESULT hr;
    CLR_GUARDED(hr, rt->vtbl->GetClassIDInfo2(rt->info, cls, mod, td, parent, cap, n, args));
    return hr;
}

__attribute__((noinline)) HRESULT clr_guarded_class_layout(const clr_runtime *rt, ClassID cls, COR_FIELD_OFFSET *fields, ULONG cap,
                                                           ULONG *n, ULONG *size) {
    HRESULT hr;
    CLR_GUARDED(hr, rt->vtbl->GetClassLayout(rt->info, cls, fields, cap, n, size));
    return hr;
}

__attribute__((noinline)) HRESULT clr_guarded_box_class_layout(const clr_runtime *rt, ClassID cls, ULONG32 *offset) {
    HRESULT hr;
    CLR_GUARDED(hr, rt->vtbl->GetBoxClassLayout(rt->info, cls, offset));
    return hr;
}
