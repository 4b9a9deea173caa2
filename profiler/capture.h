// capture.h: what the C hooks share with the Go drainer.
//
// The record layout must match capture/record.go (profiler/internal/ccapture
// compares every kind, flag and size, and reads back what the C writes
// through package capture). Everything here is written
// by C on CLR threads without locks or allocation; Go reads it from its own
// threads through the atomics below.
#ifndef CLROTEL_CAPTURE_H
#define CLROTEL_CAPTURE_H

#include <stdint.h>
#include <stdatomic.h>

#include "arglayout.h"
#include "sample.h"

enum {
    REC_PAD = 1, REC_ENTER = 2, REC_LEAVE = 3, REC_TAILCALL = 4,
    REC_UNWIND = 5, REC_EXCEPTION = 6, REC_CATCH = 7,
    // A frame whose Leave never came: another frame below it left
    // (hooks.c clr_on_leave; .NET 11's runtime-async methods suspend so).
    REC_NO_LEAVE = 8,
    // The innermost recorded frame began serving (serving.h): its span,
    // and every open span it descends from, are exported now, still
    // running, since the calls under it from here on are traces of their
    // own. The fixed part is an exit record's.
    REC_SERVING = 9,
    REC_ACTIVITY = 16, // an Activity was stopped (ambient.h clr_ambient_stop)
};
// RF_VALUES_DROPPED: the method's values were to be recorded, but the ring
// had no room for them; the call is recorded without.
// RF_FOLDED (exit records): calls folded into the frame follow the fixed
// part (REC_FOLD_SIZE bytes: u32 calls, u32 entries in the top list, u64
// ns, then FOLD_TOP {u32 function index, u32 calls, u64 ns}), before any
// value. RF_FOLDED_COUNT: calls were folded into the frame while the ring
// had no room for that part: their count is the fixed part's second word.
// RF_TRUNCATED (a root's exit record): its trace reached the span budget,
// and later calls were folded into their parents.
// RF_SPANID (enter records): the span's id follows the trace id part,
// chosen at random by the hook: an async method's (its resumes name it).
// Any other span's id is
// clr_span_id(slot's span_salt, position of its enter record), known to the
// hook without writing it (work items made under the span name it).
// RF_RESUME (enter records): not a span of its own, but a continuation of
// the span whose trace id (16 bytes) and span id (8) follow the fixed
// part: the calls under it are that span's children (async.c).
// RF_ASYNC_END (with RF_RESUME): that span's task completes here; the values
// are the builder's SetResult/SetException arguments.
enum { RF_ROOT = 1, RF_GENERIC = 2, RF_VALUES = 4, RF_VALUES_DROPPED = 8, RF_FOLDED = 16, RF_TRUNCATED = 32, RF_FOLDED_COUNT = 64,
       RF_SPANID = 256, RF_RESUME = 512, RF_ASYNC_END = 1024, RF_SYNC_END = 4096 };
// RF_SYNC_END (an async method's exit record): no state machine carried
// its span (one the profiler could not pair, as shared generic code): the
// span ends with the call, as any other.
// RF_PARENT (a root's enter record): the trace joins Activity.Current's; the
// parent span id (8 bytes) follows the trace id (and the span id, with
// RF_SPANID).
enum { RF_PARENT = 128 };
// RF_LINK (a root's enter record): work queued with the flow suppressed
// (queue.c); a span link to the span that made it follows (trace id, 16
// bytes; span id, 8), after RF_PARENT's part.
enum { RF_LINK = 8192 };
// RF_UNIT (a root's enter record): the trace is a unit of work's (serving.h),
// whose outermost frame never serves. Enter records never carry RF_FOLDED,
// an exit record's flag, so the two share a bit.
enum { RF_UNIT = RF_FOLDED };
// RF_QUEUED (exit records): the frame made work that runs elsewhere in its
// trace (a work item, a closure whose lambdas join its span). A call the
// outermost frame made before it served, with such work under it, keeps
// its trace (otelbridge firstcalls.go). Shares RF_LINK's bit, which only
// enter records carry.
enum { RF_QUEUED = RF_LINK };
enum { REC_HEADER = 16, REC_EXIT_SIZE = 24, MAX_TYPE_ARGS = 8 };
enum { FOLD_TOP = 3, REC_FOLD_SIZE = 16 + 16 * FOLD_TOP };

