// workitems.c: work queued through CoreLib joins the trace of the span that
// queued it, whatever its callback is.
//
// A closure carries its maker's span in fields of its own (async.c), but a
// lambda that captures nothing is one cached delegate shared by every call,
// and a method group's target is the app's object: nothing per call of
// theirs can carry a link. What is per call is the work item CoreLib makes
// for it: the Task of Task.Run, StartNew, ContinueWith and Parallel's
// workers, the QueueUserWorkItemCallback of QueueUserWorkItem, a Timer's
// TimerQueueTimer. Each class has a method that makes the item and one that
// runs it, both with the item as `this`: hooks.c records, when an item is
// made under a span, the item's address with that span, and when it runs,
// takes the span back: the run becomes a transparent frame that the work's
// first call starts its root under; the innermost run decides.
//
// A thread is an item from its Start (this: the Thread; on .NET Core 3.1
// its ThreadHelper, given the context by Start, whose ReadyToRun code
// inlines that: Start is refused its ReadyToRun code, FN_COMPILE, so that
// the JIT keeps the hooked call) to its start callback, and
// only when started with the caller's context: the thread pool starts its
// worker threads with UnsafeStart inside whatever call queued the work that
// needed one, and a thread's start lasts its life, so every root on a pool
// thread would join that call's trace. (The constructor would not do: the
// pool's threads are constructed like any other, and 3.1 inlines
// ThreadHelper's constructor into ReadyToRun code.)
//
// An address is a key only until the GC moves the object or frees it, so
// this table follows the GC (COR_PRF_HIGH_MONITOR_GC_MOVED_OBJECTS, which
// keeps concurrent GC on): at each GarbageCollectionStarted the entries are
// snapshotted; MovedReferences2 and SurvivingReferences2 report the live
// objects of the collected generations (moved or not; on .NET 6 and later
// only the runtime's GC events do, read by gcevents.c); at
// GarbageCollectionFinished a reported entry takes its new address and an
// unreported one is deleted. An item in a generation the collection does
// not touch is not reported either: the generations' bounds at
// GarbageCollectionStarted (GetGenerationBounds) say which items sit in
// one, and those are kept where they are. Deleting is the safe way to be
// wrong: a
// stale address could be a new item's, which would join a trace it does
// not belong to.
//
// Concurrency: the hooks insert and take entries without locks, through a
// state word per slot (sequence << 2 | state) changed by CAS. The GC
// callbacks take a mutex among themselves (server GC reports from several
// threads); during a blocking collection no hook runs (a hook runs in
// cooperative mode, which the GC waits out), and during a background one
// only entries of the snapshot, unchanged since (same sequence), are
// touched.
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "async.h"
#include "workitems.h"

const clr_work_api clr_work_apis[] = {
    {"System.Threading.Tasks", "Task", "TaskConstructorCore", "ExecuteWithThreadLocal", 0, NULL, NULL, 1},
    {"System.Threading", "QueueUserWorkItemCallback", ".ctor", "Execute", 0, NULL, NULL, 0},
    {"System.Threading", "QueueUserWorkItemCallback`1", ".ctor", "Execute", 0, NULL, NULL, 0},
    {"System.Threading", "QueueUserWorkItemCallbackDefaultContext", ".ctor", "Execute", 0, NULL, NULL, 0},
    {"System.Threading", "QueueUserWorkItemCallbackDefaultContext`1", ".ctor", "Execute", 0, NULL, NULL, 0},
    // A tick runs in Fire, not in the CallCallback it calls: on .NET 8 no
    // tick found its item through CallCallback once the timer code was
    // optimized (after tier-up, or from the start without tiering; the
    // profiler was never asked to allow an inlining of it), while Fire
    // finds it in every kind of code on both runtimes.
    {"System.Threading", "TimerQueueTimer", ".ctor", "Fire", 1, NULL, NULL, 0},
    // A thread started with the caller's context (flows.WorkMaker keeps
    // Start() and Start(Object) of Start's overloads): .NET 5+ runs it in
    // Thread.StartCallback; .NET Core 3.1 through its ThreadHelper, given
    // the context on the starting thread.
    {"System.Threading", "Thread", "Start", "StartCallback", 0, NULL, NULL, 0},
    {"System.Threading", "ThreadHelper", "SetExecutionContextHelper", "ThreadStart", 0, "Thread", "Start", 0},
    {NULL, NULL, NULL, NULL, 0, NULL, NULL, 0},
};

