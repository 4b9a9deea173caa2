// queue.c: work queued where the caller's ExecutionContext does not flow
// starts a trace of its own, linked to the span that made it.
//
// Queued work joins its maker's trace through the closure its lambda
// captured (async.c gives closure classes fields, hooks.c stamps them when
// the closure is made). Whether the context flows is decided later, when
// the work is queued: ThreadPool.UnsafeQueueUserWorkItem never flows it,
// and any queuing method skips it while ExecutionContext.SuppressFlow() is
// in force on the queuing thread (its ExecutionContext's m_isFlowSuppressed,
// read as ambient.c reads Activity.Current). So CoreLib's queuing methods
// (clr_queue_apis, registered by async.c at CoreLib's load) are hooked,
// make no span, and on Enter, when the flow is suppressed, mark the
// closures their callback arguments target: the check word changes to
// clr_closure_check(..., suppressed = 1), and hooks.c then starts a new
// trace for the work, with a span link to the closure's span.
//
// What identifies a closure is its class (the object's MethodTable, which
// is its ClassID): Go adds each closure class whose layout it knows to a
// fixed table. Every read of the app's objects is guarded (clr_safe_copy);
// a write happens only into an object whose class is in the table, at the
// offsets Go found in that class's layout. The hook runs in cooperative
// mode, so no GC moves the objects meanwhile.
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "ambient.h"
#include "clrapi.h"
#include "clrinfo.h"
#include "profiler.h"
#include "queue.h"
#include "values.h"
#include "eltargs.h"
#include "safecopy.h"

static clr_runtime g_rt;
void clr_queue_init(const clr_runtime *rt) { g_rt = *rt; }

static const char *const k_threadpool[] = {"QueueUserWorkItem", "UnsafeQueueUserWorkItem", "RegisterWaitForSingleObject",
                                           "UnsafeRegisterWaitForSingleObject"};
static const char *const k_task[] = {"Run", "ContinueWith"};
static const char *const k_task1[] = {"ContinueWith"};
static const char *const k_factory[] = {"StartNew"};
static const char *const k_timer[] = {".ctor"};

const clr_queue_api clr_queue_apis[] = {
    {"System.Threading.ThreadPool", k_threadpool, 4},
    {"System.Threading.Tasks.Task", k_task, 2},
    {"System.Threading.Tasks.Task`1", k_task1, 1},
    {"System.Threading.Tasks.TaskFactory", k_factory, 1},
    {"System.Threading.Tasks.TaskFactory`1", k_factory, 1},
    {"System.Threading.Timer", k_timer, 1},
    {NULL, NULL, 0},
};

static _Atomic uint32_t g_target_off;
static _Atomic uint64_t g_suppressed; // closures marked

void clr_queue_set_target_offset(uint32_t off) { atomic_store_explicit(&g_target_off, off, memory_order_release); }
uint64_t clr_queue_suppressed(void) { return atomic_load_explicit(&g_suppressed, memory_order_relaxed); }

// Closure classes: open addressing on the ClassID, written under a mutex
// (offsets first, then the key with release), read lock-free.
enum { CLOSURE_CLASSES = 4096 }; // a power of two
static struct {
    _Atomic uintptr_t cls;
    uint16_t off[CLOSURE_FIELDS];
} g_classes[CLOSURE_CLASSES];
static pthread_mutex_t g_classes_mu = PTHREAD_MUTEX_INITIALIZER;

static inline uint32_t class_slot(uintptr_t cls) { return (uint32_t)((cls >> 3) * 0x9e3779b97f4a7c15ull >> 52) & (CLOSURE_CLASSES - 1); }

int clr_closure_class_add(uintptr_t cls, const uint16_t off[CLOSURE_FIELDS]) {
    if (cls == 0)
        return -1;
    int rc = -1;
    pthread_mutex_lock(&g_classes_mu);
    for (uint32_t i = 0, k = class_slot(cls); i < CLOSURE_CLASSES; i++, k = (k + 1) & (CLOSURE_CLASSES - 1)) {
        uintptr_t c = atomic_load_explicit(&g_classes[k].cls, memory_order_relaxed);
        if (c == cls) {
            rc = 0;
            break;
        }
        if (c == 0) {
            memcpy(g_classes[k].off, off, sizeof g_classes[k].off);
            atomic_store_explicit(&g_classes[k].cls, cls, memory_order_release);
            rc = 0;
            break;
        }
    }
    pthread_mutex_unlock(&g_classes_mu);
    return rc;
}