// Every record but a pad begins with this header (REC_HEADER bytes): u32
// size, u16 kind, u16 flags, u64 unix-nanosecond time. A pad record has
// only its size and kind.
static inline void clr_put_header(uint8_t *p, uint32_t size, uint16_t kind, uint16_t flags, uint64_t ts) {
    *(uint32_t *)p = size;
    *(uint16_t *)(p + 4) = kind;
    *(uint16_t *)(p + 6) = flags;
    *(uint64_t *)(p + 8) = ts;
}

// Per-function flags, decided by Go once per function at JIT time.
enum {
    FN_SELECTED = 1,       // hooks are on
    FN_SHARED_GENERIC = 2, // shared (canonical) code: read exact types from frame info
    FN_FOLDED = 4,         // set later by the hooks (fold.c): calls under a span fold into it
    FN_FOLD_EXEMPT = 8,    // never folded (CLROTEL_FOLD_EXEMPT)
    // Async methods (async.c): a method with AsyncStateMachineAttribute
    // whose state machine has the profiler's fields; that state machine's
    // MoveNext; a task builder's SetResult/SetException. None is ever
    // folded.
    FN_ASYNC_KICKOFF = 16,
    FN_ASYNC_MOVENEXT = 32,
    FN_ASYNC_COMPLETE = 64,
    FN_ASYNC = FN_ASYNC_KICKOFF | FN_ASYNC_MOVENEXT | FN_ASYNC_COMPLETE,
    // Closures (async.c): a closure class's constructor (no span of its
    // own: FN_PLUMBING), which gives the closure the span it is made
    // under, for its lambdas to link to; one of its methods, which run as
    // a new root (queued work on another thread) joins that span's trace.
    // Never folded.
    FN_CLOSURE_CTOR = 128,
    FN_CLOSURE_BODY = 256,
    FN_LINKED = FN_ASYNC | FN_CLOSURE_CTOR | FN_CLOSURE_BODY,
    FN_ACTIVITY_STOP = 1 << 16, // System.Diagnostics.Activity.Stop: no span, a REC_ACTIVITY record (a high bit: clear of new flags)
    // A CoreLib method that queues work (Task.Run, QueueUserWorkItem...:
    // queue.c): no span; a closure queued through it with the caller's
    // flow suppressed starts a trace of its own, linked. FN_QUEUE_UNSAFE:
    // the method never flows the context (UnsafeQueueUserWorkItem).
    FN_QUEUE = 1 << 17,
    FN_QUEUE_UNSAFE = 1 << 18,
    // With FN_QUEUE: its callbacks are arguments 0 and 1, references in the
    // first two integer registers, no hidden argument ahead of them (Go
    // read its signature: flows.Queue.Registers), read as the runtime's
    // stub saved them.
    FN_QUEUE_REGISTERS = 1 << 9,
    // With FN_ASYNC_MOVENEXT: an iterator's Dispose, which ends the span of
    // the iterator method whose enumeration it ends (hooks.c async_enter).
    FN_ITER_END = 1 << 19,
    // CoreLib's work items (workitems.c): the method that makes one and the
    // one that runs it, `this` being the item; no span. FN_WORK_REPEAT: the
    // item runs more than once (a timer's).
    FN_WORK_MAKE = 1 << 20,
    FN_WORK_RUN = 1 << 21,
    FN_WORK_REPEAT = 1 << 22,
    // Never hooked, but refused its ReadyToRun code: JIT-compiled, so that
    // the JIT asks before inlining a hooked method into it (workitems.c:
    // .NET Core 3.1's Thread.Start, whose ReadyToRun code inlines the
    // thread's maker).
    FN_COMPILE = 1 << 23,
    // A CoreLib special (a work item's maker or run, a queuing method, a
    // builder's completion) hooked before Go started: its hooks do nothing
    // until Go, at its start, gives it its role (callbacks.c), or for good
    // if Go finds it has none. A process in which nothing is selected
    // never starts Go for them.
    FN_PENDING = 1 << 24,
    // An entry method (CLROTEL_ENTRY): each call begins a trace of its
    // own, linked to the span it was called under. Never folded.
    FN_ENTRY = 1 << 25,
    // With FN_WORK_RUN: a thread's start, whose run is the thread's whole
    // life, not one unit of work (serving.h).
    FN_WORK_THREAD = 1 << 26,
    // With FN_ASYNC_MOVENEXT: an async state machine that has the serving
    // fields (async.h ASYNC_FIELD_BORN, ASYNC_FIELD_RESUMES).
    FN_ASYNC_LOOP = 1 << 27,
    // The compiler's plumbing (naming.Plumbing: a constructor of a
    // compiler-generated nested type): no span, a transparent frame. With
    // FN_CLOSURE_CTOR it still gives the closure the span it is made
    // under, for its lambdas.
    FN_PLUMBING = 1 << 28,
    // With FN_ASYNC_MOVENEXT: an iterator's MoveNext, whose exit record
    // says what it returned (EXIT_ITER_*).
    FN_ITER_STEP = 1 << 29,
    // With FN_WORK_MAKE: an item made without a delegate never runs
    // (workitems.h, promise-style tasks) and is not recorded.
    FN_WORK_PROMISE = 1 << 30,
};
// The exit record's second word, of an iterator's MoveNext: the top bits
// say it returned true (an element yielded) or false (the enumeration is
// over); the rest is RF_FOLDED_COUNT's count.
#define EXIT_ITER_YIELDED (1u << 31)
#define EXIT_ITER_DONE (1u << 30)
#define EXIT_AUX_COUNT (EXIT_ITER_DONE - 1)
// Folded and asked to be re-JIT-compiled without hooks (rejit.c): its new
// code's calls reach no hook, so folded counts stop at that point.
enum { FN_REJIT = 0x1000, FN_UNHOOKED = 0x2000 }; // FN_UNHOOKED: its new code is installed
// Folded with its iterator (set by Go with FN_FOLDED once the iterator's
// MoveNext folded: hooks.c iter_step_judge): an iterator method or a
// method of its enumerator other than Dispose, whose role otherwise keeps
// its hooks. It may be re-JIT-compiled without.
enum { FN_ITER_FOLDED = 1 << 14 };
// With FN_ASYNC_MOVENEXT: an iterator's enumerator's constructor, called by
// its iterator method (a state machine's first step is its MoveNext).
enum { FN_ITER_START = 1 << 15 };
// Methods the rule never folds, nor re-JIT-compiles (their hooks do more
// than count): async and closure roles, Activity.Stop.
// Hooked for what they carry, never a span nor a counted call.
#define FN_NOT_A_CALL (FN_ACTIVITY_STOP | FN_QUEUE | FN_WORK_MAKE | FN_WORK_RUN | FN_PLUMBING)
#define FN_NEVER_FOLDED (FN_LINKED | FN_NOT_A_CALL | FN_ENTRY)
// RF_APPROX (exit records of spans with folded calls): some folded method
// was re-JIT-compiled without hooks before the span ended, so its later
// calls are not in the span's counts.
enum { RF_APPROX = 2048 };
// RF_VALUES_LIMITED (a root's exit record): spans of its trace past
// max_value_spans were recorded without their values.
enum { RF_VALUES_LIMITED = 16384 };
// RF_VALUES_OMITTED (enter records): this span is past its trace's value
// budget: recorded without values, by design (not for lack of room).
enum { RF_VALUES_OMITTED = 32768 };
// How many new code versions without hooks the runtime installed (rejit.c).
extern _Atomic uint64_t clr_rejit_installed_count;

