// rejit.c: folded methods re-JIT-compiled without their Enter/Leave hooks.
//
// Why this works (runtime source, .NET Core 3.1 and .NET 8 alike; startup.c
// has the rest):
//  - The JIT inserts the hooks only into code it compiles while
//    COR_PRF_MONITOR_ENTERLEAVE is in the event mask
//    (CORJIT_FLAG_PROF_ENTERLEAVE), and asks FunctionIDMapper2 about the
//    method only then, once per compile (the answer is cached in the
//    CEEJitInfo of that compile, not per function).
//  - clrotel keeps the bit off except while a selected method compiles
//    (startup.c). A ReJIT compile raises ReJITCompilationStarted, not
//    JITCompilationStarted, so no window opens for it: its code has no
//    hooks. Should another thread's window be open at that moment, the
//    mapper answers "no hook" for a method marked FN_REJIT.
//  - GetReJITParameters is answered without SetILFunctionBody: a new IL
//    version with no IL of its own compiles the method's original IL
//    (ILCodeVersion::GetIL, codeversion.cpp).
//  - RequestReJIT applies to every instantiation of a generic method
//    (module + methodDef). An instantiation that is not folded has its
//    window opened in ReJITCompilationStarted, so it keeps its hooks.
//  - Code already running keeps running: a frame of the old, hooked code
//    calls its Leave hook as it returns, so the shadow stack stays
//    balanced; a call of the new code raises neither hook.
//  - Except with exceptions: the runtime reports each frame an exception
//    unwinds by FunctionID only (ExceptionUnwindFunctionEnter), and the
//    hooks pop the shadow stack's top frame when its FunctionID matches.
//    A new-code frame of a method called (recursively) from one of its
//    old-code frames has that same FunctionID: an exception unwinding the
//    new frame and caught in the old one would pop the old frame's entry.
//    So a method with a frame on any thread's shadow stack is not asked
//    for yet; it waits here until none is open. One whose old frame began
//    between that look and the request is found open just after it, and
//    reverted at once (RequestRevert) to wait its next turn: the calls of
//    new code such a frame made in those moments are the race left.
//
// RequestReJIT suspends the runtime, so it is never called from a CLR
// thread, and not from a Go thread either (the runtime might adopt it):
// Go queues batches here and one C thread of our own makes the calls.
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clrapi.h"
#include "capture.h"
#include "profiler.h"
#include "rejit.h"
#include "slots.h"

static clr_runtime g_rt;
static clr_slot_table *g_slots; // whose shadow stacks tell which methods have a frame open

void clr_rejit_init(const clr_runtime *rt, clr_slot_table *slots) {
    g_rt = *rt;
    g_slots = slots;
}

#define REJIT_QUEUE 4096

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_cv = PTHREAD_COND_INITIALIZER;
static clr_fn *g_queue[REJIT_QUEUE];
static uint32_t g_queued;
static int g_worker_started;

static _Atomic uint64_t g_requested, g_installed, g_failed, g_refused, g_waiting, g_reverted;
_Atomic uint64_t clr_rejit_installed_count;

// The runtime tears down what RequestReJIT uses once it has shut the
// profiler down: a request made then crashed .NET Core 3.1 at exit (the
// real-program suite, dnlib, about 1 run in 10 under load). The worker
// says it is in a request before it looks at g_shutdown, and Shutdown sets
// g_shutdown before it looks at g_in_request (both sequentially
// consistent), so either the request never starts or Shutdown waits for it.
static _Atomic int g_shutdown, g_in_request;

void clr_rejit_shutdown(void) {
    atomic_store(&g_shutdown, 1);
    // Bounded: a request that waits on this very thread (a suspension it
    // cannot finish) must not hang the exit.
    for (int i = 0; i < 2000 && atomic_load(&g_in_request); i++) {
        struct timespec ms = {0, 1000 * 1000};
        nanosleep(&ms, NULL);
    }
}

uint64_t clr_rejit_requested(void) { return atomic_load(&g_requested); }
uint64_t clr_rejit_installed(void) { return atomic_load(&g_installed); }
uint64_t clr_rejit_waiting(void) { return atomic_load(&g_waiting); }
uint64_t clr_rejit_reverted(void) { return atomic_load(&g_reverted); }
uint64_t clr_rejit_failed(void) { return atomic_load(&g_failed) + atomic_load(&g_refused); }

// Marks (scan_mark = gen) every function with a frame open on a live
// thread's shadow stack. Reads other threads' stacks without a lock: a torn
// read only makes a function wait one more round, or be asked for while a
// frame of it is just beginning (the race above). Slot memory is never
// unmapped, and a frame's fn is always NULL or a clr_fn, never freed.
static void mark_open_frames(uint32_t gen) {
    clr_slot *slots = g_slots != NULL ? g_slots->slots : NULL;
    uint32_t cap = g_slots != NULL ? g_slots->stack_cap : 0;
    uint32_t hw = g_slots != NULL ? atomic_load_explicit(&g_slots->hw, memory_order_acquire) : 0;
    for (uint32_t i = 0; slots != NULL && i < hw; i++) {
        clr_slot *s = &slots[i];
        if (atomic_load_explicit(&s->state, memory_order_acquire) != SLOT_LIVE || s->stack == NULL)
            continue;
        uint32_t depth = *(volatile uint32_t *)&s->depth;
        if (depth > cap)
            depth = cap;
        for (uint32_t k = 0; k < depth; k++) {
            clr_fn *fn = *(clr_fn *volatile *)&s->stack[k].fn;
            if (fn != NULL)
                fn->scan_mark = gen;
        }
    }
}

