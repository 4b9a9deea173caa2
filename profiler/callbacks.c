// callbacks.c: the ICorProfilerCallback methods clrotel implements, and the
// composition root: Initialize opens the runtime (clrrt.c) and hands it,
// with the tables, to each component. The COM plumbing around them (the
// class factory, IUnknown, DllGetClassObject) is com.c's.
//
// Every callback body is C. Go is entered only from Initialize, Shutdown and
// the once-per-function JIT-time calls (FunctionIDMapper2, JITInlining), each
// time with the runtime's activation signal blocked.
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "profiler.h"
#include "async.h"
#include "workitems.h"
#include "gcevents.h"
#include "clrinfo.h"
#include "startup.h"
#include "ambient.h"
#include "rejit.h"
#include "golazy.h"
#include "park.h"
#include "disarm.h"
#include "callbacks.h"
#include "hooks.h"
#include "slots.h"
#include "queue.h"
#include "clrrt.h"
#include "lftable.h"
#include "_cgo_export.h"

// The runtime, as Initialize opened it (clrrt.h); every component gets it
// at its init.
static clr_runtime g_rt;

// Verdicts already given, by FunctionID, so that the JIT's many inlining
// questions about functions already decided do not each cross into Go:
// written once per function, never erased. A full table only means more
// calls into Go (counted).
#define VERDICTS 16384 // power of two
static lft_slot g_verdict_slots[VERDICTS];
static _Atomic uint64_t g_verdicts_full;
static lftable g_verdicts = {g_verdict_slots, VERDICTS - 1, 64, &g_verdicts_full};

uint64_t clr_verdicts_uncached(void) {
    return atomic_load_explicit(&g_verdicts_full, memory_order_relaxed) + clr_module_verdicts_uncached();
}

// A function the callbacks act on: hooked, or compiled (FN_COMPILE). The
// cache must answer for it as Go did the first time, whichever callback
// asked first (JITInlining for a callee, then its own ReadyToRun lookup).
static int verdict_kept(const clr_fn *fn) { return fn != NULL && (fn->flags & (FN_SELECTED | FN_COMPILE)); }

// The verdict: the clr_fn, or 1 for "nothing to do with it".
static void verdict_put(FunctionID fid, clr_fn *fn) { lft_put(&g_verdicts, fid, verdict_kept(fn) ? (uintptr_t)fn : 1); }

// Returns the verdict on fid, or 0 when none is known yet.
static uintptr_t verdict_get(FunctionID fid) { return lft_get(&g_verdicts, fid); }

// Set while this thread is in Go deciding on a function. Building a traced
// method's value plan may load a type, and a type load can run managed code
// (an assembly resolver) that is JIT-compiled on the same thread: that
// nested question is answered "not traced" here instead of entering Go
// again, where it would wait on the planner lock its own thread holds.
static __thread int t_mapping __attribute__((tls_model("initial-exec")));

// A task builder's SetResult/SetException, or a CoreLib method that queues
// work (async.c): asked of Go wherever it is, since it ends the spans of
// async methods, or marks work queued with the flow suppressed (queue.c).
// Its kind (async.h ASYNC_SPECIAL_*), 0 for none.
// ---- Go, started when first needed ----------------------------------------
//
// Initialize asks nothing of Go when the environment tells C enough
// (golazy.c, clr_go_can_wait): the event mask, the scope (startup.c) and
// async's module work are decided in C, and Go (its runtime, configuration,
// pipeline, goroutines) starts with the first function that may be
// selected. A process in which nothing can be selected never starts it.

enum { GO_IDLE, GO_READY, GO_FAILED };
static _Atomic int g_go_state = GO_IDLE;
static pthread_mutex_t g_go_mu = PTHREAD_MUTEX_INITIALIZER;
static uint32_t g_lazy_mask; // the mask Initialize set without Go (0: Go ran in Initialize)

static void at_exit(void);