// clr_fn is what FunctionIDMapper2 hands the runtime as client ID: the hooks
// receive it instead of the FunctionID. Allocated once per selected function,
// never freed (the library cannot be unloaded anyway).
struct clr_fn_plan;

enum { TAIL_CALLEES = 4 }; // flows.MaxTailCallees

typedef struct clr_fn {
    uintptr_t function_id;
    uint32_t index; // the function's index in Go's table
    uint32_t flags;
    const struct clr_fn_plan *plan; // values to capture; NULL: none
    // Traces rooted here, when the published strategy block predates this
    // function (index >= its n): resolved by Go from the same configuration.
    clr_method_sampling sampling;
    // Calls folded into a parent span, and the time of the outermost ones
    // (fold.c; any thread adds, Go reads the totals at exit).
    _Atomic uint64_t folded_calls;
    _Atomic uint64_t folded_ns;
    // The folding rule's counts of recorded calls: all, and those that took
    // fold_max_ns or more. Plain loads and stores from any thread: a count
    // lost to a race only delays the verdict.
    _Atomic uint32_t stat_calls;
    _Atomic uint32_t stat_slow;
    // Its calls that make no span of their own (in shed traces, or folded
    // under a folded frame), the same plain loads and stores: each is
    // timed for the rule until stat_calls reaches fold_min_calls, then 1
    // in UNSPANNED_TIMED of them (hooks.c, unspanned_timed).
    _Atomic uint32_t unspanned_seen;
    // FN_ASYNC_MOVENEXT, FN_CLOSURE_*: where the added fields are from
    // `this` (async.h: ASYNC_FIELDS, CLOSURE_FIELDS).
    // Kickoff and MoveNext: the TypeDef that declares the kickoff method
    // (the state machine's enclosing type), to pair them.
    uint16_t flow_off[6];
    // FN_QUEUE: which arguments (bit i: the i-th, `this` first) are
    // callbacks (delegates) whose target may be a closure.
    uint16_t queue_args;
    uint32_t async_owner;
    // Set once a call of it began a trace (sampled or not) at the start of
    // work, or once it is a request's handler (unit_calls): such a method
    // is never re-JIT-compiled without hooks (rejit.c), or its root spans
    // would go. A serving frame's other calls are getters the fold rule
    // may judge.
    _Atomic uint32_t roots;
    // Its calls that were units of work where calls may be requests, up to
    // FN_HANDLER_UNITS (hooks.c unit_call).
    _Atomic uint32_t unit_calls;
    // The trace_key of the frame its last call to end was made under
    // (hooks.c judge_call; plain loads and stores from any thread).
    _Atomic uint64_t judged_trace;
    uint32_t scan_mark; // rejit.c's thread only: seen on a shadow stack in its last scan
    // FN_ASYNC_MOVENEXT of shared generic code: its added fields are found
    // per call, in the frame's exact class (flowlayout.h), not at
    // flow_off. NULL for every other function.
    struct clr_flow_layout *flow_layout;
    // Its definition (module and MethodDef, as a key), and those of the
    // methods of its module it calls in tail position (flows.TailCallees;
    // 0 past the last): a frame that leaves by a tail call waits for the
    // Enter of one of them, its callee (hooks.c, tail_callee).
    uint64_t def_key;
    uint64_t tail_keys[TAIL_CALLEES];
    // Where its arguments and its return value are, learned from the
    // runtime's answers (eltargs.h): the value reader's calls stop asking
    // once enough agreed.
    clr_arg_layout enter_layout, leave_layout;
} clr_fn;