static uint32_t request_now(clr_fn **fns, uint32_t n, clr_fn **back);

// Asks for the functions of fns that have no frame open; returns how many
// wait, kept at the front of fns.
static uint32_t request_batch(clr_fn **fns, uint32_t n) {
    static clr_fn *ask[REJIT_QUEUE]; // the ReJIT thread's only
    static uint32_t gen;
    if (++gen == 0)
        gen = 1;
    mark_open_frames(gen);
    uint32_t waiting = 0, nask = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (fns[i]->scan_mark == gen)
            fns[waiting++] = fns[i];
        else
            ask[nask++] = fns[i];
    }
    if (nask > 0)
        waiting += request_now(ask, nask, fns + waiting);
    return waiting;
}

// Once RequestReJIT returns, every call goes to the new code: a frame of
// the old code still open began before that, maybe after the look that
// let the request go. Such a method is reverted at once (its calls of new
// code made meanwhile are the race left) and waits for its next turn.
static uint32_t revert_open(clr_fn **fns, ModuleID *mods, mdMethodDef *toks, uint32_t *idx, uint32_t k, clr_fn **back) {
    static uint32_t gen = 0x80000000u; // apart from request_batch's
    if (++gen == 0)
        gen = 0x80000000u;
    mark_open_frames(gen);
    uint32_t m = 0, nback = 0;
    for (uint32_t j = 0; j < k; j++) {
        if (fns[idx[j]]->scan_mark != gen)
            continue;
        mods[m] = mods[j];
        toks[m] = toks[j];
        idx[m] = idx[j];
        m++;
    }
    if (m == 0)
        return 0;
    ProfInfoVtbl *v = g_rt.vtbl;
    HRESULT st[REJIT_QUEUE];
    if (v->RequestRevert == NULL || v->RequestRevert(g_rt.info, m, mods, toks, st) < 0)
        return 0;
    for (uint32_t j = 0; j < m; j++) {
        clr_fn *fn = fns[idx[j]];
        if (__atomic_fetch_and(&fn->flags, ~(uint32_t)(FN_REJIT | FN_UNHOOKED), __ATOMIC_ACQ_REL) & FN_UNHOOKED)
            atomic_fetch_sub(&g_installed, 1); // compiled in the meantime
        back[nback++] = fn;
    }
    atomic_fetch_add(&g_reverted, m);
    atomic_fetch_sub(&g_requested, m);
    return nback;
}

// Asks for fns; those found with a frame open once the request is done
// (a call that began since the look before it) are reverted and written
// to back, to wait. Returns how many.
static uint32_t request_now(clr_fn **fns, uint32_t n, clr_fn **back) {
    ProfInfoVtbl *v = g_rt.vtbl;
    ModuleID *mods = calloc(n, sizeof *mods);
    mdMethodDef *toks = calloc(n, sizeof *toks);
    uint32_t *idx = calloc(n, sizeof *idx);
    uint32_t nback = 0;
    if (mods == NULL || toks == NULL || idx == NULL) {
        free(mods);
        free(toks);
        free(idx);
        atomic_fetch_add(&g_refused, n);
        return 0;
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!clr_rejit_wanted(fns[i]))
            continue;
        ClassID cls = 0;
        ModuleID mid = 0;
        mdToken tok = 0;
        if (v->GetFunctionInfo(g_rt.info, fns[i]->function_id, &cls, &mid, &tok) < 0 || mid == 0 ||
            (tok >> 24) != 0x06) {
            atomic_fetch_add(&g_refused, 1);
            continue;
        }
        // Marked before the request: the mapper and the compile callbacks
        // must know the new compile is to have no hooks.
        __atomic_or_fetch(&fns[i]->flags, FN_REJIT, __ATOMIC_RELEASE);
        mods[k] = mid;
        toks[k] = tok;
        idx[k] = i;
        k++;
    }
    if (k > 0) {
        HRESULT hr = v->RequestReJIT(g_rt.info, k, mods, toks);
        if (hr < 0) {
            // Refused: the methods keep their hooks, in later tiers too.
            atomic_fetch_add(&g_refused, k);
            for (uint32_t i = 0; i < n; i++)
                __atomic_and_fetch(&fns[i]->flags, ~(uint32_t)FN_REJIT, __ATOMIC_RELEASE);
        } else {
            atomic_fetch_add(&g_requested, k);
            nback = revert_open(fns, mods, toks, idx, k, back);
        }
    }
    free(mods);
    free(toks);
    free(idx);
    return nback;
}

