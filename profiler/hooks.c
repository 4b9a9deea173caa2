// hooks.c: the Enter/Leave/Tailcall hook bodies and the per-thread rings.
//
// Runs on CLR threads for every traced call. Rules: no locks, no malloc, no
// call into Go, nothing that can block; what does not fit is dropped and
// counted. The only syscalls are the ones a thread makes once, the first
// time it runs a traced method, claiming its slot (slots.c: slot memory,
// random seed, thread id).
#include <stddef.h>
#include <string.h>
#include <time.h>
#include <signal.h>

#include "async.h"
#include "queue.h"
#include "workitems.h"
#include "clrapi.h"
#include "capture.h"
#include "profiler.h"
#include "values.h"
#include "eltargs.h"
#include "flowlayout.h"
#include "sample.h"
#include "ambient.h"
#include "shed.h"
#include "park.h"
#include "serving.h"
#include "hooks.h"
#include "slots.h"
#include "lftable.h"
#include "ring.h"
#include "safecopy.h"

static clr_runtime g_rt;

static clr_slot_table *g_table; // the slots are claimed from (slots.c)
static clr_capture_config g_cfg;
static _Atomic uint64_t g_no_slot;      // enters lost because every slot was taken
// Records that are not calls (an exception thrown, a catch, an Activity
// stopped) lost for want of room: counted apart, since every dropped call
// is accounted for and these are none (generator seed 300189 counted its
// exceptions' records as calls: more calls with capture on than off).
static _Atomic uint64_t g_events_dropped;
static _Atomic int64_t g_rate_tat; // CLROTEL_RATE_LIMIT's state, across strategy blocks
// initial-exec: the hooks read these on every call, and the default model
// for a shared library calls __tls_get_addr each time. The library is
// dlopen-ed, so this takes a few bytes of the static TLS surplus glibc keeps
// for such libraries (the Go runtime takes some too).
static __thread clr_slot *t_slot __attribute__((tls_model("initial-exec")));
static __thread int t_no_slot __attribute__((tls_model("initial-exec")));         // this thread found no slot: do not retry per call

// Adds one to a counter only its slot's owner thread writes.
static inline void bump(_Atomic uint64_t *c) {
    atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + 1, memory_order_relaxed);
}

uint64_t clr_dropped_no_slot(void) { return atomic_load_explicit(&g_no_slot, memory_order_relaxed); }
uint64_t clr_events_dropped(void) { return atomic_load_explicit(&g_events_dropped, memory_order_relaxed); }

int clr_hooks_init(const clr_runtime *rt, clr_slot_table *slots, const clr_capture_config *cfg) {
    g_rt = *rt;
    g_cfg = *cfg;
    g_table = slots;
    return 0;
}

// Takes a free slot for the calling thread (slots.c: lock-free, one CAS per
// slot tried). Kept out of line (and cold): it runs once per thread, not
// per call, and the hot-path check (profiler/internal/hotpath) tells its
// calls apart.
__attribute__((noinline, cold)) static clr_slot *slot_acquire(void) {
    if (t_no_slot || g_table == NULL)
        return NULL;
    clr_slot *s = clr_slot_claim(g_table);
    if (s == NULL) {
        t_no_slot = 1;
        return NULL;
    }
    clr_thread_alt_stack(); // a thread the runtime did not announce (signals.c)
    t_slot = s;
    return s;
}

static inline clr_slot *slot_get(void) {
    clr_slot *s = t_slot;
    if (__builtin_expect(s != NULL, 1))
        return s;
    return slot_acquire();
}