// Registers a hooked function by its definition (def_key), for the tail
// calls of others (hooks.c): called by Go once its block is filled.
void clr_def_put(clr_fn *fn);

// What became of a traced frame's enter.
enum {
    FRAME_SKIPPED = 0,  // not recorded, nor judged: in no trace (a popped frame)
    FRAME_RECORDED = 1, // an enter record was written: its exit must be too
    FRAME_DROPPED = 2,  // not recorded for lack of room: it and every call
                        // under it count as dropped
    FRAME_FOLDED = 3,   // no span: counted into the nearest recorded frame
    // A framework method hooked for what it tells (queue.c's queuing
    // methods, Activity.Stop, a builder call outside a state machine's
    // step): no span, and transparent: what it calls (a continuation run
    // inline, a listener) is decided as if called by the frame below it.
    FRAME_PASS = 4,
    // Its trace was shed at the root under load (shed.h): it and every
    // call under it count as shed.
    FRAME_SHED = 5,
    // Its trace was not sampled (or was rate-limited): no record, nothing
    // counted but its root.
    FRAME_UNSAMPLED = 6,
    // A shed or unsampled frame keeps what the serving rule reads (born,
    // children, queued, level, unit, serving), as a recorded one does:
    // whether a call or work under a thread's outermost frame begins a
    // trace of its own must not depend on whether that frame's own trace
    // is exported. Its calls are judged by the fold rule as recorded ones
    // would be. FRAME_SKIPPED is left for frames of no trace at all.
};

// The calls folded into a recorded frame (fold.c).
typedef struct clr_fold_entry {
    uint32_t fn_index;
    uint32_t calls;
    uint64_t ns;
} clr_fold_entry;