// Go's Initialize, and what depends on its configuration: capture rings,
// value limits, the abort and exit hooks. r->event_mask is Go's mask.
static int go_initialize(clr_init_result *r) {
    memset(r, 0, sizeof *r);
    clr_go_start();
    // Go's fault handlers are in place once its initialiser returned (it
    // installs them first, synchronously): put signals.c's in front at once,
    // as managed code may be running on other threads by now.
    clr_signals_install();
    sigset_t saved;
    CLR_BLOCK_ACTIVATION(saved);
    int rc = clrotelInitialize(g_rt.info, g_rt.version, r);
    CLR_RESTORE_ACTIVATION(saved);
    if (rc != 0)
        return -1; // Go logged why
    clr_abort_hook_install();
    atexit(at_exit);
    clr_slot_table *slots = clr_slot_table_init(&r->capture);
    if (slots == NULL)
        return -1;
    // ReJIT before the hooks: folding starts from what they record.
    clr_rejit_init(&g_rt, slots);
    if (clr_hooks_init(&g_rt, slots, &r->capture) != 0)
        return -1;
    clr_values_init(&g_rt, &r->values, r->plan_table_size);
    return 0;
}

// Whether Go is initialised, starting it if Initialize left it for later.
// Called with the activation signal blocked.
// ---- CoreLib's specials before Go ------------------------------------------
//
// CoreLib's specials (async.c) are hooked from their first compile, which
// often comes before anything selected: any Task, thread or timer. Asking
// Go then would start it in a process in which nothing may ever be
// selected. Before Go starts, such a method gets a placeholder instead,
// decided in C: FN_COMPILE for that kind, else hooked and FN_PENDING (its
// hooks do nothing: no span exists before Go). When Go starts, it decides
// each placeholder as it would have (clrotelAdopt), writing the role into
// it; until then, or if it finds none, the hooks stay idle, so a link may
// be missed in that moment, never a wrong one made.

enum { MAX_PENDING = 512 }; // async.c's MAX_SPECIAL_METHODS
static pthread_mutex_t g_pending_mu = PTHREAD_MUTEX_INITIALIZER;
static clr_fn *g_pending[MAX_PENDING];
static uint32_t g_npending;

// A placeholder for special fid of the given kind, or NULL when Go is (or
// is being made) ready to answer, or no room is left.
static clr_fn *special_before_go(FunctionID fid, int kind) {
    clr_fn *fn = NULL;
    pthread_mutex_lock(&g_pending_mu);
    // Two threads asking at once get the same placeholder: Go adopts one
    // per function, and code compiled with another would stay idle.
    for (uint32_t i = 0; i < g_npending && fn == NULL; i++)
        if (g_pending[i]->function_id == fid)
            fn = g_pending[i];
    if (fn == NULL && atomic_load(&g_go_state) == GO_IDLE && (kind == ASYNC_SPECIAL_COMPILE || g_npending < MAX_PENDING)) {
        fn = calloc(1, sizeof *fn); // never freed: the hooks may get it until the process ends
        if (fn != NULL) {
            fn->function_id = fid;
            if (kind == ASYNC_SPECIAL_COMPILE) {
                fn->flags = FN_COMPILE; // all there is to it (main.go)
            } else {
                fn->flags = FN_SELECTED | FN_PENDING;
                g_pending[g_npending++] = fn;
            }
        }
    }
    pthread_mutex_unlock(&g_pending_mu);
    return fn;
}

// Called by Go (clrotelAdopt): gives placeholder ph the role Go decided,
// src, or none (src NULL). The hooks read ph's flags first: they see the
// role only once the rest is in place.
void clr_fn_adopt(clr_fn *ph, const clr_fn *src) {
    if (src == NULL) {
        __atomic_store_n(&ph->flags, (uint32_t)FN_PENDING, __ATOMIC_RELEASE);
        return;
    }
    clr_fn tmp;
    memcpy(&tmp, src, sizeof tmp);
    tmp.flags = ph->flags;
    memcpy(ph, &tmp, sizeof tmp);
    __atomic_store_n(&ph->flags, src->flags, __ATOMIC_RELEASE);
}