static void *worker(void *arg) {
    (void)arg;
    // batch[0, waiting): functions with a frame open at the last look,
    // tried again every 50 ms and with each new batch.
    clr_fn **batch = calloc(2 * REJIT_QUEUE, sizeof *batch);
    if (batch == NULL)
        return NULL;
    uint32_t waiting = 0;
    for (;;) {
        pthread_mutex_lock(&g_mu);
        if (g_queued == 0 && waiting == 0) {
            while (g_queued == 0)
                pthread_cond_wait(&g_cv, &g_mu);
        } else if (g_queued == 0) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_nsec += 50 * 1000 * 1000;
            if (until.tv_nsec >= 1000000000) {
                until.tv_sec++;
                until.tv_nsec -= 1000000000;
            }
            pthread_cond_timedwait(&g_cv, &g_mu, &until);
        }
        uint32_t n = g_queued;
        memcpy(batch + waiting, g_queue, n * sizeof *batch);
        g_queued = 0;
        pthread_mutex_unlock(&g_mu);
        atomic_store(&g_in_request, 1);
        if (atomic_load(&g_shutdown)) {
            atomic_store(&g_in_request, 0);
            break; // nothing more is asked of a runtime shut down
        }
        waiting = request_batch(batch, waiting + n);
        atomic_store(&g_in_request, 0);
        if (waiting > REJIT_QUEUE)
            waiting = REJIT_QUEUE; // the rest keep their hooks
        atomic_store(&g_waiting, waiting);
    }
    free(batch);
    return NULL;
}

int clr_rejit_submit(clr_fn **fns, uint32_t n) {
    if (g_rt.vtbl == NULL || g_rt.vtbl->RequestReJIT == NULL)
        return -1;
    pthread_mutex_lock(&g_mu);
    if (!g_worker_started) {
        pthread_t t;
        pthread_attr_t a;
        pthread_attr_init(&a);
        pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
        // Asynchronous signals blocked in the worker (it only calls the
        // runtime); the synchronous ones and the runtime's activation
        // signal stay deliverable.
        sigset_t all, old;
        sigfillset(&all);
        int keep[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT};
        for (size_t i = 0; i < sizeof keep / sizeof *keep; i++)
            sigdelset(&all, keep[i]);
        sigdelset(&all, SIGRTMIN);
        pthread_sigmask(SIG_SETMASK, &all, &old);
        int rc = pthread_create(&t, &a, worker, NULL);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        pthread_attr_destroy(&a);
        if (rc != 0) {
            pthread_mutex_unlock(&g_mu);
            return -1;
        }
        g_worker_started = 1;
    }
    uint32_t took = 0;
    for (; took < n && g_queued < REJIT_QUEUE; took++)
        g_queue[g_queued++] = fns[took];
    pthread_cond_signal(&g_cv);
    pthread_mutex_unlock(&g_mu);
    return (int)took;
}

// ---- the runtime's ReJIT callbacks (registered in callbacks.c) -----------

// fn: the function's verdict (NULL: not selected). A selected instantiation
// that is not to lose its hooks compiles inside an ENTERLEAVE window.
int clr_rejit_compile_wants_hooks(const clr_fn *fn) {
    return fn != NULL && (fn->flags & FN_SELECTED) && !(fn->flags & FN_REJIT);
}

// A selected method may be inlined only once its code without hooks is
// installed, not from the request on: the runtime, told of an inlining
// whose callee has a new IL version not yet compiled, asks itself to
// re-JIT the caller from inside the caller's compile
// (CEEInfo::reportInliningDecision), which crashed .NET Core 3.1 in
// ReJitManager::UpdateActiveILVersions (the Cecil reader, about 1 run in
// 80). Once its ReJIT compile has finished, the new version is active and
// the runtime has nothing to ask.
int clr_rejit_may_inline(const clr_fn *fn) {
    if (fn == NULL)
        return 1;
    uint32_t f = __atomic_load_n(&fn->flags, __ATOMIC_ACQUIRE);
    return !(f & FN_SELECTED) || (f & (FN_REJIT | FN_UNHOOKED)) == (FN_REJIT | FN_UNHOOKED);
}

void clr_rejit_finished(clr_fn *fn, HRESULT status) {
    if (fn == NULL || !(fn->flags & FN_REJIT))
        return;
    if (status < 0) {
        atomic_fetch_add(&g_failed, 1);
        return;
    }
    // Counted once per function (an instantiation or a later tier
    // compiles again).
    if (__atomic_fetch_or(&fn->flags, FN_UNHOOKED, __ATOMIC_ACQ_REL) & FN_UNHOOKED)
        return;
    atomic_fetch_add(&g_installed, 1);
    atomic_fetch_add_explicit(&clr_rejit_installed_count, 1, memory_order_release);
}

void clr_rejit_error(clr_fn *fn) {
    atomic_fetch_add(&g_failed, 1);
    // The method keeps its old, hooked code: later tiers keep the hooks too.
    if (fn != NULL)
        __atomic_and_fetch(&fn->flags, ~(uint32_t)FN_REJIT, __ATOMIC_RELEASE);
}