typedef struct clr_frame {
    uintptr_t function_id;
    // Where its Enter's ELT block is on the thread's stack (0: unknown): a
    // later Enter at or above it is not its callee, so it is over
    // (hooks.c close_stale).
    uintptr_t sp;
    uint32_t fn_index;
    uint32_t recorded; // a FRAME_* state
    // Left by a tail call (hooks.c, clr_on_tailcall): TAIL_WAITING for the
    // thread's next hook (TAIL_RUN, a work item's run: for its callback's
    // Enter), TAIL_REPLACED while the call that took its place runs.
    // Beside sp: every Enter reads both.
    uint32_t tail;
    struct clr_fn *fn;
    // FRAME_FOLDED: the recorded frame it counts into, and when it began
    // (0 for a folded call under another folded call: only counted).
    uint32_t anc;
    uint32_t fold_state; // FRAME_RECORDED: FOLD_NONE, or FOLD_KEPT once ring room is kept for its fold part
    uint64_t start;      // FRAME_RECORDED too: its enter time
    // FRAME_RECORDED: its trace, and for an async method's span (or a
    // continuation of one) that span's id.
    uint64_t trace[2];
    uint64_t span;
    // An async method's frame: its state machine took its identity (the
    // first MoveNext was a continuation of it). If not, its span ends
    // with the call (RF_SYNC_END).
    uint32_t async_linked;
    // FRAME_PASS of a work item's run (FN_WORK_RUN): how its maker's trace
    // goes on (a WORK_* of workitems.h), that trace in trace, the maker's
    // span in span. The first call under it that starts a root continues
    // that trace.
    uint32_t flow;
    // FRAME_PASS of a work item's run that took its maker's trace: the
    // words its callback is called with, 0 when unknown (workitems.h
    // RUN_*): its delegate's target, its argument.
    uintptr_t callee_words[2];
    // FRAME_RECORDED: entered past the trace's value budget: no return
    // value is read either.
    uint32_t values_off;
    // FRAME_RECORDED: what was folded into it.
    uint32_t fold_calls;
    uint32_t fold_ntop;
    uint64_t fold_ns;
    clr_fold_entry fold_top[FOLD_TOP];
    // FRAME_RECORDED, for the serving rule (serving.h): when its span
    // began (a continuation's: when its async method was called); the
    // calls made directly under it (a continuation starts from its async
    // method's resumes) and the work items and closures made under it;
    // its level, 0 for the outermost recorded frame of its thread.
    // FRAME_PASS of a work item's run: born and unit are its maker's
    // (workitems.h clr_work_ctx).
    uint64_t born;
    uint32_t children;
    uint32_t queued;
    uint16_t level;
    uint8_t unit;    // in a unit of work's trace (a request): never serving
    uint8_t serving; // SERVE_*: what under it begins traces of its own
    // It began a trace (RF_ROOT), or would have if its trace were not
    // shed (FRAME_SHED): ROOT_* (hooks.c, fold_judges). Recorded, the
    // thread's span budget counters of the trace below it, given back when
    // it ends.
    uint8_t root;
    uint8_t outer_truncated, outer_limited;
    // FRAME_PASS of a work item's run: a periodic timer's tick (each is a
    // unit of work of its own).
    uint8_t tick;
    // Any frame: the hooked calls made directly under it (0, 1, 2 for two
    // or more), and whether one of them was a unit of work (hooks.c,
    // is_unit, unit_call, judge_call).
    uint8_t called, busy_child;
    // Timed for the fold rule as one of UNSPANNED_TIMED calls that make
    // no span (hooks.c, unspanned_timed): judged as that many.
    uint8_t sampled;
    // An iterator's step (FN_ITER_STEP) timed for the fold rule, which
    // judges the iterator by its steps at its Leave (hooks.c
    // iter_step_judge). Any other frame: 0.
    uint8_t iter_judged;
    // Any frame: which trace it is in, for the fold rule to tell a
    // method called again in one trace from one called once in each
    // (hooks.c, judge_call): a recorded frame's trace id's first word, a
    // shed root's the id it would have had, else its caller's.
    uint64_t trace_key;
    // FRAME_RECORDED, a serving async loop's resume: its enter record is
    // not written yet, and is only if something under it is (hooks.c,
    // write_unwritten); ring room for it is kept meanwhile.
    uint8_t unwritten;
    // When it left by a tail call (hooks.c, clr_on_tailcall); see tail.
    uint64_t tail_at;
    uint32_t outer_spans;
} clr_frame;

