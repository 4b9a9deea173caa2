// fold.c: hot, short methods folded into their callers' spans.
//
// A method the hooks have seen called often and always briefly is marked
// FN_FOLDED (the rule is package folding's Rule, judged here: the drainer
// sees calls too late to stop a tight loop from filling the ring;
// folding.Rule.Judge is its Go reference, profiler/internal/cfold checks
// that the two agree). Its calls under a recorded span then make
// no span of their own: the hooks count them, and the time of the outermost
// ones, into that span's frame, which reports them in its exit record. A
// trace past its span budget folds the same way. Runs in the hooks: no
// lock, no allocation, no locked instruction but the two that fold a
// method, once per method.
#include <stdatomic.h>
#include <string.h>

#include "capture.h"

// The methods folded, in the order they folded, for the re-JIT loop
// (folding.ReJITLoop) to read from where it left off rather than look at
// every method at each tick: an entry is the method's index + 1, 0 until
// its writer has stored it. Methods past FOLD_LOG_CAP are counted, not
// logged: the loop then looks at every method.
static _Atomic uint32_t g_fold_log[FOLD_LOG_CAP];
static _Atomic uint32_t g_fold_n;

void clr_fn_fold(clr_fn *fn) {
    // Once per method: the thread that set the flag logs it.
    if (__atomic_fetch_or(&fn->flags, FN_FOLDED, __ATOMIC_RELEASE) & FN_FOLDED)
        return;
    uint32_t i = atomic_fetch_add_explicit(&g_fold_n, 1, memory_order_relaxed);
    if (i < FOLD_LOG_CAP)
        atomic_store_explicit(&g_fold_log[i], fn->index + 1, memory_order_release);
}

void clr_fn_fold_with_iterator(clr_fn *fn) {
    // Before FN_FOLDED: the re-JIT thread reads both once it sees it.
    __atomic_fetch_or(&fn->flags, FN_ITER_FOLDED, __ATOMIC_RELEASE);
    clr_fn_fold(fn);
}

void clr_fn_exempt(clr_fn *fn) { __atomic_fetch_or(&fn->flags, FN_FOLD_EXEMPT, __ATOMIC_RELEASE); }

uint32_t clr_folds(void) { return atomic_load_explicit(&g_fold_n, memory_order_acquire); }

uint32_t clr_fold_logged(uint32_t i) {
    return i < FOLD_LOG_CAP ? atomic_load_explicit(&g_fold_log[i], memory_order_acquire) : 0;
}

void clr_fold_log_reset(void) {
    uint32_t n = atomic_load_explicit(&g_fold_n, memory_order_relaxed);
    for (uint32_t i = 0; i < n && i < FOLD_LOG_CAP; i++)
        atomic_store_explicit(&g_fold_log[i], 0, memory_order_relaxed);
    atomic_store_explicit(&g_fold_n, 0, memory_order_release);
}

uint64_t clr_fn_folded_calls(const clr_fn *fn) { return atomic_load_explicit(&fn->folded_calls, memory_order_relaxed); }
uint64_t clr_fn_folded_ns(const clr_fn *fn) { return atomic_load_explicit(&fn->folded_ns, memory_order_relaxed); }

void clr_fold_judge(const clr_capture_config *cfg, clr_fn *fn, uint64_t ns, uint32_t weight) {
    if (fn->flags & FN_FOLDED)
        return;
    uint32_t calls = atomic_load_explicit(&fn->stat_calls, memory_order_relaxed) + weight;
    uint32_t slow = atomic_load_explicit(&fn->stat_slow, memory_order_relaxed);
    atomic_store_explicit(&fn->stat_calls, calls, memory_order_relaxed);
    if (ns >= cfg->fold_max_ns) {
        slow += weight;
        atomic_store_explicit(&fn->stat_slow, slow, memory_order_relaxed);
    }
    // The 99th percentile is under fold_max_ns: at most 1 call in 100 took
    // that long. (The counts are kept with folding off too: the span budget
    // asks whether a method is slow.)
    if (cfg->fold_min_calls != 0 && !(fn->flags & FN_FOLD_EXEMPT) && calls >= cfg->fold_min_calls && (uint64_t)slow * 100 <= calls)
        clr_fn_fold(fn);
}