static int go_ready(void) {
    int st = atomic_load_explicit(&g_go_state, memory_order_acquire);
    if (st != GO_IDLE)
        return st == GO_READY;
    pthread_mutex_lock(&g_go_mu);
    if (atomic_load(&g_go_state) == GO_IDLE) {
        clr_init_result r;
        st = go_initialize(&r) == 0 ? GO_READY : GO_FAILED;
        // Initialize fixed the immutable bits: Go's configuration agrees
        // with the environment C read (the same rules), but a bit Go wants
        // and does not have means a broken rule: say so, trace on.
        uint32_t missing = (r.event_mask & ~(uint32_t)COR_PRF_MONITOR_ENTERLEAVE) & ~g_lazy_mask;
        if (st == GO_READY && missing != 0)
            clrotelLogMask(missing);
        // From here on Go answers for specials; the placeholders made so
        // far are decided now, as Go would have decided them.
        pthread_mutex_lock(&g_pending_mu);
        atomic_store_explicit(&g_go_state, st, memory_order_release);
        uint32_t n = g_npending;
        pthread_mutex_unlock(&g_pending_mu);
        if (st == GO_READY && n > 0)
            clrotelAdopt(g_pending, n);
    }
    pthread_mutex_unlock(&g_go_mu);
    return atomic_load(&g_go_state) == GO_READY;
}

// ---- Go started early, on a thread of its own -----------------------------
//
// With the defaults the app's own code is selected, and its entry point is
// in it: Go will start at the first compile of the app's code. Started
// then, its ~6 ms (runtime, ~190 packages' initialisation, the OTLP
// pipeline) are added to the app's start on the app's main thread; started
// at Initialize on a thread of its own, they overlap the runtime's start
// (CoreLib, the host's set-up) on another core. The CPU is the same; the
// wall time is what an operator waits for.
//
// The thread starts Go's runtime at once (no runtime call: its handlers
// are wrapped by signals.c right after, as go_initialize does), then waits
// for the runtime's first callback after Initialize (CoreLib's load) before
// Go's Initialize asks the runtime anything: the profiling API is not open
// to other threads while Initialize runs. Once managed code runs (the first
// compile or ReadyToRun lookup: CoreLib's base classes are loaded), it does
// the planner's one-time reads (String, the primitive boxes, Exception)
// that the first traced method would otherwise wait for. A compile that
// needs Go before it is ready waits on g_go_mu, as it waited for Go's start
// before.

enum { RT_STARTING, RT_CALLING_BACK, RT_RUNNING_CODE };
static pthread_mutex_t g_active_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_active_cv = PTHREAD_COND_INITIALIZER;
static _Atomic int g_runtime_stage = RT_STARTING;

// The runtime reached stage st (callbacks.c's callbacks tell).
static void runtime_reached(int st) {
    if (atomic_load_explicit(&g_runtime_stage, memory_order_acquire) >= st)
        return;
    pthread_mutex_lock(&g_active_mu);
    if (atomic_load(&g_runtime_stage) < st)
        atomic_store_explicit(&g_runtime_stage, st, memory_order_release);
    pthread_cond_broadcast(&g_active_cv);
    pthread_mutex_unlock(&g_active_mu);
}

static void runtime_wait(int st) {
    pthread_mutex_lock(&g_active_mu);
    while (atomic_load_explicit(&g_runtime_stage, memory_order_acquire) < st)
        pthread_cond_wait(&g_active_cv, &g_active_mu);
    pthread_mutex_unlock(&g_active_mu);
}

static void *go_prestart(void *arg) {
    (void)arg;
    // The same mask as a CLR thread starting Go would have: Go's threads
    // inherit it.
    sigset_t saved;
    CLR_BLOCK_ACTIVATION(saved);
    pthread_mutex_lock(&g_go_mu);
    if (atomic_load(&g_go_state) == GO_IDLE) {
        clr_go_start();
        clr_signals_install();
    }
    pthread_mutex_unlock(&g_go_mu);
    runtime_wait(RT_CALLING_BACK);
    if (!go_ready())
        return NULL;
    runtime_wait(RT_RUNNING_CODE);
    clrotelWarm();
    return NULL;
}