// 10,000 items pending at once fill it a third: probes stay short.
enum { WORK_SLOTS = 32768, WORK_PROBE = 64 }; // a power of two
enum { ST_EMPTY = 0, ST_BUSY = 1, ST_LIVE = 2, ST_DEAD = 3, ST_MASK = 3, SEQ_ONE = 4 };

// What a slot holds for an item.
typedef struct work_item {
    uintptr_t key;
    uintptr_t mt; // the item's MethodTable when made: a different class at the address is not the item
    uint32_t how;
    clr_work_ctx ctx;
} work_item;

typedef struct work_entry {
    _Atomic uint64_t state;
    work_item it;
    _Atomic uint32_t runs; // a repeating item's runs so far
} work_entry;

static work_entry g_tab[WORK_SLOTS];
static _Atomic uint64_t g_made, g_joined, g_full, g_lost_gc, g_gcs, g_ranges;
static _Atomic int g_any; // an entry was made since the last rebuild

// Objects sit at regular distances in an allocation context: a full mix.
static inline uint32_t slot_of(uintptr_t key) {
    uint64_t z = key;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (uint32_t)(z ^ (z >> 31)) & (WORK_SLOTS - 1);
}

static int insert(const work_item *it) {
    uint32_t h = slot_of(it->key);
    for (uint32_t i = 0; i < WORK_PROBE; i++) {
        work_entry *e = &g_tab[(h + i) & (WORK_SLOTS - 1)];
        uint64_t st = atomic_load_explicit(&e->state, memory_order_acquire);
        uint32_t s = (uint32_t)(st & ST_MASK);
        // A free slot, or this key's own stale entry (the item at this
        // address is new: the old one was not reported alive, or is gone).
        if (s == ST_EMPTY || s == ST_DEAD || (s == ST_LIVE && e->it.key == it->key)) {
            uint64_t busy = ((st & ~(uint64_t)ST_MASK) + SEQ_ONE) | ST_BUSY;
            if (!atomic_compare_exchange_strong_explicit(&e->state, &st, busy, memory_order_acq_rel, memory_order_relaxed))
                continue;
            e->it = *it;
            atomic_store_explicit(&e->runs, 0, memory_order_relaxed);
            atomic_store_explicit(&e->state, (busy & ~(uint64_t)ST_MASK) | ST_LIVE, memory_order_release);
            return 0;
        }
    }
    return -1;
}

void clr_work_made(uintptr_t item, int how, const clr_work_ctx *ctx) {
    // `this` of a running constructor: a live object.
    work_item it = {.key = item, .mt = *(volatile uintptr_t *)item, .how = (uint32_t)how, .ctx = *ctx};
    if (insert(&it) != 0) {
        atomic_fetch_add_explicit(&g_full, 1, memory_order_relaxed);
        return;
    }
    atomic_fetch_add_explicit(&g_made, 1, memory_order_relaxed);
    if (!atomic_load_explicit(&g_any, memory_order_relaxed))
        atomic_store_explicit(&g_any, 1, memory_order_relaxed);
}

int clr_work_any(void) { return atomic_load_explicit(&g_any, memory_order_relaxed); }

int clr_work_take(uintptr_t item, int repeat, uint64_t now, clr_work_ctx *ctx) {
    uintptr_t mt = *(volatile uintptr_t *)item;
    uint32_t h = slot_of(item);
    for (uint32_t i = 0; i < WORK_PROBE; i++) {
        work_entry *e = &g_tab[(h + i) & (WORK_SLOTS - 1)];
        uint64_t st = atomic_load_explicit(&e->state, memory_order_acquire);
        uint32_t s = (uint32_t)(st & ST_MASK);
        if (s == ST_EMPTY)
            return WORK_NONE;
        if (s != ST_LIVE || e->it.key != item)
            continue;
        work_item c = e->it;
        if (repeat) {
            // Read as a seqlock: the entry stays for the next tick.
            atomic_thread_fence(memory_order_acquire);
            if (atomic_load_explicit(&e->state, memory_order_relaxed) != st)
                return WORK_NONE;
        } else {
            uint64_t dead = (st & ~(uint64_t)ST_MASK) | ST_DEAD;
            if (!atomic_compare_exchange_strong_explicit(&e->state, &st, dead, memory_order_acq_rel, memory_order_relaxed))
                return WORK_NONE;
        }
        if (c.mt != mt || c.ctx.made > now || now - c.ctx.made > LINK_WINDOW_NS)
            return WORK_NONE;
        *ctx = c.ctx;
        ctx->runs = repeat ? atomic_fetch_add_explicit(&e->runs, 1, memory_order_relaxed) : 0;
        if (c.how == WORK_JOIN || c.how == WORK_LINK)
            atomic_fetch_add_explicit(&g_joined, 1, memory_order_relaxed);
        return (int)c.how;
    }
    return WORK_NONE;
}