// TAIL_RUN: a work item's run (FN_WORK_RUN) that jumped to its callback,
// waiting for the callback's Enter (hooks.c, run_callee).
enum { TAIL_NONE = 0, TAIL_WAITING = 1, TAIL_REPLACED = 2, TAIL_RUN = 3 };

// What begins traces of its own under a frame (serving.h): its calls and
// its work (it serves), or its work only.
enum { SERVE_CALLS = 1, SERVE_WORK = 2 };

// How a frame began its trace: at the start of work (a thread's, a work
// item's, a queued closure's, an entry joined to a caller's Activity),
// whose calls are the work's handlers; or as a call a serving frame made,
// itself the request's handler (serving.h).
enum { ROOT_NONE = 0, ROOT_CALL = 1, ROOT_WORK = 2 };

enum { FOLD_NONE = 0, FOLD_KEPT = 1, FOLD_NESTED = 2 }; // FOLD_NESTED: a folded frame under a folded call, timed only for the rule

enum { SLOT_FREE = 0, SLOT_LIVE = 1, SLOT_DEAD = 2 };

// One CLR thread's capture state. The ring part is shared with Go; the rest
// belongs to the thread that owns the slot.
typedef struct clr_slot {
    _Atomic uint64_t head; // producer position in bytes
    char pad0[56];
    _Atomic uint64_t tail; // consumer position in bytes
    char pad1[56];
    _Atomic uint32_t state;
    uint32_t os_tid;
    // Counters written by the owner thread only (a plain load and store, no
    // locked instruction) and read by Go.
    _Atomic uint64_t dropped;      // enter records not written (ring full, depth cap)
    _Atomic uint64_t unsampled;    // roots the sampler said no to
    _Atomic uint64_t rate_limited; // roots the rate limit refused
    _Atomic uint64_t folded;       // calls folded into a recorded span
    _Atomic uint64_t shed_traces;  // roots shed under load (shed.h)
    _Atomic uint64_t shed_calls;   // calls of shed traces, their roots included
    // The time this thread spent recording the calls of admitted traces,
    // sampled (hooks.c, record_timed): their span work on the app's side,
    // which the CPU budget counts with the drainer's (shedding).
    _Atomic uint64_t record_ns;
    uint32_t record_n; // recorded enters and exits so far, for the sampling
    // Odd while this thread decides on a root with a strategy block it
    // loaded: Go frees a replaced block once every odd count it saw moved.
    _Atomic uint64_t decision_seq;
    uint8_t *data;             // ring memory, ring_size bytes (ring.h)
    // ring.h, the owner thread only: the pad that took the producer back
    // to the start early (its position and size; size 0: none unread),
    // and whether the producer has jumped into its space.
    uint64_t wrap_pos;
    uint64_t wrap_len;
    uint32_t wrap_jumped;
    clr_frame *stack;          // shadow stack, stack_cap frames
    uint32_t depth;            // traced frames open (may exceed stack_cap)
    uint32_t reserved;         // ring bytes kept for the exit records of the recorded frames open
    uint32_t unwritten_from;   // 1 + the lowest frame whose enter record waits (clr_frame.unwritten); 0: none
    uint32_t trace_spans;      // spans recorded in the thread's current trace
    uint32_t trace_truncated;  // that trace reached the span budget
    uint32_t values_limited;   // spans of that trace went without values (max_value_spans)
    uintptr_t unwinding;       // FunctionID given by ExceptionUnwindFunctionEnter
    uint64_t rng[2];           // xorshift128+ state for trace ids
    // Chosen when the slot is taken, read by Go: a span whose id the hook
    // does not write (RF_SPANID) has clr_span_id(span_salt, the position of
    // its enter record in the ring), which both sides compute.
    _Atomic uint64_t span_salt;
    // The search pass of the exception in flight (unhandled-exception
    // detection): thrown and no catcher found yet; traced frames left to
    // search; inside a filter.
    uint32_t exc_pending;
    uint32_t search_pos;
    uint32_t in_filter;
} clr_slot;

// splitmix64's finalizer: a bijection, so distinct positions give distinct
// ids within a slot's life; the salt keeps slots and processes apart.
// capture.SpanID is the same function.
static inline uint64_t clr_span_id(uint64_t salt, uint64_t pos) {
    uint64_t z = (salt ^ pos) + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return z != 0 ? z : 1;
}