// Starts go_prestart, detached. A failure leaves the start to the first
// compile that needs Go, as without it.
static void go_prestart_spawn(void) {
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0)
        return;
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t t;
    pthread_create(&t, &attr, go_prestart, NULL);
    pthread_attr_destroy(&attr);
}

// Asks Go (once per function) whether fid is traced. compiling: the runtime
// is compiling code on this thread (not just looking up ReadyToRun code).
static clr_fn *map_function_from(FunctionID fid, int compiling) {
    uintptr_t v = verdict_get(fid);
    if (v != 0)
        return v == 1 ? NULL : (clr_fn *)v;
    if (t_mapping)
        return NULL;
    // One GetFunctionInfo answers both: is its module in scope (unknown:
    // ask Go), and is it one of CoreLib's specials.
    ClassID cls = 0;
    ModuleID mid = 0;
    mdToken tok = 0;
    int known = g_rt.vtbl->GetFunctionInfo(g_rt.info, fid, &cls, &mid, &tok) >= 0;
    int in_scope = !known || clr_module_in_scope(mid);
    int special = in_scope ? 0 : clr_async_special_method(mid, tok);
    if (!in_scope && !special) {
        // As clrotelMapFunction does for functions it is asked about: a
        // dying thread compiling the code that prints its unhandled
        // exception (framework code, never asked of Go). Not on a
        // ReadyToRun lookup: the runtime makes those between the last
        // traced frame's visit and the catcher's, for exceptions caught.
        if (compiling && clr_unhandled_suspected())
            clr_abort_wait();
        // Not cached: answered again from the module's scope, and the
        // framework's thousands of methods would touch every page of the
        // table (a page fault each, 0.5 ms of a hello world's start).
        return NULL;
    }
    if (special) {
        clr_fn *ph = special_before_go(fid, special);
        if (ph != NULL) {
            verdict_put(fid, ph);
            return ph;
        }
    }
    t_mapping = 1;
    sigset_t saved;
    CLR_BLOCK_ACTIVATION(saved);
    clr_fn *fn = go_ready() ? clrotelMapFunction(fid) : NULL;
    CLR_RESTORE_ACTIVATION(saved);
    t_mapping = 0;
    verdict_put(fid, fn);
    return fn;
}

static clr_fn *map_function(FunctionID fid) { return map_function_from(fid, 1); }

static UINT_PTR function_mapper(FunctionID fid, void *client_data, BOOL *hook) {
    (void)client_data;
    clr_startup_mapped(fid);
    clr_fn *fn = map_function(fid);
    if (fn == NULL || !(fn->flags & FN_SELECTED) || (fn->flags & FN_REJIT)) { // FN_REJIT: rejit.c
        *hook = 0;
        return fid;
    }
    *hook = 1;
    return (UINT_PTR)fn;
}

// A runtime hosted by another program (pythonnet in CPython, a native host)
// may never be shut down: the process just exits. The same flush then runs
// from exit(); after a Shutdown callback it does nothing (Go runs it once).
static void at_exit(void) {
    clr_rejit_shutdown();
    if (atomic_load(&g_go_state) != GO_READY)
        return;
    sigset_t saved;
    CLR_BLOCK_ACTIVATION(saved);
    clrotelShutdown();
    CLR_RESTORE_ACTIVATION(saved);
}