void clr_fold_account(clr_slot *s, clr_frame *anc, clr_fn *fn, uint32_t fn_index, uint64_t ns) {
    atomic_store_explicit(&s->folded, atomic_load_explicit(&s->folded, memory_order_relaxed) + 1, memory_order_relaxed);
    if (fn != NULL) {
        // Plain loads and stores, no locked instruction: the per-method
        // totals feed the exit summary only, and two threads folding the
        // same method at once may lose a count there (never on a span).
        atomic_store_explicit(&fn->folded_calls, atomic_load_explicit(&fn->folded_calls, memory_order_relaxed) + 1, memory_order_relaxed);
        if (ns)
            atomic_store_explicit(&fn->folded_ns, atomic_load_explicit(&fn->folded_ns, memory_order_relaxed) + ns, memory_order_relaxed);
    }
    anc->fold_calls++;
    anc->fold_ns += ns;
    // The top list by time: the method's entry, a free one, or the entry
    // with the least time, which the newcomer replaces once it has more.
    clr_fold_entry *e = NULL, *least = NULL;
    for (uint32_t i = 0; i < anc->fold_ntop; i++) {
        if (anc->fold_top[i].fn_index == fn_index) {
            e = &anc->fold_top[i];
            break;
        }
        if (least == NULL || anc->fold_top[i].ns < least->ns)
            least = &anc->fold_top[i];
    }
    if (e == NULL && anc->fold_ntop < FOLD_TOP) {
        e = &anc->fold_top[anc->fold_ntop++];
        e->fn_index = fn_index;
        e->calls = 0;
        e->ns = 0;
    }
    if (e == NULL) {
        if (ns <= least->ns)
            return;
        e = least;
        e->fn_index = fn_index;
        e->calls = 0;
        e->ns = 0;
    }
    e->calls++;
    e->ns += ns;
}

uint32_t clr_slot_open_folds(const clr_slot *s, uint32_t stack_cap, uint32_t *calls, uint64_t *ns, uint32_t cap) {
    uint32_t n = 0, depth = s->depth < stack_cap ? s->depth : stack_cap;
    for (uint32_t i = 0; s->stack != NULL && i < depth; i++) {
        const clr_frame *f = &s->stack[i];
        // A folded call still running (the process exits inside it, as
        // Environment.Exit does) counts into its span too: the nearest
        // recorded frame below it is the one it folds into.
        if (f->recorded == FRAME_FOLDED && n > 0 && n <= cap)
            calls[n - 1]++;
        if (f->recorded != FRAME_RECORDED)
            continue;
        if (n < cap) {
            calls[n] = f->fold_calls;
            ns[n] = f->fold_ns;
        }
        n++;
    }
    return n;
}

uint64_t clr_open_folded_calls(const clr_slot *slots, uint32_t nslots, uint32_t stack_cap) {
    uint64_t total = 0;
    for (uint32_t k = 0; k < nslots; k++) {
        const clr_slot *s = &slots[k];
        uint32_t depth = s->depth < stack_cap ? s->depth : stack_cap;
        for (uint32_t i = 0; s->stack != NULL && i < depth; i++)
            total += s->stack[i].recorded == FRAME_FOLDED;
    }
    return total;
}

void clr_fold_write(const clr_frame *anc, uint8_t *p) {
    memset(p, 0, REC_FOLD_SIZE);
    memcpy(p, &anc->fold_calls, 4);
    memcpy(p + 4, &anc->fold_ntop, 4);
    memcpy(p + 8, &anc->fold_ns, 8);
    for (uint32_t i = 0; i < anc->fold_ntop && i < FOLD_TOP; i++) {
        uint8_t *q = p + 16 + 16 * i;
        memcpy(q, &anc->fold_top[i].fn_index, 4);
        memcpy(q + 4, &anc->fold_top[i].calls, 4);
        memcpy(q + 8, &anc->fold_top[i].ns, 8);
    }
}