typedef struct clr_capture_config {
    uint32_t max_threads;
    uint32_t ring_size;  // capacity, a power of two: resident part and burst space (ring.h)
    uint32_t ring_soft;  // the resident part: the first ring_soft bytes (at most ring_size)
    uint32_t stack_cap;  // frames per thread
    uint32_t value_bytes; // value stream bytes per record (0: no values)
    uint32_t max_trace_spans; // spans per trace before the rest fold (0: no limit)
    uint32_t max_value_spans; // spans per trace that carry values; later ones do not (0: no limit)
    uint32_t fold_min_calls;  // folding rule (0: off): this many recorded calls,
    uint64_t fold_max_ns;     // and at most 1 in 100 of them this long or longer
    uint32_t fold_judge_folded; // the rule judges folded calls too (span budget), for re-JIT (rejit.c)
    uint64_t serving_after_ns;  // serving rule (serving.h; 0: off): a frame open this long serves,
    uint32_t serving_children;  // as does one with this many calls or work items under it (0: off)
} clr_capture_config;

// Strategy blocks (strategy.c). Go builds a block, publishes it (the
// previous one is returned), and frees the previous one after
// clr_strategy_barrier once no thread is deciding with it.
int clr_strategy_init(void);
int clr_strategy_init_mode(int use_membarrier);
clr_strategy *clr_strategy_alloc(uint32_t n);
clr_strategy *clr_strategy_publish(clr_strategy *next);
void clr_strategy_barrier(void);
void clr_strategy_free(clr_strategy *st);
const clr_strategy *clr_strategy_current(void);
uint64_t clr_slot_decision_seq(uint32_t i);
void clr_strategy_set_method(clr_strategy *st, uint32_t i, uint64_t bound, int64_t lb_interval, int64_t lb_tolerance);
void clr_strategy_set_limits(clr_strategy *st, uint64_t generation, int64_t limit_interval, int64_t limit_tolerance,
                             int64_t rate_interval, int64_t rate_tolerance);
void clr_strategy_set_parent_based(clr_strategy *st, int on);
void clr_fn_set_sampling(clr_fn *fn, uint64_t bound, int64_t lb_interval, int64_t lb_tolerance);
// For the hook: the block in force, and whether a reader must fence
// (membarrier(2) unavailable, so the publisher cannot fence for it).
extern _Atomic(clr_strategy *) clr_strategy_ptr;
extern int clr_strategy_reader_fence;
uint64_t clr_unsampled_roots(void);
uint64_t clr_rate_limited_roots(void);
uint64_t clr_shed_traces(void);
uint64_t clr_shed_calls(void);
uint64_t clr_record_ns(void);

// For Go: the slot table and its high-water mark.
clr_slot *clr_slots(void);
uint32_t clr_slot_count(void);
uint32_t clr_ring_size(void);
uint32_t clr_ring_soft(void);
uint32_t clr_stack_cap(void);
// Go calls this after draining a dead slot, to hand it back for reuse.
void clr_slot_release(clr_slot *s);

// Hook bodies (called by the assembly trampolines) and exception bookkeeping.
void clr_on_enter(clr_fn *fn, uintptr_t elt_info);
void clr_on_leave(clr_fn *fn, uintptr_t elt_info);
// Records that are not calls (exception, catch, Activity.Stop) lost for
// want of room in the ring.
uint64_t clr_events_dropped(void);
// Frames closed because a frame below them left first (REC_NO_LEAVE).
uint64_t clr_no_leave_count(void);
void clr_on_tailcall(clr_fn *fn, uintptr_t elt_info);
void clr_on_unwind_enter(uintptr_t function_id);
void clr_on_unwind_leave(void);
void clr_on_exception_thrown(uintptr_t object_id);
void clr_on_exception_catcher(uintptr_t function_id);
// System.Exception's _message and _innerException offsets (Go sets them).
void clr_set_exception_layout(uint32_t message_offset, uint32_t inner_offset);

void clr_on_search_function_enter(uintptr_t function_id);
void clr_on_search_catcher_found(void);
void clr_on_search_filter(int enter);
// The calling thread's exception has been searched past every traced frame
// and nothing catches it so far: the process is likely about to abort.
int clr_unhandled_suspected(void);