static HRESULT cb_initialize(void *self, void *unk) {
    (void)self;
    // OTEL_SDK_DISABLED=true, the OpenTelemetry specification's switch for
    // every signal: refused, as an unknown CLSID is. The runtime releases
    // the profiler and runs the app as without it; Go never starts.
    if (clr_env_true(clr_initial_getenv("OTEL_SDK_DISABLED")))
        return E_FAIL;
    const clr_runtime *rt = clr_runtime_open(unk);
    if (rt == NULL)
        return E_FAIL; // older than ICorProfilerInfo3: the app runs unprofiled
    g_rt = *rt;
    // Before anything may ask the runtime: Go (through clrinfo.c), the
    // module loads (async.c), the hooks' helpers.
    clr_clrinfo_init(rt);
    clr_async_init(rt);
    clr_queue_init(rt);
    clr_ambient_init(rt);

    // An alternate signal stack for every managed thread from .NET 5 on
    // (signals.c clr_thread_alt_stack), from the first: decided here, before
    // any thread is announced.
    uint16_t major = 0, minor = 0;
    int net5 = clr_runtime_version(&major, &minor) == 0 && major >= 5;
    if (clr_alt_stack_init(net5 ? 128 << 10 : 0) != 0)
        return E_FAIL;
    clr_thread_alt_stack(); // the thread that starts the runtime: the app's main thread

    uint32_t mask, mask_high;
    clr_lazy_env env;
    int prestart = 0;
    if (clr_go_can_wait(clr_initial_getenv, &env)) {
        // The mask Go would ask for (main.go), from the same rules.
        mask = clr_startup_base_mask();
        if (env.rejit)
            mask |= COR_PRF_ENABLE_REJIT;
        mask_high = clr_startup_base_mask_high(env.async);
        clr_startup_scope_include(env.include);
        prestart = env.include == NULL;
        // State machines get their fields as their modules load, Go or not.
        clr_async_enable(env.async);
        g_lazy_mask = mask | COR_PRF_MONITOR_THREADS | COR_PRF_MONITOR_CACHE_SEARCHES;
    } else {
        clr_init_result r;
        if (go_initialize(&r) != 0)
            return E_FAIL; // the runtime releases the profiler
        atomic_store(&g_go_state, GO_READY);
        mask = r.event_mask;
        mask_high = r.event_mask_high;
    }
    if (net5)
        mask |= COR_PRF_MONITOR_THREADS; // ThreadCreated: the alternate stacks
    // Without ENTERLEAVE: startup.c sets it only while selected methods
    // compile, so that modules keep their ReadyToRun code; with cache
    // searches, to refuse selected methods theirs.
    mask = (mask & ~(uint32_t)COR_PRF_MONITOR_ENTERLEAVE) | COR_PRF_MONITOR_CACHE_SEARCHES;
    mask_high |= clr_gcevents_mask_high(mask_high, g_rt.version); // moved objects through EventPipe (gcevents.c)
    clr_startup_init(&g_rt, mask, mask_high);
    HRESULT hr = g_rt.vtbl->SetEventMask2 != NULL && g_rt.version >= 5
                     ? g_rt.vtbl->SetEventMask2(g_rt.info, mask, mask_high)
                     : g_rt.vtbl->SetEventMask(g_rt.info, mask);
    if (hr < 0)
        return hr;
    clr_gcevents_init(g_rt.info, g_rt.vtbl, mask_high); // started when a collection first forgets an item (cb_gc_finished)
    hr = g_rt.vtbl->SetFunctionIDMapper2(g_rt.info, function_mapper, NULL);
    if (hr < 0)
        return hr;
    hr = g_rt.vtbl->SetEnterLeaveFunctionHooks3WithInfo(
        g_rt.info, (FunctionEnter3WithInfo)clr_enter_trampoline,
        (FunctionLeave3WithInfo)clr_leave_trampoline,
        (FunctionTailcall3WithInfo)clr_tailcall_trampoline);
    // Own code only (no CLROTEL_INCLUDE): the entry point is selectable, so
    // Go will be needed; start it now, off this thread.
    if (hr >= 0 && prestart)
        go_prestart_spawn();
    return hr;
}

static HRESULT cb_shutdown(void *self) {
    (void)self;
    // The runtime tears the profiler down once this returns: the hooks
    // park their threads from now on, and after it on a runtime older than
    // ICorProfilerInfo12, whose hooks fault after the teardown (park.h).
    clr_park_begin();
    int64_t after = g_rt.version < 12 ? PARK_AFTER_NS : 0;
    // And the runtime's own helpers return before they reach the hooks
    // from now on (disarm.h): a thread whose first hooked call comes after
    // the teardown meets no deleted interface. Any function of the
    // runtime's interface table tells where libcoreclr.so is loaded.
    if (g_rt.version < 12)
        clr_disarm((const void *)g_rt.vtbl->GetFunctionInfo, clr_disarm_names, CLR_DISARM_NAMES);
    clr_rejit_shutdown();
    if (atomic_load(&g_go_state) != GO_READY) {
        clr_park_end(after);
        return S_OK; // Go never started: nothing was traced
    }
    sigset_t saved;
    CLR_BLOCK_ACTIVATION(saved);
    clrotelShutdown();
    CLR_RESTORE_ACTIVATION(saved);
    clr_park_end(after);
    return S_OK;
}