// ---- The GC's side ----

typedef struct snap_entry {
    uintptr_t key, moved_to; // moved_to: 0 until reported alive
    uint64_t state;          // the slot's state word when snapshotted
    uint32_t idx;
} snap_entry;

static snap_entry g_snap[WORK_SLOTS];
static uint32_t g_nsnap;
static int g_tracking;  // a snapshot is open
static int g_ephemeral; // its collection is a blocking one (generations 0 and 1 only)
static pthread_mutex_t g_gc_mu = PTHREAD_MUTEX_INITIALIZER;

static void sift(snap_entry *a, uint32_t root, uint32_t n) {
    for (;;) {
        uint32_t c = 2 * root + 1;
        if (c >= n)
            return;
        if (c + 1 < n && a[c + 1].key > a[c].key)
            c++;
        if (a[root].key >= a[c].key)
            return;
        snap_entry t = a[root];
        a[root] = a[c];
        a[c] = t;
        root = c;
    }
}

// Heapsort by address: no allocation inside a GC callback.
static void sort_snap(snap_entry *a, uint32_t n) {
    for (uint32_t i = n / 2; i-- > 0;)
        sift(a, i, n);
    for (uint32_t end = n; end-- > 1;) {
        snap_entry t = a[0];
        a[0] = a[end];
        a[end] = t;
        sift(a, 0, end);
    }
}

// Deletes the snapshot's entries that nothing reported alive, and moves
// the reported ones to their new addresses. Entries changed since the
// snapshot (taken, or replaced) are not touched.
static void settle(void) {
    for (uint32_t i = 0; i < g_nsnap; i++) {
        snap_entry *s = &g_snap[i];
        work_entry *e = &g_tab[s->idx];
        uint64_t st = s->state;
        if (s->moved_to == s->key)
            continue;
        uint64_t busy = (st & ~(uint64_t)ST_MASK) | ST_BUSY;
        if (!atomic_compare_exchange_strong_explicit(&e->state, &st, busy, memory_order_acq_rel, memory_order_relaxed))
            continue;
        work_item it = e->it;
        it.key = s->moved_to;
        atomic_store_explicit(&e->state, (busy & ~(uint64_t)ST_MASK) | ST_DEAD, memory_order_release);
        if (it.key == 0 || insert(&it) != 0)
            atomic_fetch_add_explicit(&g_lost_gc, 1, memory_order_relaxed);
    }
    g_nsnap = 0;
    g_tracking = 0;
}

// After a blocking collection, with no hook running: the table is rebuilt
// without its deleted slots, so that probes stay short.
static void rebuild(void) {
    static work_item keep[WORK_SLOTS];
    uint32_t n = 0;
    for (uint32_t i = 0; i < WORK_SLOTS; i++) {
        if ((atomic_load_explicit(&g_tab[i].state, memory_order_relaxed) & ST_MASK) == ST_LIVE)
            keep[n++] = g_tab[i].it;
        atomic_store_explicit(&g_tab[i].state, 0, memory_order_relaxed);
    }
    for (uint32_t i = 0; i < n; i++)
        if (insert(&keep[i]) != 0)
            atomic_fetch_add_explicit(&g_lost_gc, 1, memory_order_relaxed);
    atomic_store_explicit(&g_any, n > 0, memory_order_relaxed);
}