// Counters for Go's periodic report.
uint64_t clr_dropped_no_slot(void);
uint64_t clr_folded_calls(void);

// Folding (fold.c). Go marks a function folded; the hooks then count its
// calls under a recorded span into that span instead of recording them.
void clr_fn_fold(clr_fn *fn);
// Folds fn with its iterator (FN_ITER_FOLDED, then as clr_fn_fold): Go,
// when the iterator's MoveNext folded (hooks.c iter_step_judge).
void clr_fn_fold_with_iterator(clr_fn *fn);
// Exempts fn from folding (FN_FOLD_EXEMPT): Go, for the functions of an
// iterator one of which is exempt (folding.Groups).
void clr_fn_exempt(clr_fn *fn);
// The log of methods folded (fold.c): how many have folded, and the i-th's
// index + 1 (0: not stored yet, or past FOLD_LOG_CAP). Reset is for tests.
enum { FOLD_LOG_CAP = 1 << 16 };
uint32_t clr_folds(void);
uint32_t clr_fold_logged(uint32_t i);
void clr_fold_log_reset(void);
// Gives a placeholder (FN_PENDING, callbacks.c) the role Go decided (src),
// or none (src NULL: it stays idle).
void clr_fn_adopt(clr_fn *ph, const clr_fn *src);
// A recorded, non-root call of fn took ns: the folding rule's verdict, once.
// weight: how many calls it stands for (1, or UNSPANNED_TIMED for a call
// timed as one of that many, hooks.c). Package folding holds the Go
// reference of the rule's parts (Rule.Judge, Counts.Slow, BudgetFolds,
// Rule.ReJITs; profiler/internal/cfold).
void clr_fold_judge(const clr_capture_config *cfg, clr_fn *fn, uint64_t ns, uint32_t weight);
// Whether fn is not known to be fast: no recorded call yet, or most of its
// recorded calls took fold_max_ns or more. Past a trace's span budget such
// a method's calls keep their spans (its first call, to learn which it is).
static inline int clr_fold_slow(const clr_fn *fn) {
    uint32_t calls = atomic_load_explicit(&fn->stat_calls, memory_order_relaxed);
    uint32_t slow = atomic_load_explicit(&fn->stat_slow, memory_order_relaxed);
    return calls == 0 || 2 * (uint64_t)slow >= calls;
}
// Whether a call past its trace's first spans folds by the span budget:
// past nine tenths of the budget only the calls of a method not known to
// be fast keep their spans (clr_fold_slow), in the tenth kept for them; at
// the budget every call folds, so that a trace never holds more.
static inline int clr_budget_folds(uint32_t budget, uint32_t spans, const clr_fn *fn) {
    return budget != 0 && (spans >= budget || (spans >= budget - budget / 10 && !clr_fold_slow(fn)));
}
// Whether a folded method may be re-JIT-compiled without hooks (rejit.c):
// not one whose hooks do more than count its calls, nor one a call of
// which began a trace (its root calls are spans).
static inline int clr_rejit_wanted(const clr_fn *fn) {
    return atomic_load_explicit(&fn->roots, memory_order_relaxed) == 0 &&
           (!(fn->flags & FN_NEVER_FOLDED) || (fn->flags & FN_ITER_FOLDED));
}
uint64_t clr_fn_folded_calls(const clr_fn *fn);
uint64_t clr_fn_folded_ns(const clr_fn *fn);
// A folded call ended: counted into anc (the recorded frame it folds
// into); ns is its duration when it was the outermost folded call, else 0.
void clr_fold_account(clr_slot *s, clr_frame *anc, clr_fn *fn, uint32_t fn_index, uint64_t ns);
// Writes anc's folded calls (REC_FOLD_SIZE bytes) at p.
void clr_fold_write(const clr_frame *anc, uint8_t *p);
// At exit, for the frames still open (no exit record will come): the
// folded calls and time of each recorded frame of s, outermost first, at
// most cap; returns how many recorded frames are open.
uint32_t clr_slot_open_folds(const clr_slot *s, uint32_t stack_cap, uint32_t *calls, uint64_t *ns, uint32_t cap);
// At exit: folded calls still running on any thread (each counts as folded
// into the span it was folding into).
uint64_t clr_open_folded_calls(const clr_slot *slots, uint32_t nslots, uint32_t stack_cap);

#endif