// A selected method must never be inlined away while it has hooks
// (inlined code raises no Enter/Leave); everything else inlines as it
// would without the profiler: an FN_COMPILE method (the JIT asks again for
// each call it inlines along with it), and a folded method once its code
// without hooks is installed, whose calls raise none either, so that the
// callers' optimized tier inlines it as it would untraced
// (clr_rejit_may_inline says why not earlier).
static HRESULT cb_jit_inlining(void *self, FunctionID caller, FunctionID callee, BOOL *should_inline) {
    (void)self;
    (void)caller;
    if (!clr_rejit_may_inline(map_function(callee)))
        *should_inline = 0;
    return S_OK;
}

// A selected method compiles with the ENTERLEAVE bit set (startup.c), so
// that the JIT inserts its hooks.
static HRESULT cb_jit_compilation_started(void *self, FunctionID fid, BOOL safe_to_block) {
    (void)self;
    (void)safe_to_block;
    runtime_reached(RT_RUNNING_CODE);
    clr_fn *fn = map_function(fid);
    if (clr_rejit_compile_wants_hooks(fn))
        clr_startup_compile_started(fid);
    return S_OK;
}

static HRESULT cb_jit_compilation_finished(void *self, FunctionID fid, HRESULT status, BOOL safe_to_block) {
    (void)self;
    (void)status;
    (void)safe_to_block;
    clr_startup_compile_finished(fid);
    return S_OK;
}

// ReadyToRun code has no hooks: a selected method is refused it, and is
// JIT-compiled at its first call instead. Everything else keeps it.
static HRESULT cb_jit_cached_search_started(void *self, FunctionID fid, BOOL *use_cached) {
    (void)self;
    runtime_reached(RT_RUNNING_CODE);
    clr_fn *fn = map_function_from(fid, 0);
    if (fn != NULL && (fn->flags & (FN_SELECTED | FN_COMPILE)))
        *use_cached = 0;
    return S_OK;
}

// Modules are remembered so that Go can resolve a type referenced from
// another assembly (a TypeRef) to the module that defines it.
static HRESULT cb_module_load_finished(void *self, ModuleID mid, HRESULT status) {
    (void)self;
    runtime_reached(RT_CALLING_BACK);
    if (status >= 0) {
        // State machines get their fields before any of the module's types
        // loads, and before Go first reads the module's metadata.
        clr_async_module_loading(mid);
        clr_module_loaded(mid);
    }
    return S_OK;
}

// COR_PRF_HIGH_BASIC_GC: a GC may have moved what ambient.c caches, and
// the work items workitems.c keys by address (with
// COR_PRF_HIGH_MONITOR_GC_MOVED_OBJECTS, which reports where they went).
static HRESULT cb_gc_started(void *self, int ngen, BOOL *collected, int reason) {
    (void)self;
    (void)reason;
    // The generations' bounds as this collection starts (the runtime
    // refreshes its table before this callback; COR_PRF_HIGH_BASIC_GC is
    // enough for it). Regions (.NET 7+) make many ranges: those past the
    // buffer are not known, and their items are judged by reports alone.
    static COR_PRF_GC_GENERATION_RANGE ranges[4096]; // one collection starts at a time
    ULONG n = 0;
    if (clr_work_any() && g_rt.vtbl->GetGenerationBounds(g_rt.info, 4096, &n, ranges) < 0)
        n = 0;
    clr_work_gc_started(ngen, collected, ranges, n < 4096 ? (uint32_t)n : 4096);
    return S_OK;
}