static const uint16_t *closure_class(uintptr_t cls) {
    for (uint32_t i = 0, k = class_slot(cls); i < 64; i++, k = (k + 1) & (CLOSURE_CLASSES - 1)) {
        uintptr_t c = atomic_load_explicit(&g_classes[k].cls, memory_order_acquire);
        if (c == cls)
            return g_classes[k].off;
        if (c == 0)
            return NULL;
    }
    return NULL;
}

// Marks the closure obj (if it is one) as queued with the flow suppressed.
static void mark(uintptr_t obj) {
    uintptr_t cls = 0;
    if (!clr_guarded_read(&cls, obj, 8) || cls == 0)
        return;
    const uint16_t *off = closure_class(cls);
    if (off == NULL)
        return;
    uint64_t w[CLOSURE_FIELDS];
    for (int i = 0; i < CLOSURE_FIELDS; i++)
        if (!clr_guarded_read(&w[i], obj + off[i], 8))
            return;
    volatile uint64_t *check = (volatile uint64_t *)(obj + off[3]);
    if ((w[0] | w[1] | w[2]) == 0) {
        // Made under an unsampled span: its work is not bound by that
        // decision any more (a new trace, sampled on its own).
        if (w[3] == ASYNC_UNTRACED)
            *check = 0;
        return;
    }
    if (w[3] == clr_closure_check(w[0], w[1], w[2], w[4], 0)) {
        *check = clr_closure_check(w[0], w[1], w[2], w[4], 1);
        atomic_fetch_add_explicit(&g_suppressed, 1, memory_order_relaxed);
    }
}

// A delegate's target object, when it has one other than the delegate.
static int delegate_target(uintptr_t dlg, uint32_t target_off, uintptr_t *target) {
    return dlg != 0 && clr_guarded_read(target, dlg + target_off, 8) && *target != 0 && *target != dlg;
}

// The callback arguments' targets. With FN_QUEUE_REGISTERS they are the
// words the runtime's stub saved from rdi and rsi, read without asking the
// runtime, which would walk the method's signature on each call (eltargs.h).
// Otherwise the references are read before the floating-point registers
// the runtime saved are put back (eltargs.h), as value capture does.
static void mark_callbacks(clr_fn *fn, uintptr_t elt, uint32_t target_off) {
    uintptr_t targets[16], dlg = 0, target = 0;
    uint32_t n = 0;
    if (fn->flags & FN_QUEUE_REGISTERS) {
        if ((fn->queue_args & 1) && delegate_target(clr_elt_this(&g_rt, fn->function_id, elt), target_off, &target))
            targets[n++] = target;
        if ((fn->queue_args & 2) && clr_elt_arg1_word(&g_rt, fn->function_id, elt, &dlg) && delegate_target(dlg, target_off, &target))
            targets[n++] = target;
    } else {
        clr_enter_args ai;
        clr_elt_fp fp;
        COR_PRF_FRAME_INFO frame = 0;
        if (clr_enter_args_get(&g_rt, fn->function_id, elt, &frame, &ai, &fp) >= 0) {
            for (ULONG i = 0; i < ai.info.numRanges && i < 16; i++)
                if ((fn->queue_args & (1u << i)) && ai.info.ranges[i].length == 8 &&
                    clr_guarded_read(&dlg, ai.info.ranges[i].startAddress, 8) && delegate_target(dlg, target_off, &target))
                    targets[n++] = target;
        }
        clr_enter_args_done(&fp);
    }
    for (uint32_t i = 0; i < n; i++)
        mark(targets[i]);
}

void clr_queue_point(clr_fn *fn, uintptr_t elt) {
    uint32_t target_off = atomic_load_explicit(&g_target_off, memory_order_acquire);
    if (fn->queue_args == 0 || target_off == 0)
        return;
    if (!(fn->flags & FN_QUEUE_UNSAFE) && !clr_ambient_flow_suppressed())
        return;
    mark_callbacks(fn, elt, target_off);
}