static uint32_t lower_bound(uintptr_t a) {
    uint32_t lo = 0, hi = g_nsnap;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (g_snap[mid].key < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void clr_work_gc_started(int ngen, const BOOL *collected, const COR_PRF_GC_GENERATION_RANGE *ranges, uint32_t nranges) {
    pthread_mutex_lock(&g_gc_mu);
    // A collection inside another (an ephemeral one during a background
    // collection): the outer one's snapshot is given up, its entries lost.
    if (g_tracking) {
        for (uint32_t i = 0; i < g_nsnap; i++)
            g_snap[i].moved_to = 0;
        settle();
    }
    int gen2 = ngen > 2 && collected[2];
    g_ephemeral = !gen2;
    g_nsnap = 0;
    if (atomic_load_explicit(&g_any, memory_order_relaxed)) {
        for (uint32_t i = 0; i < WORK_SLOTS; i++) {
            uint64_t st = atomic_load_explicit(&g_tab[i].state, memory_order_acquire);
            if ((st & ST_MASK) != ST_LIVE)
                continue;
            g_snap[g_nsnap] = (snap_entry){.key = g_tab[i].it.key, .moved_to = 0, .state = st, .idx = i};
            g_nsnap++;
        }
        sort_snap(g_snap, g_nsnap);
        // Items in generations this collection leaves alone do not move and
        // are not reported: kept where they are. (Generation 0 is always
        // collected; an item promoted out of it was reported by the
        // collection that promoted it.)
        for (uint32_t r = 0; r < nranges; r++) {
            int g = (int)ranges[r].generation;
            if (g < 0 || g >= ngen || collected[g])
                continue;
            uintptr_t lo = ranges[r].rangeStart, hi = lo + ranges[r].rangeLength;
            for (uint32_t j = lower_bound(lo); j < g_nsnap && g_snap[j].key < hi; j++)
                g_snap[j].moved_to = g_snap[j].key;
        }
    }
    g_tracking = 1;
    atomic_fetch_add_explicit(&g_gcs, 1, memory_order_relaxed);
    pthread_mutex_unlock(&g_gc_mu);
}

// A range of live objects: the snapshot's entries in it move with it.
// Applying a range twice has the effect of once (the keys stay the
// addresses from before the collection).
static void report_range(uintptr_t lo, uintptr_t to, uintptr_t len) {
    uintptr_t hi = lo + len;
    for (uint32_t j = lower_bound(lo); j < g_nsnap && g_snap[j].key < hi; j++)
        g_snap[j].moved_to = to + (g_snap[j].key - lo);
}

// Lengths come as SIZE_T (the ...2 callbacks) or ULONG (the first
// interface's): one of len64, len32.
static void report(ULONG n, const ObjectID *old_start, const ObjectID *new_start, const SIZE_T *len64, const ULONG *len32) {
    pthread_mutex_lock(&g_gc_mu);
    atomic_fetch_add_explicit(&g_ranges, n, memory_order_relaxed);
    if (g_tracking)
        for (ULONG r = 0; r < n; r++)
            report_range(old_start[r], new_start[r], len64 != NULL ? len64[r] : len32[r]);
    pthread_mutex_unlock(&g_gc_mu);
}

void clr_work_gc_moved(ULONG n, const ObjectID *old_start, const ObjectID *new_start, const SIZE_T *len) {
    report(n, old_start, new_start, len, NULL);
}

void clr_work_gc_survived(ULONG n, const ObjectID *start, const SIZE_T *len) { report(n, start, start, len, NULL); }

void clr_work_gc_moved32(ULONG n, const ObjectID *old_start, const ObjectID *new_start, const ULONG *len) {
    report(n, old_start, new_start, NULL, len);
}

uint64_t clr_work_gc_finished(void) {
    pthread_mutex_lock(&g_gc_mu);
    uint64_t lost = atomic_load_explicit(&g_lost_gc, memory_order_relaxed);
    if (g_tracking) {
        settle();
        if (g_ephemeral && atomic_load_explicit(&g_any, memory_order_relaxed))
            rebuild();
    }
    lost = atomic_load_explicit(&g_lost_gc, memory_order_relaxed) - lost;
    pthread_mutex_unlock(&g_gc_mu);
    return lost;
}

void clr_work_counts(uint64_t *made, uint64_t *joined, uint64_t *full, uint64_t *lost_gc) {
    *made = atomic_load_explicit(&g_made, memory_order_relaxed);
    *joined = atomic_load_explicit(&g_joined, memory_order_relaxed);
    *full = atomic_load_explicit(&g_full, memory_order_relaxed);
    *lost_gc = atomic_load_explicit(&g_lost_gc, memory_order_relaxed);
}

void clr_work_gc_counts(uint64_t *gcs, uint64_t *ranges) {
    *gcs = atomic_load_explicit(&g_gcs, memory_order_relaxed);
    *ranges = atomic_load_explicit(&g_ranges, memory_order_relaxed);
}