static HRESULT cb_gc_finished(void *self) {
    (void)self;
    clr_ambient_gc();
    // Items forgotten for want of reports: from now on, read where
    // collections move them from the runtime's GC events (.NET 5+; once).
    if (clr_work_gc_finished() > 0)
        clr_gcevents_start_later();
    return S_OK;
}

static HRESULT cb_moved_references2(void *self, ULONG n, ObjectID *old_start, ObjectID *new_start, SIZE_T *len) {
    (void)self;
    clr_work_gc_moved(n, old_start, new_start, len);
    return S_OK;
}

// The first interface's forms, with 32-bit lengths: which of the two a
// runtime calls is its choice; a range reported by both is applied twice,
// to the same effect.
static HRESULT cb_moved_references(void *self, ULONG n, ObjectID *old_start, ObjectID *new_start, ULONG *len) {
    (void)self;
    clr_work_gc_moved32(n, old_start, new_start, len);
    return S_OK;
}

static HRESULT cb_surviving_references(void *self, ULONG n, ObjectID *start, ULONG *len) {
    (void)self;
    clr_work_gc_moved32(n, start, start, len);
    return S_OK;
}

static HRESULT cb_surviving_references2(void *self, ULONG n, ObjectID *start, SIZE_T *len) {
    (void)self;
    clr_work_gc_survived(n, start, len);
    return S_OK;
}

// The GC events of gcevents.c's session, delivered on the thread that
// writes them (inside a collection's survivor walk).
static HRESULT cb_event_pipe_event_delivered(void *self, EVENTPIPE_PROVIDER provider, DWORD id, DWORD version,
                                             ULONG cb_meta, LPCBYTE meta, ULONG cb, LPCBYTE data, LPCGUID activity,
                                             LPCGUID related, ThreadID thread, ULONG nframes, UINT_PTR *frames) {
    (void)self, (void)provider, (void)version, (void)cb_meta, (void)meta, (void)activity, (void)related;
    (void)thread, (void)nframes, (void)frames;
    clr_gcevents_delivered(id, cb, data);
    return S_OK;
}

static HRESULT cb_module_unload_finished(void *self, ModuleID mid, HRESULT status) {
    (void)self;
    (void)status;
    clr_module_unloaded(mid);
    clr_module_forget(mid);
    return S_OK;
}

// ThreadCreated comes on the new thread itself (checked: only then is the
// alternate stack installed, as sigaltstack is per thread).
static HRESULT cb_thread_created(void *self, ThreadID tid) {
    (void)self;
    ThreadID cur = 0;
    if (g_rt.vtbl->GetCurrentThreadID(g_rt.info, &cur) >= 0 && cur == tid)
        clr_thread_alt_stack();
    return S_OK;
}

static HRESULT cb_thread_assigned(void *self, ThreadID tid, DWORD os_tid) {
    (void)self;
    (void)tid;
    if (os_tid == (DWORD)syscall(SYS_gettid))
        clr_thread_alt_stack();
    return S_OK;
}

static HRESULT cb_exception_thrown(void *self, ObjectID obj) {
    (void)self;
    clr_on_exception_thrown(obj);
    return S_OK;
}

static HRESULT cb_exception_catcher_enter(void *self, FunctionID fid, ObjectID obj) {
    (void)self;
    (void)obj;
    clr_on_exception_catcher(fid);
    return S_OK;
}

static HRESULT cb_search_function_enter(void *self, FunctionID fid) {
    (void)self;
    clr_on_search_function_enter(fid);
    return S_OK;
}

static HRESULT cb_search_catcher_found(void *self, FunctionID fid) {
    (void)self;
    (void)fid;
    clr_on_search_catcher_found();
    return S_OK;
}

static HRESULT cb_search_filter_enter(void *self, FunctionID fid) {
    (void)self;
    (void)fid;
    clr_on_search_filter(1);
    return S_OK;
}

static HRESULT cb_search_filter_leave(void *self) {
    (void)self;
    clr_on_search_filter(0);
    return S_OK;
}

static HRESULT cb_unwind_function_enter(void *self, FunctionID fid) {
    (void)self;
    clr_on_unwind_enter(fid);
    return S_OK;
}