static inline uint64_t clock_of(clockid_t c) {
    struct timespec ts;
    clock_gettime(c, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline uint64_t now_ns(void) { return clock_of(CLOCK_REALTIME); }

// The clock of decisions that need no span's precision: whether a frame
// serves (its age), the shedding bucket, when a work item or a shed
// closure was made. It is the kernel's time at its last tick (a few ms
// behind, never ahead of now_ns()), read in the vDSO without the TSC: in
// a VM the precise clock costs several times as much, and a shed trace's
// root would pay it twice. Times compared with each other come from the
// same clock, or the coarse one is the earlier (made <= now holds).
static inline uint64_t coarse_ns(void) { return clock_of(CLOCK_REALTIME_COARSE); }

static inline uint64_t rng_next(clr_slot *s) {
    uint64_t a = s->rng[0], b = s->rng[1];
    s->rng[0] = b;
    a ^= a << 23;
    a ^= a >> 17;
    a ^= b ^ (b >> 26);
    s->rng[1] = a;
    return a + b;
}

// The ring's producer side (ring.h), with this process's sizes.
static inline uint8_t *ring_reserve(clr_slot *s, uint32_t size, uint32_t keep) {
    return clr_ring_reserve(s, g_cfg.ring_size, g_cfg.ring_soft, size, keep);
}

static inline int ring_room(clr_slot *s, uint32_t keep) { return clr_ring_room(s, g_cfg.ring_size, keep); }

// A call folds into the recorded frame anc (fold.c counts it when it ends).
// The first call folded into a frame keeps ring room for the fold part of
// its exit record (count, time, top methods); while the ring has no room
// for it, the exit record still carries the count, in its spare word.
static void fold_begin(clr_slot *s, clr_frame *f, uint32_t anc, uint64_t start) {
    clr_frame *a = &s->stack[anc];
    if (a->fold_state != FOLD_KEPT && ring_room(s, s->reserved + REC_FOLD_SIZE + REC_EXIT_SIZE)) {
        a->fold_state = FOLD_KEPT;
        s->reserved += REC_FOLD_SIZE;
    }
    f->recorded = FRAME_FOLDED;
    f->anc = anc;
    f->start = start;
    f->fold_state = FOLD_NONE;
}

static inline void ring_commit(clr_slot *s, uint32_t size) { clr_ring_commit(s, size); }

// One recorded enter or exit in RECORD_TIMED is timed, from its clock read
// (start) to the record's commit, bounded (shed.h, clr_shed_record_cost),
// and counted RECORD_TIMED times: what admitted traces cost the app's
// threads, for the CPU budget, for one clock read in RECORD_TIMED records.
// The sampling counter is the slot's own; a thread's counts are its only.
enum { RECORD_TIMED = 8 };
static inline void record_timed(clr_slot *s, uint64_t start) {
    if ((++s->record_n & (RECORD_TIMED - 1)) != 0)
        return;
    uint64_t cost = clr_shed_record_cost(start, now_ns());
    atomic_store_explicit(&s->record_ns, atomic_load_explicit(&s->record_ns, memory_order_relaxed) + cost * RECORD_TIMED,
                          memory_order_relaxed);
}

// How a root begins its trace: as a call a serving frame made (under is
// that frame), or at the start of work.
static inline uint8_t root_kind(const clr_frame *under) { return under != NULL ? ROOT_CALL : ROOT_WORK; }

// Whether frame f is in a trace that is not exported (shed or unsampled):
// no record, but judged and served as a recorded frame (FRAME_UNSAMPLED).
static inline int unspanned(const clr_frame *f) { return f->recorded == FRAME_SHED || f->recorded == FRAME_UNSAMPLED; }

// What the serving rule (serving.h) reads of frame f, as its call begins:
// when (born), its level, whether it is in a unit of work; no calls, work
// or serving yet. A recorded frame's and an unspanned one's alike.
static inline void serving_begin(clr_frame *f, uint64_t born, uint32_t level, int unit) {
    f->born = born;
    f->children = 0;
    f->queued = 0;
    f->level = (uint16_t)(level < UINT16_MAX ? level : UINT16_MAX);
    f->unit = (uint8_t)unit;
    f->serving = 0;
}

// Whether the rule that folds hot methods judges a call whose span is (or
// folds into) a child of frame up, recorded or shed (a shed trace's calls
// are judged as the same calls recorded would be). Not when up is the
// outermost frame of its thread outside any unit of work (a thread's body,
// Main), whose calls may be the requests of a loop that will serve
// (serving.h): folding must not take them away first, however many
// threads run such a loop; an async loop's resume is no such frame, as it
// serves by its resumes, one or two calls each, long before its calls
// could fold. Nor when up began its trace at the start of work
// (ROOT_WORK): that is plumbing (the lambda a loop queued, a timer's
// callback) whose calls are the request's handlers. A trace a serving
// frame's call began (ROOT_CALL) is that call's, the request's handler's:
// its calls are the request's parts, judged as any (a CPU-bound Main's
// getter calls, each a trace of its own, are hot methods' callers).
static inline int fold_judges(const clr_frame *up) {
    if (g_cfg.serving_children == 0)
        return 1;
    if (unspanned(up))
        return up->root != ROOT_WORK;
    if (up->recorded != FRAME_RECORDED)
        return 1;
    if (up->unit)
        return up->root != ROOT_WORK;
    return !(up->level == 0 && !(up->fn != NULL && (up->fn->flags & FN_ASYNC_MOVENEXT)));
}

// A call is a unit of work when it made two traced calls or more, or one
// that was a unit itself: what a getter does (a property read, a lookup,
// one helper call) is not.
static inline int is_unit(const clr_frame *f) { return f->called >= 2 || f->busy_child; }

// A call that makes no span of its own and is timed as one of
// UNSPANNED_TIMED is judged as that many (unspanned_timed).
enum { UNSPANNED_TIMED = 64 }; // a power of two

// Whether fn's last call judged (judge_call, judge_may) was in up's
// trace; notes up's trace as its last when it was not.
static inline int same_trace(const clr_frame *up, clr_fn *fn) {
    if (atomic_load_explicit(&fn->judged_trace, memory_order_relaxed) == up->trace_key)
        return 1;
    atomic_store_explicit(&fn->judged_trace, up->trace_key, memory_order_relaxed);
    return 0;
}

// Whether the rule judges a call of fn under up, whatever the call itself
// does: anywhere up judges its calls (fold_judges), and under a frame
// whose calls may be requests, after a unit's call, unless fn is a
// request's handler there (unit_call).
static inline int judges_under(const clr_frame *up, const clr_fn *fn) {
    return fold_judges(up) || (up->busy_child && atomic_load_explicit(&fn->roots, memory_order_relaxed) == 0);
}

// The fold rule judges f's call, which took ns, made under up. Under a
// frame whose calls may be requests (not fold_judges), only a getter's:
// once up has made a unit of work's call (a request, or a CPU-bound
// Main's `ReadAssembly`: unit_call), a call beside it that is none (what
// such a Main's loop calls most) is judged by its time, unless its method
// is a request's handler there (unit_call). So a handler is never judged,
// even once the methods it calls fold and lose their hooks and its calls
// make none, and neither is a leaf handler that is all its loop calls (it
// has no such sibling). A getter's method that folds loses its hooks
// (rejit.c): its calls began no request.
//
// And only the call of a method called again in the same trace: a method
// called once in each trace (a request's handler behind a wrapper, or
// under an async loop's resume) drowns no trace, and folding it, however
// short its calls, would take its span from every request. judged_trace
// is the trace of the method's last call: a call in another trace is not
// judged. Calls of other traces on other threads in between make a call
// look like its trace's first, which only delays a verdict.
static inline void judge_call(const clr_frame *up, const clr_frame *f, uint64_t ns) {
    clr_fn *fn = f->fn;
    // Under a frame whose calls may be requests, a unit's call is counted
    // (unit_call), not judged.
    if (same_trace(up, fn) && (fold_judges(up) || (judges_under(up, fn) && !is_unit(f))))
        clr_fold_judge(&g_cfg, fn, ns, f->sampled ? UNSPANNED_TIMED : 1);
}

// Whether judge_call may judge a call of fn made under up (NULL: none)
// that makes no span, known as it begins, so that a call the rule will
// not judge is never timed (whether the call is a unit is known only at
// its end). Its first call in up's trace is noted here, not at its end.
static inline int judge_may(const clr_frame *up, clr_fn *fn) {
    return up != NULL && same_trace(up, fn) && judges_under(up, fn);
}

// A call that makes no span of its own (f: in a shed trace, or folded
// under a folded frame) and that the fold rule may judge (judge_may) is
// timed for the rule while its method has had fewer judged calls than
// the rule asks for, and 1 in UNSPANNED_TIMED of its calls after that,
// judged as that many (f->sampled): a hot, short method folds after as
// many calls, and loses its hooks as soon, as it would if its calls were
// recorded, while a method the rule has not folded by then (one call in
// a hundred or more was long) no longer pays two clock reads on every
// call.
static inline int unspanned_timed(clr_frame *f, clr_fn *fn, const clr_frame *up) {
    if (!judge_may(up, fn))
        return 0;
    if (atomic_load_explicit(&fn->stat_calls, memory_order_relaxed) < g_cfg.fold_min_calls)
        return 1;
    uint32_t n = atomic_load_explicit(&fn->unspanned_seen, memory_order_relaxed) + 1;
    atomic_store_explicit(&fn->unspanned_seen, n, memory_order_relaxed);
    f->sampled = (n & (UNSPANNED_TIMED - 1)) == 0;
    return f->sampled;
}

// A call in a trace that is not exported (state: FRAME_SHED or
// FRAME_UNSAMPLED) records nothing; it is timed as unspanned_timed says,
// the rest cost a count, no clock read. f is a frame just pushed (its
// start is 0); up: the frame it is judged under (NULL: none); root
// (ROOT_*): how it would begin the trace if the trace were recorded, so
// that its calls are judged as a recorded root's would be (fold_judges).
// It keeps what the serving rule reads, as frame_recorded does: whether it
// is in a unit of work, its level, when it began on the coarse clock (0
// in a unit of work, where nothing serves). A root reads that clock even
// if it makes no call: a loop that is quiet for a second before its
// first request serves from that request on, as a recorded one does.
static inline void unspanned_frame(clr_frame *f, clr_fn *fn, const clr_frame *up, uint32_t state, int root, int unit,
                                   uint32_t level, uint64_t born) {
    f->recorded = state;
    f->root = (uint8_t)root;
    serving_begin(f, born, level, unit);
    if (g_cfg.fold_min_calls == 0 || (fn->flags & (FN_FOLDED | FN_NEVER_FOLDED | FN_ASYNC | FN_CLOSURE_CTOR)))
        return;
    // A serving frame's call of a request's handler is never judged
    // (judge_call): no clock read for it.
    if (root == ROOT_CALL && atomic_load_explicit(&fn->roots, memory_order_relaxed) != 0)
        return;
    if (unspanned_timed(f, fn, up))
        f->start = now_ns();
}

// Reads the exact ClassID and method type arguments of a shared-generic
// frame. Returns the number of type arguments, or -1.
// Out of line so the hot-path check sees its profiling-API calls by name.
__attribute__((noinline)) static int exact_generic_types(clr_fn *fn, uintptr_t elt, uint64_t *cls, uint64_t *args) {
    ProfInfoVtbl *v = g_rt.vtbl;
    void *info = g_rt.info;
    COR_PRF_FRAME_INFO frame = 0;
    // The argument info is not needed here, only the frame; the ranges are
    // asked anyway since some runtimes reject a null buffer.
    clr_enter_args ranges;
    clr_elt_fp fp;
    HRESULT hr = clr_enter_args_get(&g_rt, fn->function_id, elt, &frame, &ranges, &fp);
    clr_enter_args_done(&fp);
    if (hr < 0 || frame == 0)
        return -1;
    ClassID c = 0, ta[MAX_TYPE_ARGS];
    ModuleID m;
    mdToken tok;
    ULONG32 n = 0;
    // The runtime fills at most MAX_TYPE_ARGS and reports the real count:
    // more than that is not read at all (the shared name stands).
    if (v->GetFunctionInfo2(info, fn->function_id, frame, &c, &m, &tok, MAX_TYPE_ARGS, &n, ta) < 0 || n > MAX_TYPE_ARGS)
        return -1;
    *cls = c;
    for (ULONG32 i = 0; i < n; i++)
        args[i] = ta[i];
    return (int)n;
}

static int64_t clock_ns(void) { return (int64_t)now_ns(); }
static int64_t coarse_clock_ns(void) { return (int64_t)coarse_ns(); }

// The sampling decision on a new trace rooted at fn, with the strategy
// block in force (strategy.c explains the decision_seq protocol that lets Go
// free a replaced block). No block yet (not possible once Initialize has
// published one): sampled. parent: -1 for a new trace, else the sampled
// flag of the caller's trace the root joins (ambient.c).
static inline int decide_root(clr_slot *s, clr_fn *fn, const uint8_t *tid, int parent) {
    uint64_t seq;
    clr_strategy *st = clr_strategy_enter(&s->decision_seq, &clr_strategy_ptr, clr_strategy_reader_fence, &seq);
    int verdict = CLR_KEPT;
    if (st != NULL && parent >= 0 && st->parent_based) {
        verdict = clr_decide_parent(st, &g_rate_tat, parent, clock_ns);
    } else if (st != NULL) {
        clr_method_sampling *m = fn->index < st->n ? &st->methods[fn->index] : &fn->sampling;
        verdict = clr_decide(st, m, &g_rate_tat, tid, clock_ns);
    }
    clr_strategy_exit(&s->decision_seq, seq);
    return verdict;
}

// A continuation's enter record: the span it continues, no values.
enum { CONTINUATION_SIZE = REC_HEADER + 8 + 24 };

static void put_continuation(uint8_t *p, uint32_t size, uint16_t flags, uint64_t ts, uint32_t fn_index, const uint64_t trace[2],
                             uint64_t span) {
    clr_put_header(p, size, REC_ENTER, flags | RF_RESUME, ts);
    uint8_t *q = p + REC_HEADER;
    *(uint32_t *)q = fn_index;
    *(uint32_t *)(q + 4) = 0;
    memcpy(q + 8, trace, 16);
    memcpy(q + 24, &span, 8);
}

// Writes the enter records that wait in the frames below top (from the
// lowest, clr_slot.unwritten_from), each with the time its frame began:
// a record is about to be written under them, and Go must see it in its
// place. Their room was kept (s->reserved), so the ring has it.
__attribute__((noinline, cold)) static void write_unwritten(clr_slot *s, uint32_t top) {
    for (uint32_t i = s->unwritten_from - 1; i < top && i < g_cfg.stack_cap; i++) {
        clr_frame *f = &s->stack[i];
        if (f->recorded != FRAME_RECORDED || !f->unwritten)
            continue;
        f->unwritten = 0;
        s->reserved -= CONTINUATION_SIZE;
        uint8_t *p = ring_reserve(s, CONTINUATION_SIZE, s->reserved);
        if (p == NULL) {
            // Cannot happen while the reservation holds; count it if it
            // does. What is under the frame goes on without it.
            atomic_fetch_add_explicit(&g_events_dropped, 1, memory_order_relaxed);
            continue;
        }
        put_continuation(p, CONTINUATION_SIZE, 0, f->start, f->fn_index, f->trace, f->span);
        ring_commit(s, CONTINUATION_SIZE);
    }
    s->unwritten_from = 0;
}

// Called before any record is written on s's ring: the frames whose enter
// records wait are written first.
static inline void write_pending(clr_slot *s) {
    if (__builtin_expect(s->unwritten_from != 0, 0))
        write_unwritten(s, s->depth);
}

// Activity.Stop (FN_ACTIVITY_STOP) is no span: its enter records the
// Activity being stopped (ambient.c), for Go to export a span for it.
__attribute__((noinline)) static void activity_stopped(clr_slot *s, clr_fn *fn, uintptr_t elt) {
    write_pending(s);
    uint8_t *p = ring_reserve(s, REC_HEADER + 8 + AMB_STOP_MAX, s->reserved + 2 * REC_EXIT_SIZE);
    if (p == NULL) {
        atomic_fetch_add_explicit(&g_events_dropped, 1, memory_order_relaxed);
        return;
    }
    uint32_t n = clr_ambient_stop(fn->function_id, elt, p + REC_HEADER + 8, AMB_STOP_MAX);
    if (n == 0)
        return; // reserved, not committed: the space stays free
    uint32_t size = REC_HEADER + 8 + ((n + 7) & ~7u);
    clr_put_header(p, size, REC_ACTIVITY, 0, now_ns());
    *(uint32_t *)(p + REC_HEADER) = fn->index;
    *(uint32_t *)(p + REC_HEADER + 4) = 0;
    ring_commit(s, size);
}

// Reserves an enter record of fixed bytes, plus the value budget when
// values is set. Too full for values, the call is recorded without them,
// and says so (RF_VALUES_DROPPED). Room stays kept for this frame's exit
// record, every open frame's, and the pad an exit record may need at the
// end of the ring. NULL: no room at all.
static inline uint8_t *reserve_enter(clr_slot *s, uint32_t fixed, int values, uint32_t *budget, uint16_t *flags) {
    write_pending(s);
    *budget = values ? g_cfg.value_bytes : 0;
    uint8_t *p = ring_reserve(s, fixed + *budget, s->reserved + 2 * REC_EXIT_SIZE);
    if (p == NULL && *budget > 0) {
        *budget = 0;
        *flags |= RF_VALUES_DROPPED;
        p = ring_reserve(s, fixed, s->reserved + 2 * REC_EXIT_SIZE);
    }
    return p;
}

// Writes the call's values after the fixed part of its enter record at p;
// returns the record's size.
static inline uint32_t enter_values(clr_fn *fn, uintptr_t elt, uint8_t *p, uint32_t fixed, uint32_t budget, uint16_t *flags) {
    if (budget == 0)
        return fixed;
    uint32_t n = clr_capture_enter(fn->plan, &fn->enter_layout, fn->function_id, elt, p + fixed, budget);
    if (n > 0)
        *flags |= RF_VALUES;
    return fixed + ((n + 7) & ~7u);
}

// A frame whose enter record was written at ts, in a unit of work's trace
// or not, level recorded frames above its thread's outermost.
static inline void frame_recorded(clr_slot *s, clr_frame *f, uint64_t ts, const uint64_t trace[2], uint64_t span, int unit,
                                  uint32_t level) {
    f->recorded = FRAME_RECORDED;
    f->start = ts;
    serving_begin(f, ts, level, unit);
    f->root = 0;
    f->trace[0] = trace[0];
    f->trace[1] = trace[1];
    f->trace_key = trace[0];
    f->span = span;
    f->fold_state = FOLD_NONE;
    f->fold_calls = 0;
    f->fold_ntop = 0;
    f->fold_ns = 0;
    f->unwritten = 0;
    s->reserved += REC_EXIT_SIZE;
}

// The level of a frame entered under depth d (the frame below it, if
// recorded or unspanned, is its parent).
static inline uint32_t level_under(const clr_slot *s, uint32_t d) {
    return d > 0 && (s->stack[d - 1].recorded == FRAME_RECORDED || unspanned(&s->stack[d - 1])) ? (uint32_t)s->stack[d - 1].level + 1
                                                                                                  : 0;
}

static inline clr_serving_rule serving_rule(void) {
    return (clr_serving_rule){g_cfg.serving_after_ns, g_cfg.serving_children};
}

// The recorded frame f, the innermost recorded one, begins serving at now
// (serving.h): its span and the open spans it descends from are exported
// now, still running (REC_SERVING). Without room for the record they are
// exported when they end, and the record's loss is counted.
__attribute__((noinline)) static void begin_serving(clr_slot *s, clr_frame *f, uint64_t now) {
    if (now == 0)
        now = now_ns(); // the caller decided on the coarse clock
    write_pending(s);
    uint8_t *p = ring_reserve(s, REC_EXIT_SIZE, s->reserved + 2 * REC_EXIT_SIZE);
    if (p == NULL) {
        atomic_fetch_add_explicit(&g_events_dropped, 1, memory_order_relaxed);
        return;
    }
    clr_put_header(p, REC_EXIT_SIZE, REC_SERVING, 0, now);
    *(uint32_t *)(p + REC_HEADER) = f->fn_index;
    *(uint32_t *)(p + REC_HEADER + 4) = 0;
    ring_commit(s, REC_EXIT_SIZE);
}

// Whether what starts under the recorded or unspanned frame p at now (a
// call, or with work set a work item or a closure) begins a trace of its
// own: p serves, or does from now, or (work) its work does. A frame in a
// unit of work's trace never serves. The first time either holds, a
// recorded p's span and the spans it descends from are sent
// (begin_serving).
static inline int serves(clr_slot *s, clr_frame *p, int work, uint64_t now) {
    if (p->unit)
        return 0;
    uint32_t *n = work ? &p->queued : &p->children;
    if (*n != UINT32_MAX)
        (*n)++;
    uint8_t was = p->serving;
    if (!(p->serving & SERVE_CALLS) && clr_serving_due(serving_rule(), p->born, p->level, p->children, now))
        p->serving |= SERVE_CALLS | SERVE_WORK;
    if (work && !(p->serving & SERVE_WORK) && clr_serving_work_due(serving_rule(), p->born, p->queued, now))
        p->serving |= SERVE_WORK;
    if (p->serving != was && was == 0 && p->recorded == FRAME_RECORDED)
        begin_serving(s, p, 0);
    return (p->serving & (work ? SERVE_WORK : SERVE_CALLS)) != 0;
}

// The frame f at depth d continues the span span of trace from ts.
static void continued(clr_slot *s, clr_frame *f, uint32_t d, uint64_t ts, const uint64_t trace[2], uint64_t span) {
    // A continuation serves only as its async method does (async_enter).
    frame_recorded(s, f, ts, trace, span, 1, level_under(s, d));
    if (d == 0) {
        // A resume on a thread with nothing else traced: the span budget
        // counts from here.
        s->trace_spans = 0;
        s->trace_truncated = 0;
    }
}

// A frame that continues an async method's span (a MoveNext, or the
// builder call that completes the task): an enter record carrying the
// span's trace id and span id, no span of its own. Calls under it are the
// span's children, whatever thread this is and whatever ran it.
static void record_continuation(clr_slot *s, clr_frame *f, clr_fn *fn, uintptr_t elt, uint32_t d, uint16_t flags,
                                const uint64_t trace[2], uint64_t span) {
    uint32_t fixed = CONTINUATION_SIZE, budget;
    uint8_t *p = reserve_enter(s, fixed, (flags & RF_ASYNC_END) && fn->plan != NULL, &budget, &flags);
    if (p == NULL) {
        // Its calls count as dropped; a continuation itself is not a call
        // that makes a span, and is not counted (as when it is recorded).
        f->recorded = FRAME_DROPPED;
        return;
    }
    uint64_t ts = now_ns();
    uint32_t size = enter_values(fn, elt, p, fixed, budget, &flags);
    put_continuation(p, size, flags, ts, fn->index, trace, span);
    ring_commit(s, size);
    continued(s, f, d, ts, trace, span);
}

// A serving async loop's resume (resume_serving) whose enter record waits
// until a record is written under it (write_pending): most of an accept
// loop's resumes only begin a request's trace, and under load most of
// those are shed; two records per request for a span already sent (it
// serves) would be most of what the hooks write. Ring room for the record
// is kept meanwhile.
static void continue_unwritten(clr_slot *s, clr_frame *f, uint32_t d, const uint64_t trace[2], uint64_t span) {
    if (!ring_room(s, s->reserved + CONTINUATION_SIZE + 2 * REC_EXIT_SIZE)) {
        f->recorded = FRAME_DROPPED; // as record_continuation's
        return;
    }
    continued(s, f, d, now_ns(), trace, span);
    f->unwritten = 1;
    s->reserved += CONTINUATION_SIZE;
    if (s->unwritten_from == 0)
        s->unwritten_from = d + 1;
}

// ASYNC_ITER_BEGIN: an iterator's MoveNext on an enumerator its iterator
// method's call did not make (async_enter): the call begins an
// enumeration's span (iter_begin).
enum { ASYNC_HANDLED = 0, ASYNC_NORMAL = 1, ASYNC_ITER_BEGIN = 2 };

// A resume of an async loop (f, its frame, born and level set) counts
// into its state machine's resumes field (wr, which held r) as a served
// call, and the frame serves once the serving rule says so at now, or as
// its earlier resumes did. Returns whether it begins serving at this one.
static inline int resume_counted(clr_frame *f, volatile uint64_t *wr, uint64_t r, uint64_t now) {
    // One thread runs a state machine's step at a time: a plain update.
    uint64_t n = r & ASYNC_RESUMES_COUNT;
    if (n < ASYNC_RESUMES_COUNT)
        n++;
    f->children = (uint32_t)n;
    int begins = !(r & ASYNC_RESUMES_SERVING) && clr_serving_due(serving_rule(), f->born, f->level, f->children, now);
    if (begins)
        r |= ASYNC_RESUMES_SERVING;
    if (r & ASYNC_RESUMES_SERVING)
        f->serving = SERVE_CALLS | SERVE_WORK;
    *wr = (r & ~ASYNC_RESUMES_COUNT) | n;
    return begins;
}

// A resume of an async method whose state machine has the serving fields
// (self: the state machine): a continuation that serves when its async
// method does, counted by its resumes and aged from its call (serving.h):
// an accept loop awaiting each request, a timer loop awaiting each tick.
__attribute__((noinline)) static void resume_serving(clr_slot *s, clr_frame *f, clr_fn *fn, uintptr_t elt, uintptr_t self,
                                                     const uint16_t *off, uint32_t d, const uint64_t t[2], uint64_t span) {
    volatile uint64_t *wb = (volatile uint64_t *)(self + off[ASYNC_FIELD_BORN]);
    volatile uint64_t *wr = (volatile uint64_t *)(self + off[ASYNC_FIELD_RESUMES]);
    uint64_t born = *wb, r = *wr;
    if ((r & (ASYNC_RESUMES_SERVING | ASYNC_RESUMES_UNIT)) == ASYNC_RESUMES_SERVING)
        continue_unwritten(s, f, d, t, span);
    else
        record_continuation(s, f, fn, elt, d, 0, t, span);
    if (f->recorded != FRAME_RECORDED || (r & ASYNC_RESUMES_UNIT))
        return;
    f->unit = 0;
    f->born = born;
    if (resume_counted(f, wr, r, f->start))
        begin_serving(s, f, f->start);
}

// A resume of an async loop whose kickoff call was not recorded (its trace
// shed or unsampled: state), self its state machine: an unspanned frame
// that serves as resume_serving's recorded one does, counted by its
// resumes and aged from its call, with the fields its first step wrote.
// Returns 0 (and sets nothing) when the loop is in a unit of work's trace.
__attribute__((noinline)) static int resume_unspanned(clr_slot *s, clr_frame *f, uintptr_t self, const uint16_t *off, uint32_t d,
                                                      uint32_t state) {
    volatile uint64_t *wb = (volatile uint64_t *)(self + off[ASYNC_FIELD_BORN]);
    volatile uint64_t *wr = (volatile uint64_t *)(self + off[ASYNC_FIELD_RESUMES]);
    uint64_t born = *wb, r = *wr;
    if (born == 0 || (r & ASYNC_RESUMES_UNIT))
        return 0;
    unspanned_frame(f, f->fn, NULL, state, ROOT_NONE, 0, level_under(s, d), born);
    // No span: nothing to send when it begins serving.
    resume_counted(f, wr, r, coarse_ns());
    return 1;
}

// The state machine or enumerator (`this`) whose MoveNext, Dispose or
// completion fn is entering: its address, 0 when it cannot be read, with
// its async fields (w) and where its fields are (*off; exact is the room
// for them in shared generic code, whose fields are where the call's
// exact class has them: flowlayout.h).
static inline uintptr_t async_this(clr_fn *fn, uintptr_t elt, volatile uint64_t *w[ASYNC_WORDS],
                                   uint16_t exact[FLOW_LAYOUT_FIELDS], const uint16_t **off) {
    uintptr_t self = 0;
    *off = fn->flow_off;
    if (__builtin_expect(fn->flow_layout != NULL, 0)) {
        if (!clr_flow_this(&g_rt, fn->function_id, elt, fn->flow_layout, &self, exact))
            return 0;
        *off = exact;
    } else {
        self = clr_elt_this(&g_rt, fn->function_id, elt);
    }
    if (self != 0) {
        for (int i = 0; i < ASYNC_FIELDS; i++)
            w[i] = (volatile uint64_t *)(self + (*off)[i]);
        w[ASYNC_FIELD_BORN] = (*off)[ASYNC_FIELD_BORN] != 0 ? (volatile uint64_t *)(self + (*off)[ASYNC_FIELD_BORN]) : NULL;
    }
    return self;
}

// An iterator is judged by its steps (each MoveNext call), not by its
// enumerations: an enumeration's span lasts from the iterator's call to
// its Dispose, so it holds the loop that consumes it (a visitor's foreach
// over a node's children lasts as long as the visit). A hot iterator whose
// steps are short is a tiny producer, folded as a hot, short method is:
// its enumerations make no span, and its enumerator's methods lose their
// hooks with its iterator method (Go, folding.Groups), but for Dispose,
// where an enumeration still open ends.
//
// As judge_call judges a method called again in one trace, only the
// steps of an iterator's enumerations after its first in a trace are
// judged (one enumerated once in each request keeps its spans): where an
// enumeration begins (fn: its constructor or the step that begins it, in
// the trace key says), whether its steps will be; the enumerator's
// ASYNC_FIELD_BORN field keeps the answer for its steps.
static inline uint64_t iter_judges(clr_fn *fn, uint64_t key) {
    if (g_cfg.fold_min_calls == 0)
        return 0;
    if (atomic_load_explicit(&fn->judged_trace, memory_order_relaxed) == key)
        return 1;
    atomic_store_explicit(&fn->judged_trace, key, memory_order_relaxed);
    return 0;
}

// A step is timed as unspanned_timed times calls that make no span: each
// until its MoveNext has had as many judged as the rule asks for, then 1
// in UNSPANNED_TIMED, judged as that many, so that an iterator that does
// not fold costs no clock read at most of its steps. A recorded step's
// start is its continuation's; a folded one's is read here.
static inline void iter_step_timed(clr_frame *f, clr_fn *fn, int recorded) {
    if (atomic_load_explicit(&fn->stat_calls, memory_order_relaxed) >= g_cfg.fold_min_calls) {
        uint32_t n = atomic_load_explicit(&fn->unspanned_seen, memory_order_relaxed) + 1;
        atomic_store_explicit(&fn->unspanned_seen, n, memory_order_relaxed);
        if (n & (UNSPANNED_TIMED - 1))
            return;
        f->sampled = 1;
    }
    if (!recorded)
        f->start = now_ns();
    f->iter_judged = 1;
}

// The Leave of a step timed for the rule (f, at end).
static inline void iter_step_judge(const clr_frame *f, uint64_t end) {
    if (end > f->start)
        clr_fold_judge(&g_cfg, f->fn, end - f->start, f->sampled ? UNSPANNED_TIMED : 1);
}

// The mark a state machine's first step leaves on it when its kickoff
// call has no span for the steps to continue, by the kickoff frame's
// state: an unsampled kickoff's steps are not traced, a folded one's are
// transparent frames, a shed or dropped one's calls count as shed or
// dropped.
static uint64_t kickoff_mark(uint32_t kickoff_state) {
    switch (kickoff_state) {
    case FRAME_SKIPPED:
    case FRAME_UNSAMPLED:
        return ASYNC_UNTRACED;
    case FRAME_FOLDED:
        return ASYNC_FOLDED;
    case FRAME_SHED:
        return ASYNC_SHED;
    }
    return ASYNC_DROPPED;
}

// The enter of a state machine's MoveNext or of a builder's completion.
// Returns ASYNC_NORMAL when the call is to be traced as any other (a state
// machine the profiler could not pair with its kickoff call), or
// ASYNC_ITER_BEGIN with w the enumerator's fields.
static int async_enter(clr_slot *s, clr_frame *f, clr_fn *fn, uintptr_t elt, uint32_t d, volatile uint64_t *w[ASYNC_WORDS]) {
    clr_frame *parent = d > 0 ? &s->stack[d - 1] : NULL;
    if (fn->flags & FN_ASYNC_COMPLETE) {
        // SetResult/SetException end the task of the MoveNext that calls
        // them; called from anywhere else, they are not traced.
        if (parent == NULL || parent->recorded != FRAME_RECORDED || parent->span == 0 || parent->fn == NULL ||
            !(parent->fn->flags & FN_ASYNC_MOVENEXT)) {
            f->recorded = FRAME_PASS;
            return ASYNC_HANDLED;
        }
        record_continuation(s, f, fn, elt, d, RF_ASYNC_END, parent->trace, parent->span);
        return ASYNC_HANDLED;
    }
    uint16_t exact[FLOW_LAYOUT_FIELDS];
    const uint16_t *off;
    uintptr_t self = async_this(fn, elt, w, exact, &off);
    if (self == 0)
        return ASYNC_NORMAL;
    uint64_t t[2] = {*w[0], *w[1]}, span = *w[2], check = *w[3];
    if ((t[0] | t[1] | span) == 0) {
        if (check == ASYNC_DROPPED || check == ASYNC_SHED || check == ASYNC_UNTRACED) {
            // Its kickoff call was not recorded: its calls count as dropped
            // (shed; unsampled: not counted), not it. Such a step is a
            // trace of its own for the fold rule, as a recorded one's calls
            // are judged under a step of its request's trace (judge_call).
            f->trace_key = rng_next(s);
            if (check == ASYNC_DROPPED) {
                f->recorded = FRAME_DROPPED;
                f->root = ROOT_NONE;
                return ASYNC_HANDLED;
            }
            uint32_t state = check == ASYNC_SHED ? FRAME_SHED : FRAME_UNSAMPLED;
            // A continuation serves only as its async method does.
            if (!((fn->flags & FN_ASYNC_LOOP) && resume_unspanned(s, f, self, off, d, state)))
                unspanned_frame(f, fn, NULL, state, ROOT_NONE, 1, 0, 0);
            return ASYNC_HANDLED;
        }
        if (check == ASYNC_FOLDED) {
            // No span to continue: a step as plain code of its caller.
            f->recorded = FRAME_PASS;
            if ((fn->flags & FN_ITER_STEP) && w[ASYNC_FIELD_BORN] != NULL && *w[ASYNC_FIELD_BORN] != 0)
                iter_step_timed(f, fn, 0);
            return ASYNC_HANDLED;
        }
        if (check != 0)
            return ASYNC_NORMAL;
        // An enumerator its iterator method's call did not make: the one
        // an enumerable's GetEnumerator makes for each enumeration after
        // the first (or on another thread). Its first MoveNext begins the
        // enumeration's span; a Dispose before any is no call of the user's.
        if (fn->flags & FN_ITER_STEP)
            return ASYNC_ITER_BEGIN;
        if (fn->flags & FN_ITER_END) {
            f->recorded = FRAME_PASS;
            return ASYNC_HANDLED;
        }
        // The first MoveNext, called (through the builder's Start, which is
        // not traced) by the kickoff method: the identity is written once,
        // here, and the compiler's copy into the task's box keeps it.
        if (parent == NULL || parent->fn == NULL || !(parent->fn->flags & FN_ASYNC_KICKOFF) ||
            parent->fn->async_owner != fn->async_owner)
            return ASYNC_NORMAL;
        if (parent->recorded == FRAME_RECORDED && parent->span != 0) {
            *w[0] = parent->trace[0];
            *w[1] = parent->trace[1];
            *w[2] = parent->span;
            *w[3] = clr_async_check(parent->trace[0], parent->trace[1], parent->span);
            if (fn->flags & FN_ASYNC_LOOP) {
                // The serving rule's count and age are the async method's,
                // across its resumes.
                *(volatile uint64_t *)(self + off[ASYNC_FIELD_BORN]) = parent->start;
                *(volatile uint64_t *)(self + off[ASYNC_FIELD_RESUMES]) = parent->unit ? ASYNC_RESUMES_UNIT : 0;
            } else if ((fn->flags & FN_ITER_START) && w[ASYNC_FIELD_BORN] != NULL) {
                *w[ASYNC_FIELD_BORN] = iter_judges(fn, parent->trace_key);
            }
            parent->async_linked = 1;
            record_continuation(s, f, fn, elt, d, 0, parent->trace, parent->span);
            if (f->recorded == FRAME_RECORDED && (fn->flags & FN_ASYNC_LOOP)) {
                f->unit = parent->unit;
                f->born = parent->start;
            }
            return ASYNC_HANDLED;
        }
        // An unsampled kickoff call: its resumes are not traced either. A
        // folded one (called under a folded call, or folded into its
        // caller for want of ring room) has no span for its steps to
        // continue: each step is a transparent frame, whose calls are
        // decided under what calls it (an enumeration's caller: folded
        // under a folded one, nested under a recorded one). A dropped one:
        // its steps' calls count as dropped.
        uint64_t mark = kickoff_mark(parent->recorded);
        *w[3] = mark;
        if (mark == ASYNC_FOLDED) {
            f->recorded = FRAME_PASS;
        } else if (unspanned(parent)) {
            // Not exported; an async loop's resumes serve as a recorded
            // one's do (resume_unspanned), from its call.
            int loop = (fn->flags & FN_ASYNC_LOOP) != 0;
            if (loop) {
                *(volatile uint64_t *)(self + off[ASYNC_FIELD_BORN]) = parent->born;
                *(volatile uint64_t *)(self + off[ASYNC_FIELD_RESUMES]) = parent->unit ? ASYNC_RESUMES_UNIT : 0;
            }
            unspanned_frame(f, fn, NULL, parent->recorded, ROOT_NONE, loop ? parent->unit : 1, (uint32_t)parent->level + 1, parent->born);
        } else if (mark == ASYNC_DROPPED) {
            f->recorded = FRAME_DROPPED;
        }
        if ((fn->flags & FN_ITER_START) && w[ASYNC_FIELD_BORN] != NULL && mark == ASYNC_FOLDED)
            *w[ASYNC_FIELD_BORN] = iter_judges(fn, parent->trace_key);
        return ASYNC_HANDLED;
    }
    if (check != clr_async_check(t[0], t[1], span))
        return ASYNC_NORMAL;
    if (fn->flags & FN_ITER_END) {
        // An iterator's enumeration ends: its span with it. What the
        // object is asked after that (Dispose again, MoveNext) is not
        // traced.
        record_continuation(s, f, fn, elt, d, RF_ASYNC_END, t, span);
        *w[0] = 0;
        *w[1] = 0;
        *w[2] = 0;
        *w[3] = ASYNC_UNTRACED;
        return ASYNC_HANDLED;
    }
    if (fn->flags & FN_ASYNC_LOOP) {
        resume_serving(s, f, fn, elt, self, off, d, t, span);
        return ASYNC_HANDLED;
    }
    record_continuation(s, f, fn, elt, d, 0, t, span);
    if ((fn->flags & FN_ITER_STEP) && f->recorded == FRAME_RECORDED && w[ASYNC_FIELD_BORN] != NULL && *w[ASYNC_FIELD_BORN] != 0)
        iter_step_timed(f, fn, 1);
    return ASYNC_HANDLED;
}

// Closures (async.c): the fields a closure class was given, through the
// `this` of one of its methods; NULL when `this` cannot be read.
static volatile uint64_t *closure_fields(clr_fn *fn, uintptr_t elt, volatile uint64_t *w[CLOSURE_FIELDS]) {
    uintptr_t self = clr_elt_this(&g_rt, fn->function_id, elt);
    if (self == 0)
        return NULL;
    for (int i = 0; i < CLOSURE_FIELDS; i++)
        w[i] = (volatile uint64_t *)(self + fn->flow_off[i]);
    return w[0];
}

// A closure was made at now under span f (a recorded frame, or the maker
// of the work item whose run it is made in): its lambdas, wherever they
// run as a new root soon after (a task, a pool work item, a timer, a
// thread), join f's trace under it.
static void closure_made(clr_fn *fn, uintptr_t elt, const clr_frame *f, uint64_t now) {
    volatile uint64_t *w[CLOSURE_FIELDS];
    if (closure_fields(fn, elt, w) == NULL)
        return;
    uint64_t made = now | (f->unit ? CLOSURE_MADE_UNIT : 0);
    *w[0] = f->trace[0];
    *w[1] = f->trace[1];
    *w[2] = f->span;
    *w[4] = made;
    *w[3] = clr_closure_check(f->trace[0], f->trace[1], f->span, made, 0);
}

// A closure made at now under the serving frame p (serving.h): its lambdas'
// work begins traces of their own, linked to p's span, as work queued with
// the flow suppressed does.
static void closure_serving(clr_fn *fn, uintptr_t elt, const clr_frame *p, uint64_t now) {
    volatile uint64_t *w[CLOSURE_FIELDS];
    if (closure_fields(fn, elt, w) == NULL)
        return;
    *w[0] = p->trace[0];
    *w[1] = p->trace[1];
    *w[2] = p->span;
    *w[4] = now;
    *w[3] = clr_closure_check(p->trace[0], p->trace[1], p->span, now, 1);
}

// A closure made (made: when, with CLOSURE_MADE_UNIT) under an unsampled
// frame (mark ASYNC_UNTRACED) or a shed one (ASYNC_SHED): its lambdas'
// work is not traced either, unless it is work of its own (own_work); or
// by such a frame that serves (ASYNC_SERVED): its lambdas' work begins
// traces of their own.
static void closure_unsampled(clr_fn *fn, uintptr_t elt, uint64_t mark, uint64_t made) {
    volatile uint64_t *w[CLOSURE_FIELDS];
    if (closure_fields(fn, elt, w) != NULL && (*w[0] | *w[1] | *w[2]) == 0) {
        *w[4] = made;
        *w[3] = mark;
    }
}

// LINK_SERVED: a root of its own, as LINK_SUPPRESSED's, but what it began
// under (a serving frame, the maker of its work) is in a trace not
// exported: no span to link to.
enum { LINK_NONE = 0, LINK_JOINED = 1, LINK_UNSAMPLED = 2, LINK_SUPPRESSED = 3, LINK_SHED = 4, LINK_SERVED = 5 };

// What a new root continues: the trace it joins, under which span, when
// that was made (unix ns) and whether in a unit of work's trace.
typedef struct clr_link {
    uint64_t trace[2];
    uint64_t span;
    uint64_t made;
    int unit;
} clr_link;

// A closure's lambda starting a trace: the span that made the closure, if
// the closure carries one made within LINK_WINDOW_NS: its trace to join,
// or, when the closure was queued with the flow suppressed (queue.c) or
// made under a serving frame, a span to link a new trace to (link: trace
// id, span id).
static int closure_link(clr_fn *fn, uintptr_t elt, clr_link *j, uint64_t link[3]) {
    volatile uint64_t *w[CLOSURE_FIELDS];
    if (closure_fields(fn, elt, w) == NULL)
        return LINK_NONE;
    uint64_t t0 = *w[0], t1 = *w[1], span = *w[2], check = *w[3], raw = *w[4];
    uint64_t made = raw & ~CLOSURE_MADE_UNIT;
    uint64_t now = now_ns();
    if (made > now || now - made > LINK_WINDOW_NS)
        return LINK_NONE;
    if ((t0 | t1 | span) == 0) {
        j->made = made;
        j->unit = (raw & CLOSURE_MADE_UNIT) != 0;
        return check == ASYNC_UNTRACED ? LINK_UNSAMPLED : check == ASYNC_SHED ? LINK_SHED : check == ASYNC_SERVED ? LINK_SERVED : LINK_NONE;
    }
    if (check == clr_closure_check(t0, t1, span, raw, 1)) {
        link[0] = t0;
        link[1] = t1;
        link[2] = span;
        return LINK_SUPPRESSED;
    }
    if (check != clr_closure_check(t0, t1, span, raw, 0))
        return LINK_NONE;
    j->trace[0] = t0;
    j->trace[1] = t1;
    j->span = span;
    j->made = made;
    j->unit = (raw & CLOSURE_MADE_UNIT) != 0;
    return LINK_JOINED;
}

// The frame a call at depth d is decided under: the one below it, past
// transparent ones (a callback run inline by a hooked framework method:
// ContinueWith on a completed task, an Activity listener; a work item's
// run). Returns that depth; *run is the innermost run's frame, and *flow
// the same when that run took its maker's trace (the runs around it, a
// thread's start long before, are not this work's); *unsafe_queue says a
// queuing method that never flows the context is among them.
static inline uint32_t below_pass(const clr_slot *s, uint32_t d, const clr_frame **flow, const clr_frame **run,
                                  int *unsafe_queue) {
    *flow = NULL;
    *run = NULL;
    for (; d > 0 && s->stack[d - 1].recorded == FRAME_PASS; d--) {
        const clr_frame *q = &s->stack[d - 1];
        if (q->fn == NULL)
            continue;
        if (q->fn->flags & FN_QUEUE_UNSAFE)
            *unsafe_queue = 1;
        if (*run == NULL && (q->fn->flags & FN_WORK_RUN)) {
            *run = q;
            if (q->flow != WORK_NONE)
                *flow = q;
        }
    }
    return d;
}

// A root under a work item's run (workitems.c): the trace its maker's
// span was in, joined under that span, or linked to it (made with the
// flow suppressed), or not traced (made under an unsampled span).
static int flow_link(const clr_frame *flow, clr_link *j, uint64_t link[3]) {
    switch (flow->flow) {
    case WORK_JOIN:
        j->trace[0] = flow->trace[0];
        j->trace[1] = flow->trace[1];
        j->span = flow->span;
        j->made = flow->born;
        j->unit = flow->unit;
        return LINK_JOINED;
    case WORK_LINK:
        link[0] = flow->trace[0];
        link[1] = flow->trace[1];
        link[2] = flow->span;
        return LINK_SUPPRESSED;
    case WORK_UNSAMPLED:
    case WORK_SHED:
        j->made = flow->born;
        j->unit = flow->unit;
        return flow->flow == WORK_SHED ? LINK_SHED : LINK_UNSAMPLED;
    case WORK_SERVED:
        return LINK_SERVED;
    }
    return LINK_NONE;
}

// Whether a root of fn, in the run run (NULL: none) of work made in the
// trace j (not a unit of work's), is work of its own rather than that
// trace's: an entry method, a periodic timer's tick, or work that ran long
// after it was made (serving.h).
static inline int own_work(const clr_fn *fn, const clr_frame *run, const clr_link *j) {
    if (j->unit)
        return 0;
    uint64_t now = now_ns();
    return (fn->flags & FN_ENTRY) || (run != NULL && run->tick) ||
           (g_cfg.serving_after_ns != 0 && now > j->made && now - j->made >= g_cfg.serving_after_ns);
}

// The words the callback of the item self, run by fn, is called with
// (workitems.h RUN_*): its delegate's target (not the delegate itself, as
// a static method's is) and its argument; 0 where unknown. Read through
// guarded reads: the layout is Go's, from the runtime's metadata.
static void run_callee_words(clr_frame *f, const clr_fn *fn, uintptr_t self, uintptr_t elt) {
    f->callee_words[0] = f->callee_words[1] = 0;
    uint16_t via = fn->flow_off[RUN_VIA], dlg_off = fn->flow_off[RUN_DELEGATE];
    if (dlg_off == 0)
        return;
    uintptr_t obj = self, dlg = 0, target = 0, arg = 0;
    if (via != 0 && (!clr_guarded_read(&obj, self + via, 8) || obj == 0))
        return;
    if (clr_guarded_read(&dlg, obj + dlg_off, 8) && dlg != 0 && fn->flow_off[RUN_TARGET] != 0 &&
        clr_guarded_read(&target, dlg + fn->flow_off[RUN_TARGET], 8) && target != dlg)
        f->callee_words[0] = target;
    if (fn->flow_off[RUN_PARAM])
        (void)clr_elt_arg1_word(&g_rt, fn->function_id, elt, &arg);
    else if (fn->flow_off[RUN_ARG] != 0)
        (void)clr_guarded_read(&arg, obj + fn->flow_off[RUN_ARG], 8);
    f->callee_words[1] = arg;
}

// A work item's maker or run (FN_WORK_MAKE, FN_WORK_RUN), frame f at depth
// d: a transparent frame. A maker records the item with the span it is
// made under: the recorded frame below (a folded call's: the span it folds
// into), else, past untraced framework code, the maker's trace of a work
// item run on this thread (Parallel's workers make the next ones). A run
// takes that back into f.
__attribute__((noinline)) static void work_point(clr_slot *s, clr_frame *f, clr_fn *fn, uintptr_t elt, uint32_t d) {
    clr_work_ctx ctx;
    uintptr_t self;
    if (fn->flags & FN_WORK_RUN) {
        // `this` costs a runtime call: not asked while no item waits.
        if (!clr_work_any() || (self = clr_elt_this(&g_rt, fn->function_id, elt)) == 0)
            return;
        int how = clr_work_take(self, (fn->flags & FN_WORK_REPEAT) != 0, coarse_ns(), &ctx);
        if (how != WORK_NONE) {
            f->tick = ctx.periodic || ctx.runs > 0;
            f->flow = (uint32_t)how;
            f->trace[0] = ctx.trace[0];
            f->trace[1] = ctx.trace[1];
            f->span = ctx.span;
            f->born = ctx.made;
            f->unit = (uint8_t)(ctx.unit != 0);
            run_callee_words(f, fn, self, elt);
        }
        return;
    }
    int suppressed = 0;
    const clr_frame *flow, *run; // a maker under a run takes its trace from flow
    d = below_pass(s, d, &flow, &run, &suppressed);
    (void)run;
    int how;
    uint64_t now = coarse_ns(); // as clr_work_take's
    memset(&ctx, 0, sizeof ctx);
    if (d > 0) {
        clr_frame *p = &s->stack[d - 1];
        if (p->recorded == FRAME_FOLDED)
            p = &s->stack[p->anc];
        if (p->recorded == FRAME_RECORDED && p->span != 0) {
            // Work queued by a serving frame is a unit of its own, linked.
            how = serves(s, p, 1, now) ? WORK_LINK : WORK_JOIN;
            ctx.trace[0] = p->trace[0];
            ctx.trace[1] = p->trace[1];
            ctx.span = p->span;
            ctx.unit = p->unit;
        } else if (unspanned(p)) {
            // Work a serving frame queues is a trace of its own here too,
            // with no span to link to.
            how = !p->unit && serves(s, p, 1, now) ? WORK_SERVED : p->recorded == FRAME_SHED ? WORK_SHED : WORK_UNSAMPLED;
            ctx.unit = p->unit;
        } else if (p->recorded == FRAME_SKIPPED) {
            how = WORK_UNSAMPLED;
        } else {
            return;
        }
    } else if (flow != NULL && flow->flow != WORK_LINK) {
        how = (int)flow->flow;
        ctx.trace[0] = flow->trace[0];
        ctx.trace[1] = flow->trace[1];
        ctx.span = flow->span;
        ctx.unit = flow->unit;
    } else {
        return;
    }
    if (how == WORK_JOIN && (suppressed || clr_ambient_flow_suppressed()))
        how = WORK_LINK;
    uintptr_t action = 0;
    if ((fn->flags & FN_WORK_PROMISE) && clr_elt_arg1_word(&g_rt, fn->function_id, elt, &action) && action == 0)
        return; // a promise-style task: no run will ever take it
    if ((self = clr_elt_this(&g_rt, fn->function_id, elt)) == 0)
        return;
    ctx.made = now;
    if (fn->flags & FN_WORK_REPEAT) {
        // A timer's maker, TimerQueueTimer(callback, state, dueTime,
        // period, flowExecutionContext): with a period (not 0 nor
        // Infinite) each of its runs is a tick of its own.
        uint32_t period = 0;
        ctx.periodic = clr_elt_arg(&g_rt, fn->function_id, elt, TIMER_PERIOD_ARG, &period, sizeof period) && period != 0 &&
                       period != UINT32_MAX;
    }
    clr_work_made(self, how, &ctx);
}

static void close_stale(clr_slot *s, uintptr_t sp);

// The compiler's plumbing (FN_PLUMBING), frame f at depth d, decided under
// the frame below (flow: the run of a work item that took its maker's
// trace): a transparent frame, no span. A closure's constructor gives the
// closure the span it is made under, for its lambdas: the recorded frame
// below (a folded call's: the span it folds into), else the maker's span
// of the work item run here; or marks it made under an unsampled or a
// shed trace; under a serving frame its lambdas' work begins traces of
// their own, linked.
__attribute__((noinline)) static void plumbing(clr_slot *s, clr_frame *f, clr_fn *fn, uintptr_t elt, uint32_t d,
                                               const clr_frame *flow) {
    f->recorded = FRAME_PASS;
    if (!(fn->flags & FN_CLOSURE_CTOR))
        return;
    if (d == 0) {
        if (flow != NULL && flow->flow == WORK_JOIN)
            closure_made(fn, elt, flow, coarse_ns());
        return;
    }
    clr_frame *p = &s->stack[d - 1];
    if (p->recorded == FRAME_FOLDED)
        p = &s->stack[p->anc];
    switch (p->recorded) {
    case FRAME_RECORDED: {
        // Whether p serves, and when the closure was made: the coarse
        // clock, as for any call.
        uint64_t now = coarse_ns();
        if (!p->unit && serves(s, p, 1, now))
            closure_serving(fn, elt, p, now);
        else
            closure_made(fn, elt, p, now);
        return;
    }
    case FRAME_SHED:
    case FRAME_UNSAMPLED: {
        uint64_t now = coarse_ns();
        uint64_t mark = !p->unit && serves(s, p, 1, now) ? ASYNC_SERVED : p->recorded == FRAME_SHED ? ASYNC_SHED : ASYNC_UNTRACED;
        closure_unsampled(fn, elt, mark, now | (p->unit ? CLOSURE_MADE_UNIT : 0));
        return;
    }
    case FRAME_SKIPPED:
        closure_unsampled(fn, elt, ASYNC_UNTRACED, coarse_ns());
        return;
    }
}

// A call, decided under the frame below it (d: the frame the call is
// decided under, after the transparent ones; flow and run: below_pass's)
// and recorded as a span, folded, or not. iter: an enumeration's first
// MoveNext (iter_begin), whose span is an async one (RF_SPANID). Inlined
// in clr_on_enter, where iter is 0, and in iter_begin.
__attribute__((always_inline)) static inline void enter_call(clr_slot *s, clr_frame *f, clr_fn *fn, uintptr_t elt, uint32_t d,
                                                              const clr_frame *flow, const clr_frame *run, int iter) {
    // A frame is recorded only under a recorded parent, so a dropped enter
    // drops its whole subtree (each call of it counted) and nesting stays
    // exact. Under a recorded parent, a folded method's call (or any call
    // once the trace has its budget of spans) folds into the parent; under
    // a folded call, every call folds into the same span. A root is never
    // folded. A call under a serving frame, or of an entry method outside
    // any unit of work, begins a trace of its own (serving.h), linked to
    // the span it is called under (`under`); a method the rule folded stays
    // folded there (a hot helper of a long computation is no request).
    // A method exempt from folding (FN_FOLD_EXEMPT) called under a folded
    // call is decided under the span that call folds into, pd, where its
    // span nests as it does once the folded method lost its hooks.
    uint64_t ts = 0;
    clr_frame *under = NULL;
    uint32_t pd = d > 0 ? d - 1 : 0;
    if (d > 0 && s->stack[pd].recorded == FRAME_FOLDED && (fn->flags & FN_FOLD_EXEMPT))
        pd = s->stack[pd].anc;
    if (d > 0) {
        clr_frame *parent = &s->stack[pd];
        switch (parent->recorded) {
        case FRAME_RECORDED: {
            // Whether the parent serves is decided on the coarse clock; a
            // root under it reads the precise one only if it is recorded.
            uint64_t now = parent->unit ? 0 : coarse_ns();
            if (!parent->unit && ((serves(s, parent, 0, now) && !(fn->flags & FN_FOLDED)) || (fn->flags & FN_ENTRY))) {
                under = parent;
                break;
            }
            ts = now_ns();
            if (fn->flags & FN_FOLDED) {
                fold_begin(s, f, pd, ts);
                return;
            }
            // Near the trace's span budget calls fold too, except those of a
            // method seen to be slow (most of its calls took fold_max_ns or
            // more): the calls worth a span keep theirs, up to the budget.
            if (clr_budget_folds(g_cfg.max_trace_spans, s->trace_spans, fn) && !(fn->flags & FN_ASYNC)) {
                s->trace_truncated = 1;
                fold_begin(s, f, pd, ts);
                return;
            }
            break;
        }
        case FRAME_FOLDED:
            // Timed only when the rule judges folded calls (for re-JIT) and
            // the method is not folded yet; its time is in its parent's.
            if (g_cfg.fold_judge_folded && !(fn->flags & (FN_FOLDED | FN_NEVER_FOLDED)) && unspanned_timed(f, fn, &s->stack[parent->anc])) {
                fold_begin(s, f, parent->anc, now_ns());
                f->fold_state = FOLD_NESTED;
            } else {
                fold_begin(s, f, parent->anc, 0);
            }
            return;
        case FRAME_DROPPED:
            f->recorded = FRAME_DROPPED;
            bump(&s->dropped);
            return;
        case FRAME_SHED:
        case FRAME_UNSAMPLED: {
            // Its trace is not exported, but the parent serves as a
            // recorded one would: a call it serves begins a trace of its
            // own, sampled and admitted on its own.
            uint64_t now = parent->unit ? 0 : coarse_ns();
            if (!parent->unit && ((serves(s, parent, 0, now) && !(fn->flags & FN_FOLDED)) || (fn->flags & FN_ENTRY))) {
                under = parent;
                break;
            }
            unspanned_frame(f, fn, parent, parent->recorded, ROOT_NONE, parent->unit, (uint32_t)parent->level + 1, now);
            if (parent->recorded == FRAME_SHED)
                bump(&s->shed_calls);
            return;
        }
        default:
            return;
        }
    }

    // The clock is read only for frames that are recorded: an unsampled
    // trace's calls cost a depth count, nothing more.
    uint16_t flags = 0;
    uint32_t size = REC_HEADER + 8;
    uint64_t tid[2] = {0, 0}, parent = 0, link[3] = {0, 0, 0};
    int unit = d > 0 ? s->stack[pd].unit : 0;
    if (d == 0 || under != NULL) {
        // rejit.c: never unhooked. A serving frame's call is marked only
        // once its method is a request's handler (unit_call).
        if (under == NULL && atomic_load_explicit(&fn->roots, memory_order_relaxed) == 0)
            atomic_store_explicit(&fn->roots, 1, memory_order_relaxed);
        // A new trace: its id, then the sampling decision on it. An
        // unsampled trace records nothing; its calls only count depth.
        tid[0] = rng_next(s);
        tid[1] = rng_next(s);
        if ((tid[0] | tid[1]) == 0)
            tid[1] = 1;
        // Or the trace of the span that made the closure this lambda
        // belongs to (work it queued), else the caller's trace when
        // Activity.Current is set (ambient.c).
        uint8_t pflags = 0;
        clr_link j = {{0, 0}, 0, 0, 0};
        int how = LINK_NONE;
        if (under != NULL && under->recorded != FRAME_RECORDED) {
            how = LINK_SERVED; // no span to link to
        } else if (under != NULL) {
            how = LINK_SUPPRESSED;
            link[0] = under->trace[0];
            link[1] = under->trace[1];
            link[2] = under->span;
        } else {
            how = (fn->flags & FN_CLOSURE_BODY) ? closure_link(fn, elt, &j, link) : LINK_NONE;
            if (how == LINK_NONE && flow != NULL)
                how = flow_link(flow, &j, link);
        }
        if (how == LINK_JOINED) {
            // Work joins the trace that queued it, unless that trace is no
            // unit of work and this is one of its own (own_work): then it
            // is linked.
            if (own_work(fn, run, &j)) {
                how = LINK_SUPPRESSED;
                link[0] = j.trace[0];
                link[1] = j.trace[1];
                link[2] = j.span;
            } else {
                tid[0] = j.trace[0];
                tid[1] = j.trace[1];
                parent = j.span;
            }
        }
        if ((how == LINK_UNSAMPLED || how == LINK_SHED) && own_work(fn, run, &j))
            how = LINK_SERVED; // its own trace, as under a recorded maker, with no span to link to
        if (how == LINK_UNSAMPLED || how == LINK_SHED) {
            // Work of a trace not exported (its maker's): that trace's.
            f->trace_key = tid[0];
            unspanned_frame(f, fn, d > 0 ? &s->stack[d - 1] : NULL, how == LINK_SHED ? FRAME_SHED : FRAME_UNSAMPLED, ROOT_WORK,
                            j.unit, 0, j.unit ? 0 : coarse_ns());
            bump(how == LINK_SHED ? &s->shed_calls : &s->unsampled);
            return;
        }
        if (how == LINK_SUPPRESSED) {
            flags |= RF_LINK;
            size += 24;
        }
        int joined = how == LINK_JOINED;
        if (joined)
            pflags = AMB_DECIDED | AMB_SAMPLED; // its maker was recorded
        else
            joined = clr_ambient_parent(s, (uint8_t *)tid, (uint8_t *)&parent, &pflags);
        if (joined) {
            flags |= RF_PARENT;
            size += 8;
        }
        // A unit of work (serving.h): its trace continues one, or it is
        // work of its own (linked, an entry method, work run on the thread
        // pool rather than a thread's start), or it joins a caller's
        // Activity.
        if (how == LINK_JOINED)
            unit = j.unit;
        else
            unit = how == LINK_SUPPRESSED || how == LINK_SERVED || (fn->flags & FN_ENTRY) || joined ||
                   (run != NULL && !(run->fn->flags & FN_WORK_THREAD));
        int verdict = how == LINK_JOINED ? CLR_KEPT
                                          : decide_root(s, fn, (const uint8_t *)tid, joined && (pflags & AMB_DECIDED) ? (pflags & AMB_SAMPLED) : -1);
        if (verdict != CLR_KEPT) {
            // Not exported; what it serves still begins traces of their own.
            bump(verdict == CLR_RATE_LIMITED ? &s->rate_limited : &s->unsampled);
            f->trace_key = tid[0];
            unspanned_frame(f, fn, under, FRAME_UNSAMPLED, root_kind(under), unit, 0, unit ? 0 : coarse_ns());
            return;
        }
        // A sampled trace may still be shed whole under load (shed.h);
        // work queued by a recorded span belongs to a trace already begun.
        if (how != LINK_JOINED && !clr_shed_admit(clr_ring_used(s), g_cfg.ring_soft, joined && (pflags & AMB_SAMPLED), coarse_clock_ns)) {
            // A root at the start of work is never judged; a serving
            // frame's call is timed as a getter's may be (judge_call).
            f->trace_key = tid[0];
            unspanned_frame(f, fn, under, FRAME_SHED, root_kind(under), unit, 0, unit ? 0 : coarse_ns());
            bump(&s->shed_traces);
            bump(&s->shed_calls);
            return;
        }
        flags |= RF_ROOT | (unit ? RF_UNIT : 0);
        size += 16;
    }
    // An async method's span id is chosen here: its state machine carries
    // it to the resumes (async.c); so is an enumeration's its MoveNext
    // begins (iter_begin), the id telling its record from a plain call's.
    // Others have the id their record's
    // position gives (clr_span_id).
    uint64_t span = 0;
    if ((fn->flags & FN_ASYNC_KICKOFF) || iter) {
        while (span == 0)
            span = rng_next(s);
        flags |= RF_SPANID;
        size += 8;
    }
    if (ts == 0 || (flags & RF_ROOT))
        ts = now_ns();
    uint64_t cls = 0, targs[MAX_TYPE_ARGS];
    int ntargs = 0;
    if (fn->flags & FN_SHARED_GENERIC) {
        ntargs = exact_generic_types(fn, elt, &cls, targs);
        if (ntargs >= 0) {
            flags |= RF_GENERIC;
            size += 8 + 8 * (uint32_t)ntargs;
        } else {
            ntargs = 0;
        }
    }
    // Values go after the fixed part, within a budget reserved up front.
    uint32_t fixed = size, budget;
    // The first max_value_spans spans of a trace (on this thread) carry
    // values; later ones are recorded without, and the root says so.
    int values = fn->plan != NULL;
    uint32_t values_off = 0;
    if (values && g_cfg.max_value_spans != 0 && !(flags & RF_ROOT) && s->trace_spans >= g_cfg.max_value_spans) {
        values = 0;
        values_off = 1;
        s->values_limited = 1;
        flags |= RF_VALUES_OMITTED;
    }
    uint8_t *p = reserve_enter(s, fixed, values, &budget, &flags);
    if (p == NULL) {
        // No room for a record: under a recorded parent the call folds into
        // it (counted, its subtree too) rather than dropping a subtree.
        if (d > 0 && s->stack[pd].recorded == FRAME_RECORDED) {
            fold_begin(s, f, pd, ts);
            return;
        }
        f->recorded = FRAME_DROPPED;
        bump(&s->dropped);
        return;
    }
    size = enter_values(fn, elt, p, fixed, budget, &flags);
    if (span == 0) // the record's position: the ring's head once room is reserved
        span = clr_span_id(atomic_load_explicit(&s->span_salt, memory_order_relaxed),
                           atomic_load_explicit(&s->head, memory_order_relaxed));
    clr_put_header(p, size, REC_ENTER, flags, ts);
    uint8_t *q = p + REC_HEADER;
    *(uint32_t *)q = fn->index;
    *(uint32_t *)(q + 4) = (uint32_t)ntargs;
    q += 8;
    if (flags & RF_ROOT) {
        memcpy(q, tid, 16);
        q += 16;
    }
    if (flags & RF_SPANID) {
        memcpy(q, &span, 8);
        q += 8;
    }
    if (flags & RF_PARENT) {
        memcpy(q, &parent, 8);
        q += 8;
    }
    if (flags & RF_LINK) {
        memcpy(q, link, 24);
        q += 24;
    }
    if (flags & RF_GENERIC) {
        memcpy(q, &cls, 8);
        memcpy(q + 8, targs, 8 * (size_t)ntargs);
    }
    ring_commit(s, size);
    record_timed(s, ts);
    int root = (flags & RF_ROOT) != 0;
    frame_recorded(s, f, ts, root ? tid : s->stack[pd].trace, span, unit, root ? 0 : level_under(s, pd + 1));
    f->async_linked = 0;
    f->values_off = values_off;
    if (root) {
        // The trace below it on this thread (a serving frame's) takes its
        // span budget back when this one ends.
        f->root = root_kind(under);
        f->outer_spans = s->trace_spans;
        f->outer_truncated = (uint8_t)s->trace_truncated;
        f->outer_limited = (uint8_t)s->values_limited;
        s->trace_spans = 1;
        s->trace_truncated = 0;
        s->values_limited = 0;
    } else {
        s->trace_spans++;
    }
}

// An iterator's MoveNext on an enumerator its iterator method's call did
// not make (ASYNC_ITER_BEGIN, w its fields): the call is decided as any
// other and, recorded, begins the enumeration's span, as the iterator
// method's call does for the enumerator it makes; the fields carry that
// span to the later steps and to Dispose, or say what they are (under an
// unsampled, folded, shed or dropped call: as the call itself was).
__attribute__((noinline)) static void iter_begin(clr_slot *s, clr_frame *f, clr_fn *fn, uintptr_t elt, uint32_t d,
                                                 const clr_frame *flow, const clr_frame *run, volatile uint64_t *w[ASYNC_WORDS]) {
    enter_call(s, f, fn, elt, d, flow, run, 1);
    uint64_t mark;
    switch (f->recorded) {
    case FRAME_RECORDED:
        *w[0] = f->trace[0];
        *w[1] = f->trace[1];
        *w[2] = f->span;
        *w[3] = clr_async_check(f->trace[0], f->trace[1], f->span);
        if (w[ASYNC_FIELD_BORN] != NULL)
            *w[ASYNC_FIELD_BORN] = iter_judges(fn, f->trace_key);
        return;
    case FRAME_FOLDED:
        mark = ASYNC_FOLDED;
        break;
    case FRAME_SHED:
        mark = ASYNC_SHED;
        break;
    case FRAME_DROPPED:
        mark = ASYNC_DROPPED;
        break;
    default:
        mark = ASYNC_UNTRACED;
        break;
    }
    *w[3] = mark;
    if (w[ASYNC_FIELD_BORN] != NULL && mark == ASYNC_FOLDED)
        *w[ASYNC_FIELD_BORN] = iter_judges(fn, f->trace_key);
}

// Tail calls. The JIT may compile a call in tail position as a jump: the
// runtime reports the caller leaving (the Tailcall hook), and the callee's
// frame takes its place, its Leave the only one. The caller's call is not
// over until the callee returns. A frame whose method calls methods of its
// module in tail position (clr_fn.tail_keys, from its IL) so stays,
// waiting (TAIL_WAITING). If the thread's next hook is the Enter of one of
// them, that is the call that replaced it (nothing runs between the jump
// and the callee's Enter): it is pushed above the frame (TAIL_REPLACED),
// which ends when it does (pop_frame), as a span ends with its callee's.
// Any other hook first ends the frame where it tail-called (tail_settle):
// its callee was another, not traced. The stack cannot tell the two apart
// (a callee not traced returns to the frame's caller, whose next call then
// enters where the callee would have), the method's IL can. So a root that
// tail-calls its work keeps that work in its trace.
static void tail_settle(clr_slot *s);

// Whether frame t left by a tail call and waits for the call replacing it.
static inline int tail_waiting(const clr_frame *t) { return t->tail == TAIL_WAITING || t->tail == TAIL_RUN; }

// Whether fn is one of the methods the waiting frame t's method calls in
// tail position.
static inline int tail_callee(const clr_frame *t, const clr_fn *fn) {
    for (int k = 0; k < TAIL_CALLEES && t->fn->tail_keys[k] != 0; k++)
        if (t->fn->tail_keys[k] == fn->def_key)
            return 1;
    return 0;
}

// The hooked functions by definition (clr_fn.def_key), for tail_waits:
// written once per function by Go, never erased (a later instantiation of
// a generic method replaces the earlier).
#define DEFS 16384 // power of two
static lft_slot g_def_slots[DEFS];
static _Atomic uint64_t g_defs_full;
static lftable g_defs = {g_def_slots, DEFS - 1, 64, &g_defs_full};

void clr_def_put(clr_fn *fn) {
    if (fn->def_key != 0 && fn->def_key != LFT_GONE)
        lft_put(&g_defs, fn->def_key, (uintptr_t)fn);
}

// Whether a frame of fn that leaves by a tail call waits for its callee:
// only when every method fn calls in tail position is hooked, with hooks
// that run (not a CoreLib special waiting for its role, not re-JIT-compiled
// without them), so that whichever it called enters at once. Otherwise
// the frame ends at the tail call: one whose callee never enters would
// wait for whatever the thread does next.
static int tail_waits(const clr_fn *fn) {
    if (fn->tail_keys[0] == 0)
        return 0;
    for (int k = 0; k < TAIL_CALLEES && fn->tail_keys[k] != 0; k++) {
        const clr_fn *c = (const clr_fn *)lft_get(&g_defs, fn->tail_keys[k]);
        if (c == NULL)
            return 0;
        uint32_t fl = __atomic_load_n(&c->flags, __ATOMIC_RELAXED);
        if (!(fl & FN_SELECTED) || (fl & (FN_PENDING | FN_REJIT | FN_UNHOOKED)))
            return 0;
    }
    return 1;
}

// Whether the call entering (its ELT block elt) is the callback the
// waiting run t jumped to: a call with its delegate's target or its
// argument in rdi or rsi (`this` and argument 1, or a static method's
// argument 0). A work item's run cannot name its callback's method as a
// tail call's caller can (tail_callee): the delegate decides, at run time.
// The callback need not enter at once: the run may jump to CoreLib code
// that calls it deeper (ExecutionContext.RunForThreadPoolUnsafe, a
// thread's StartHelper.Run). Any other call first ends the run, as a
// callback not traced leaves the next call to whatever the thread does
// next, which must not take the item's trace.
static int run_callee(const clr_frame *t, uintptr_t elt) {
    uintptr_t w[2];
    if (!clr_elt_saved_words(elt, w))
        return 0;
    for (int k = 0; k < 2; k++)
        if (t->callee_words[k] != 0 && (w[0] == t->callee_words[k] || w[1] == t->callee_words[k]))
            return 1;
    return 0;
}

// The async method whose kickoff call this thread entered last without a
// frame (unrecorded_call): its first MoveNext, called at once by the
// builder's Start, is paired with it by this.
static __thread uint32_t t_unrecorded_kickoff __attribute__((tls_model("initial-exec")));

// A call the hooks keep no frame for (the thread has no slot, or its stack
// is past CLROTEL_MAX_DEPTH; up: the recorded frame it is called under,
// NULL if none) is counted as dropped when a recorded one would have been
// a call, as async_enter decides: an iterator's step that begins an
// enumeration, or a step no kickoff call is known for. A state machine or
// enumerator it begins is marked dropped, so that its later steps, on a
// thread or at a depth where they are recorded, are steps of a dropped
// call (their calls dropped) rather than calls of their own. Returns
// whether the call counts.
__attribute__((noinline, cold)) static int unrecorded_call(clr_fn *fn, uintptr_t elt, int counted, const clr_frame *up) {
    if (counted) {
        t_unrecorded_kickoff = (fn->flags & FN_ASYNC_KICKOFF) ? fn->async_owner : 0;
        return 1;
    }
    if (!(fn->flags & FN_ASYNC_MOVENEXT))
        return 0;
    // A step taken as a plain call (ASYNC_NORMAL) is one, but for the
    // compiler's plumbing (an iterator's constructor), a transparent frame.
    int plain = !(fn->flags & FN_NOT_A_CALL);
    volatile uint64_t *w[ASYNC_WORDS];
    uint16_t exact[FLOW_LAYOUT_FIELDS];
    const uint16_t *off;
    if (async_this(fn, elt, w, exact, &off) == 0)
        return plain;
    uint64_t t0 = *w[0], t1 = *w[1], span = *w[2], check = *w[3];
    if ((t0 | t1 | span) != 0)
        return check != clr_async_check(t0, t1, span) && plain; // a continuation, or a plain call
    if (check != 0)
        return check != ASYNC_UNTRACED && check != ASYNC_DROPPED && check != ASYNC_SHED && check != ASYNC_FOLDED && plain;
    if (fn->flags & FN_ITER_END)
        return 0;
    if (fn->flags & FN_ITER_STEP) {
        *w[3] = ASYNC_DROPPED;
        return 1;
    }
    // The first step, called by its kickoff (or the constructor of an
    // iterator's enumerable, called by its iterator method): marked as
    // async_enter marks it under a kickoff call not recorded.
    int paired = up != NULL ? up->fn != NULL && (up->fn->flags & FN_ASYNC_KICKOFF) && up->fn->async_owner == fn->async_owner
                            : t_unrecorded_kickoff == fn->async_owner;
    t_unrecorded_kickoff = 0;
    if (!paired)
        return plain;
    *w[3] = up != NULL ? kickoff_mark(up->recorded) : ASYNC_DROPPED;
    return 0;
}

void clr_on_enter(clr_fn *fn, uintptr_t elt) {
    clr_park_check();
    // A CoreLib special hooked before Go started, not given its role yet
    // (callbacks.c): it pushes no frame, and its Leave finds none of its
    // own (clr_on_leave ignores it).
    if (__builtin_expect(fn->flags & FN_PENDING, 0))
        return;
    // A state machine's step and a builder's completion are continuations,
    // not calls that make spans; CoreLib's queuing methods, work items'
    // makers and runs and Activity.Stop are hooked for what they carry and
    // make none either: a drop of one is not counted (its calls are), as a
    // recorded one is not.
    int counted = !(fn->flags & (FN_ASYNC_MOVENEXT | FN_ASYNC_COMPLETE | FN_NOT_A_CALL));
    clr_slot *s = slot_get();
    if (s == NULL) {
        if (unrecorded_call(fn, elt, counted, NULL))
            atomic_fetch_add_explicit(&g_no_slot, 1, memory_order_relaxed);
        return;
    }
    // A frame that left by a tail call is replaced by this call, or ends
    // (the tail calls above). The top frame's call is over when this Enter
    // is not below it on the stack: its Leave never came (close_stale).
    if (s->depth > 0 && s->depth <= g_cfg.stack_cap) {
        clr_frame *t = &s->stack[s->depth - 1];
        if (__builtin_expect(tail_waiting(t), 0)) {
            if (t->tail == TAIL_WAITING ? tail_callee(t, fn) : run_callee(t, elt))
                t->tail = TAIL_REPLACED;
            else
                tail_settle(s);
        }
    }
    if (s->depth > 0 && s->depth <= g_cfg.stack_cap && __builtin_expect(elt >= s->stack[s->depth - 1].sp, 0) &&
        s->stack[s->depth - 1].sp != 0 && s->stack[s->depth - 1].tail != TAIL_REPLACED)
        close_stale(s, elt);
    uint32_t d = s->depth++;
    if (d >= g_cfg.stack_cap) {
        if (unrecorded_call(fn, elt, counted, d == g_cfg.stack_cap && d > 0 ? &s->stack[d - 1] : NULL))
            bump(&s->dropped);
        return;
    }
    clr_frame *f = &s->stack[d];
    f->function_id = fn->function_id;
    f->sp = elt;
    f->fn_index = fn->index;
    f->fn = fn;
    f->recorded = FRAME_SKIPPED;
    f->span = 0;
    f->start = 0; // a shed or unsampled frame is timed only when unspanned_frame says so
    f->flow = WORK_NONE;
    f->tick = 0;
    f->tail = TAIL_NONE;
    f->called = 0;
    f->busy_child = 0;
    f->sampled = 0;
    f->iter_judged = 0;
    f->trace_key = d > 0 ? s->stack[d - 1].trace_key : 0;
    if (d > 0 && s->stack[d - 1].called < 2)
        s->stack[d - 1].called++;
    if (__builtin_expect(fn->flags & FN_ACTIVITY_STOP, 0)) {
        f->recorded = FRAME_PASS;
        activity_stopped(s, fn, elt);
        return;
    }
    if (__builtin_expect(fn->flags & FN_QUEUE, 0)) {
        f->recorded = FRAME_PASS;
        clr_queue_point(fn, elt);
        return;
    }
    if (__builtin_expect(fn->flags & (FN_WORK_MAKE | FN_WORK_RUN), 0)) {
        f->recorded = FRAME_PASS;
        work_point(s, f, fn, elt, d);
        return;
    }
    // The frame this call is decided under (a root under a work item's run
    // continues its maker's trace).
    const clr_frame *flow, *run;
    int unsafe_queue = 0;
    d = below_pass(s, d, &flow, &run, &unsafe_queue);
    if (fn->flags & (FN_ASYNC_MOVENEXT | FN_ASYNC_COMPLETE)) {
        volatile uint64_t *w[ASYNC_WORDS];
        int a = async_enter(s, f, fn, elt, d, w);
        if (a == ASYNC_HANDLED)
            return;
        if (__builtin_expect(a == ASYNC_ITER_BEGIN, 0)) {
            iter_begin(s, f, fn, elt, d, flow, run, w);
            return;
        }
    }
    if (__builtin_expect(fn->flags & FN_PLUMBING, 0)) {
        plumbing(s, f, fn, elt, d, flow);
        return;
    }
    enter_call(s, f, fn, elt, d, flow, run, 0);
}

// The call of frame f, at depth d, was a unit of work: its caller has done
// one. When its calls may be requests, and f's was (recorded or shed, not
// folded), f's method is a request's handler there once FN_HANDLER_UNITS
// of its calls were units, never judged as a getter nor unhooked after.
// One or a few are not enough: a getter's first call may run a type
// initializer or fill a field lazily.
enum { FN_HANDLER_UNITS = 8 };
static inline void unit_call(clr_slot *s, const clr_frame *f, uint32_t d) {
    clr_frame *up = &s->stack[d - 1];
    up->busy_child = 1;
    if (!(f->recorded == FRAME_RECORDED || unspanned(f)) || fold_judges(up))
        return;
    uint32_t n = atomic_load_explicit(&f->fn->unit_calls, memory_order_relaxed);
    if (n >= FN_HANDLER_UNITS)
        return;
    atomic_store_explicit(&f->fn->unit_calls, n + 1, memory_order_relaxed);
    if (n + 1 == FN_HANDLER_UNITS && atomic_load_explicit(&f->fn->roots, memory_order_relaxed) == 0)
        atomic_store_explicit(&f->fn->roots, 1, memory_order_relaxed);
}

// When the top frame f's call ended: now, or, for a frame that left by a
// tail call to a method not traced, when it tail-called.
static inline uint64_t frame_end(const clr_frame *f) { return f->tail == TAIL_WAITING ? f->tail_at : now_ns(); }

// Pops the top frame and, if its enter was recorded, writes the exit record
// into the space reserved for it (with the return value when it fits).
static void pop_one(clr_slot *s, uint16_t kind, clr_fn *fn, uintptr_t elt) {
    if (s->depth == 0)
        return;
    uint32_t d = --s->depth;
    if (d >= g_cfg.stack_cap)
        return;
    clr_frame *f = &s->stack[d];
    if (__builtin_expect(f->iter_judged, 0)) {
        f->iter_judged = 0;
        if (kind == REC_LEAVE)
            iter_step_judge(f, now_ns());
    }
    if (d > 0 && is_unit(f))
        unit_call(s, f, d);
    if (f->recorded == FRAME_FOLDED) {
        f->recorded = FRAME_SKIPPED;
        uint64_t ns = f->start ? frame_end(f) - f->start : 0;
        // Calls folded by the span budget count for the rule too, so that
        // their method can fold and lose its hooks (rejit.c).
        if (ns && kind == REC_LEAVE && g_cfg.fold_judge_folded && !(f->fn->flags & FN_NEVER_FOLDED))
            judge_call(&s->stack[f->anc], f, ns);
        clr_fold_account(s, &s->stack[f->anc], f->fn, f->fn_index, f->fold_state == FOLD_NESTED ? 0 : ns);
        return;
    }
    if (unspanned(f)) {
        // Timed by unspanned_frame: judged as a recorded call would be.
        if (f->start != 0 && d > 0 && kind == REC_LEAVE)
            judge_call(&s->stack[d - 1], f, frame_end(f) - f->start);
        return;
    }
    if (f->recorded != FRAME_RECORDED)
        return;
    if (f->unwritten) {
        if (f->fold_state != FOLD_KEPT && f->fold_calls == 0) {
            // Nothing was written under it: neither is it.
            f->recorded = FRAME_SKIPPED;
            s->reserved -= CONTINUATION_SIZE + REC_EXIT_SIZE;
            if (s->unwritten_from == d + 1)
                s->unwritten_from = 0;
            return;
        }
        write_unwritten(s, d + 1); // its exit carries what folded into it
    }
    uint64_t ts = frame_end(f);
    f->recorded = FRAME_SKIPPED;
    if (d > 0 && kind == REC_LEAVE && !(f->fn->flags & FN_ASYNC))
        judge_call(&s->stack[d - 1], f, ts - f->start);
    // The fixed part: the exit, then what was folded into the frame.
    uint32_t base = REC_EXIT_SIZE;
    uint16_t flags = 0;
    if (f->fold_state == FOLD_KEPT) {
        base += REC_FOLD_SIZE;
        flags |= RF_FOLDED;
    }
    else if (f->fold_calls > 0)
        flags |= RF_FOLDED_COUNT;
    if ((d == 0 || f->root) && s->trace_truncated)
        flags |= RF_TRUNCATED;
    if ((d == 0 || f->root) && s->values_limited)
        flags |= RF_VALUES_LIMITED;
    if (f->root) {
        s->trace_spans = f->outer_spans;
        s->trace_truncated = f->outer_truncated;
        s->values_limited = f->outer_limited;
    }
    // Folded methods re-JIT-compiled without hooks: later calls uncounted.
    if ((flags & (RF_FOLDED | RF_FOLDED_COUNT)) && atomic_load_explicit(&clr_rejit_installed_count, memory_order_relaxed))
        flags |= RF_APPROX;
    if (f->fn != NULL && (f->fn->flags & FN_ASYNC_KICKOFF) && !f->async_linked)
        flags |= RF_SYNC_END;
    if (f->queued != 0)
        flags |= RF_QUEUED;
    s->reserved -= base;
    uint32_t keep = s->reserved, size = base;
    uint8_t *p = NULL;
    if (fn != NULL && fn->plan != NULL && g_cfg.value_bytes > 0 && !f->values_off) {
        p = ring_reserve(s, base + g_cfg.value_bytes, keep + base);
        if (p != NULL) {
            uint32_t n = clr_capture_leave(fn->plan, &fn->leave_layout, fn->function_id, elt, p + base, g_cfg.value_bytes);
            size += (n + 7) & ~7u;
            if (n > 0)
                flags |= RF_VALUES;
        } else if (fn->plan->capture_ret) {
            flags |= RF_VALUES_DROPPED;
        }
    }
    if (p == NULL)
        p = ring_reserve(s, base, keep);
    if (p == NULL) {
        // Cannot happen while the reservation holds; count it if it does.
        bump(&s->dropped);
        return;
    }
    uint32_t aux = (flags & RF_FOLDED_COUNT) ? f->fold_calls : 0;
    if (__builtin_expect(fn != NULL && (fn->flags & FN_ITER_STEP), 0) && kind == REC_LEAVE) {
        int r = clr_elt_ret_bool(&g_rt, fn->function_id, elt);
        aux = (aux < EXIT_AUX_COUNT ? aux : EXIT_AUX_COUNT) | (r > 0 ? EXIT_ITER_YIELDED : r == 0 ? EXIT_ITER_DONE : 0);
    }
    clr_put_header(p, size, kind, flags, ts);
    *(uint32_t *)(p + REC_HEADER) = f->fn_index;
    *(uint32_t *)(p + REC_HEADER + 4) = aux;
    if (flags & RF_FOLDED)
        clr_fold_write(f, p + REC_EXIT_SIZE);
    ring_commit(s, size);
    record_timed(s, ts);
}

// Pops the top frame, and the frames it had replaced by tail calls
// (TAIL_REPLACED), which end with it.
static void pop_frame(clr_slot *s, uint16_t kind, clr_fn *fn, uintptr_t elt) {
    pop_one(s, kind, fn, elt);
    while (s->depth > 0 && s->depth <= g_cfg.stack_cap && s->stack[s->depth - 1].tail == TAIL_REPLACED)
        pop_one(s, REC_TAILCALL, NULL, 0);
}

// A hook other than the Enter of a call replacing it: the waiting top
// frame's callee is not traced, and the frame ends where it tail-called.
static void tail_settle(clr_slot *s) {
    if (__builtin_expect(s->depth > 0 && s->depth <= g_cfg.stack_cap && tail_waiting(&s->stack[s->depth - 1]), 0))
        pop_frame(s, REC_TAILCALL, NULL, 0);
}

static _Atomic uint64_t g_no_leave; // frames closed without their Leave
uint64_t clr_no_leave_count(void) { return atomic_load_explicit(&g_no_leave, memory_order_relaxed); }

enum { NO_LEAVE_SEARCH = 64 };

// A Leave whose method is not the top frame's: the frames above its own
// never got their Leave. Stack discipline says they are gone, so they are
// closed (REC_NO_LEAVE) and the method's own frame pops as usual. .NET 11's
// runtime-async methods do this (Enter on each resume, no Leave when they
// suspend: dotnet/runtime#122488); without it every suspension would leave
// a frame behind and shift every later span of the thread. A Leave whose
// method is nowhere near the top is not ours to pop: it is ignored.
__attribute__((noinline, cold)) static int close_without_leave(clr_slot *s, clr_fn *fn) {
    uint32_t top = s->depth - 1, k = top, floor = top > NO_LEAVE_SEARCH ? top - NO_LEAVE_SEARCH : 0;
    while (k > floor && s->stack[k].fn != fn)
        k--;
    if (s->stack[k].fn != fn)
        return 0;
    for (uint32_t n = top - k; n > 0; n--) {
        pop_frame(s, REC_NO_LEAVE, NULL, 0);
        atomic_fetch_add_explicit(&g_no_leave, 1, memory_order_relaxed);
    }
    return 1;
}

// An Enter whose ELT block (sp) is at or above the top frame's on the
// thread's stack: that call is not below the top frame, whose call is
// therefore over, its Leave never sent. .NET 11's runtime-async methods
// do this (no Leave when they suspend): resumed by a pool thread's
// dispatcher, such a frame would otherwise stay on the shadow stack, and
// the thread's later work would nest under it. The frames over are closed
// (REC_NO_LEAVE). A frame of unknown place (sp 0) is never judged.
__attribute__((noinline, cold)) static void close_stale(clr_slot *s, uintptr_t sp) {
    while (s->depth > 0 && s->depth <= g_cfg.stack_cap && s->stack[s->depth - 1].sp != 0 && sp >= s->stack[s->depth - 1].sp) {
        pop_frame(s, REC_NO_LEAVE, NULL, 0);
        atomic_fetch_add_explicit(&g_no_leave, 1, memory_order_relaxed);
    }
}

// Whether fn's frame is (now) the top one, to pop: the frames above it
// are closed first; a frame that is not fn's, with none of fn's near it,
// is not ours to pop (an FN_PENDING call's Enter pushed none).
static inline int top_is(clr_slot *s, clr_fn *fn) {
    uint32_t d = s->depth - 1;
    return !(__builtin_expect(s->depth > 0 && d < g_cfg.stack_cap && s->stack[d].fn != fn, 0) && !close_without_leave(s, fn));
}

void clr_on_leave(clr_fn *fn, uintptr_t elt) {
    clr_park_check();
    clr_slot *s = t_slot;
    if (s == NULL)
        return;
    tail_settle(s);
    if (top_is(s, fn))
        pop_frame(s, REC_LEAVE, fn, elt);
}

void clr_on_tailcall(clr_fn *fn, uintptr_t elt) {
    // The Tailcall hook reports the frame that is leaving by a tail call:
    // it waits for the call replacing it (tail_callee).
    (void)elt;
    clr_park_check();
    clr_slot *s = t_slot;
    if (s == NULL)
        return;
    tail_settle(s);
    if (!top_is(s, fn) || s->depth == 0)
        return;
    if (s->depth <= g_cfg.stack_cap && (fn->flags & FN_WORK_RUN)) {
        clr_frame *f = &s->stack[s->depth - 1];
        if (f->flow != WORK_NONE && (f->callee_words[0] | f->callee_words[1]) != 0) {
            f->tail = TAIL_RUN;
            return;
        }
    }
    if (s->depth > g_cfg.stack_cap || !tail_waits(fn)) {
        pop_frame(s, REC_TAILCALL, NULL, 0);
        return;
    }
    clr_frame *f = &s->stack[s->depth - 1];
    f->tail = TAIL_WAITING;
    f->tail_at = now_ns();
}

// Exception unwinding: the runtime reports each frame it pops with
// ExceptionUnwindFunctionEnter(FunctionID) ... ExceptionUnwindFunctionLeave().
// Only frames that are ours (the top of the shadow stack) are popped; frames
// of untraced code pass through without touching the stack.
void clr_on_unwind_enter(uintptr_t function_id) {
    clr_slot *s = t_slot;
    if (s != NULL) {
        tail_settle(s);
        s->unwinding = function_id;
        s->exc_pending = 0; // the second pass: a catcher was found
    }
}

void clr_on_unwind_leave(void) {
    clr_slot *s = t_slot;
    if (s == NULL)
        return;
    tail_settle(s);
    if (s->depth == 0)
        return;
    uint32_t d = s->depth - 1;
    if (d >= g_cfg.stack_cap || s->stack[d].function_id == s->unwinding)
        pop_frame(s, REC_UNWIND, NULL, 0);
    s->unwinding = 0;
}

// ---- exceptions ----------------------------------------------------------

static _Atomic uint32_t g_exc_msg_off, g_exc_inner_off;

void clr_set_exception_layout(uint32_t message_offset, uint32_t inner_offset) {
    atomic_store(&g_exc_inner_off, inner_offset);
    atomic_store(&g_exc_msg_off, message_offset);
}

// The innermost traced frame, if its enter was recorded.
static clr_frame *top_recorded(clr_slot *s) {
    if (s == NULL || s->depth == 0 || s->depth > g_cfg.stack_cap)
        return NULL;
    clr_frame *f = &s->stack[s->depth - 1];
    if (f->recorded == FRAME_FOLDED)
        f = &s->stack[f->anc]; // a folded call's exception goes to its span
    return f->recorded == FRAME_RECORDED ? f : NULL;
}

// ExceptionThrown: runs on the throwing thread. The record goes to the
// innermost traced span; a throw with no traced frame open is not recorded.
void clr_on_exception_thrown(uintptr_t obj) {
    uint64_t ts = now_ns();
    clr_slot *s = t_slot;
    if (s != NULL) {
        tail_settle(s);
        s->exc_pending = 1;
        s->search_pos = s->depth < g_cfg.stack_cap ? s->depth : g_cfg.stack_cap;
        s->in_filter = 0;
    }
    clr_frame *f = top_recorded(s);
    if (f == NULL || obj == 0)
        return;
    uint32_t budget = g_cfg.value_bytes ? g_cfg.value_bytes : 512;
    uint32_t fixed = REC_HEADER + 8;
    write_pending(s);
    uint8_t *p = ring_reserve(s, fixed + budget, s->reserved + REC_EXIT_SIZE);
    if (p == NULL) {
        atomic_fetch_add_explicit(&g_events_dropped, 1, memory_order_relaxed);
        return;
    }
    uint32_t n = clr_capture_exception(obj, atomic_load(&g_exc_msg_off), atomic_load(&g_exc_inner_off), p + fixed, budget);
    uint32_t size = fixed + ((n + 7) & ~7u);
    clr_put_header(p, size, REC_EXCEPTION, n ? RF_VALUES : 0, ts);
    *(uint32_t *)(p + REC_HEADER) = f->fn_index;
    *(uint32_t *)(p + REC_HEADER + 4) = 0;
    ring_commit(s, size);
}

// The search pass: the runtime visits each managed frame, innermost first,
// looking for a catcher. search_pos counts down the traced frames visited.
void clr_on_search_function_enter(uintptr_t function_id) {
    clr_slot *s = t_slot;
    if (s != NULL && s->exc_pending && s->search_pos > 0 && s->stack[s->search_pos - 1].function_id == function_id)
        s->search_pos--;
}

void clr_on_search_catcher_found(void) {
    clr_slot *s = t_slot;
    if (s != NULL)
        s->exc_pending = 0;
}

void clr_on_search_filter(int enter) {
    clr_slot *s = t_slot;
    if (s == NULL)
        return;
    if (enter)
        s->in_filter++;
    else if (s->in_filter > 0)
        s->in_filter--;
}

int clr_unhandled_suspected(void) {
    clr_slot *s = t_slot;
    return s != NULL && s->exc_pending && s->search_pos == 0 && s->in_filter == 0;
}

// ExceptionCatcherEnter: the frame that catches stays open; if it is ours,
// say so.
void clr_on_exception_catcher(uintptr_t function_id) {
    uint64_t ts = now_ns();
    clr_slot *s = t_slot;
    if (s != NULL) {
        tail_settle(s);
        s->exc_pending = 0;
    }
    clr_frame *f = top_recorded(s);
    if (f == NULL || f->function_id != function_id)
        return;
    write_pending(s);
    uint8_t *p = ring_reserve(s, REC_EXIT_SIZE, s->reserved + REC_EXIT_SIZE);
    if (p == NULL) {
        atomic_fetch_add_explicit(&g_events_dropped, 1, memory_order_relaxed);
        return;
    }
    clr_put_header(p, REC_EXIT_SIZE, REC_CATCH, 0, ts);
    *(uint32_t *)(p + REC_HEADER) = f->fn_index;
    *(uint32_t *)(p + REC_HEADER + 4) = 0;
    ring_commit(s, REC_EXIT_SIZE);
}