static HRESULT cb_unwind_function_leave(void *self) {
    (void)self;
    clr_on_unwind_leave();
    return S_OK;
}

// ---- ReJIT (rejit.c): folded methods recompiled without hooks ---------
// GetReJITParameters stays com.c's S_OK stub: no new IL, the original
// compiles again.

static HRESULT cb_rejit_compilation_started(void *self, FunctionID fid, ReJITID rid, BOOL safe_to_block) {
    (void)self;
    (void)rid;
    (void)safe_to_block;
    if (clr_rejit_compile_wants_hooks(map_function(fid)))
        clr_startup_compile_started(fid); // an instantiation that is not folded
    return S_OK;
}

static HRESULT cb_rejit_compilation_finished(void *self, FunctionID fid, ReJITID rid, HRESULT status, BOOL safe_to_block) {
    (void)self;
    (void)rid;
    (void)safe_to_block;
    clr_startup_compile_finished(fid);
    clr_rejit_finished(map_function(fid), status);
    return S_OK;
}

static HRESULT cb_rejit_error(void *self, ModuleID mid, mdMethodDef tok, FunctionID fid, HRESULT status) {
    (void)self;
    (void)mid;
    (void)tok;
    (void)status;
    clr_rejit_error(fid != 0 ? map_function(fid) : NULL);
    return S_OK;
}

void clr_callbacks_fill(void **vtbl) {
    vtbl[CB_Initialize] = (void *)cb_initialize;
    vtbl[CB_Shutdown] = (void *)cb_shutdown;
    vtbl[CB_JITInlining] = (void *)cb_jit_inlining;
    vtbl[CB_JITCompilationStarted] = (void *)cb_jit_compilation_started;
    vtbl[CB_JITCompilationFinished] = (void *)cb_jit_compilation_finished;
    vtbl[CB_JITCachedFunctionSearchStarted] = (void *)cb_jit_cached_search_started;
    vtbl[CB_ExceptionUnwindFunctionEnter] = (void *)cb_unwind_function_enter;
    vtbl[CB_ExceptionThrown] = (void *)cb_exception_thrown;
    vtbl[CB_ExceptionSearchFunctionEnter] = (void *)cb_search_function_enter;
    vtbl[CB_ExceptionSearchCatcherFound] = (void *)cb_search_catcher_found;
    vtbl[CB_ExceptionSearchFilterEnter] = (void *)cb_search_filter_enter;
    vtbl[CB_ExceptionSearchFilterLeave] = (void *)cb_search_filter_leave;
    vtbl[CB_ExceptionCatcherEnter] = (void *)cb_exception_catcher_enter;
    vtbl[CB_ModuleLoadFinished] = (void *)cb_module_load_finished;
    vtbl[CB_ThreadCreated] = (void *)cb_thread_created;
    vtbl[CB_ThreadAssignedToOSThread] = (void *)cb_thread_assigned;
    vtbl[CB_ModuleUnloadFinished] = (void *)cb_module_unload_finished;
    vtbl[CB_GarbageCollectionStarted] = (void *)cb_gc_started;
    vtbl[CB_GarbageCollectionFinished] = (void *)cb_gc_finished;
    vtbl[CB_MovedReferences2] = (void *)cb_moved_references2;
    vtbl[CB_SurvivingReferences2] = (void *)cb_surviving_references2;
    vtbl[CB_MovedReferences] = (void *)cb_moved_references;
    vtbl[CB_SurvivingReferences] = (void *)cb_surviving_references;
    vtbl[CB_EventPipeEventDelivered] = (void *)cb_event_pipe_event_delivered; // EventPipeProviderCreated: com.c's S_OK stub
    vtbl[CB_ExceptionUnwindFunctionLeave] = (void *)cb_unwind_function_leave;
    vtbl[CB_ReJITCompilationStarted] = (void *)cb_rejit_compilation_started;
    vtbl[CB_ReJITCompilationFinished] = (void *)cb_rejit_compilation_finished;
    vtbl[CB_ReJITError] = (void *)cb_rejit_error;
}
