// workitems.h: work queued through CoreLib, followed by the object that
// carries it (workitems.c).
#ifndef CLROTEL_WORKITEMS_H
#define CLROTEL_WORKITEMS_H

#include <stdint.h>

#include "clrapi.h"

// CoreLib's work-item classes and their methods: the one that makes an item
// (`this` is the new item) and the one that runs it (`this` is the item).
// async.c registers them at CoreLib's load; a class is registered only
// when both are found, so a runtime without one of them is left alone.
enum { WORK_MAKE = 1, WORK_RUN = 2, WORK_RUN_REPEAT = 3 }; // REPEAT: a timer's item runs on every tick
typedef struct clr_work_api {
    const char *ns, *type;
    const char *make, *run;
    int repeat;
    // A method of the same namespace (type, name) whose ReadyToRun code
    // inlines the maker: compiled instead (FN_COMPILE), so that the JIT,
    // asked (JITInlining), keeps the hooked maker a call. NULL: none.
    const char *inliner_type, *inliner;
    // The maker's argument 1 is the item's delegate, which a promise-style
    // item has none of (below).
    int promise;
} clr_work_api;
extern const clr_work_api clr_work_apis[]; // ends with a NULL type

// A run that ends by calling its callback may be compiled, once optimized,
// to jump to it (a tail call): the runtime reports the run leaving before
// the callback's Enter. The words the callback is called with tell that
// Enter from any other (hooks.c, run_callee): its delegate's target and the
// object argument it is given. Go writes where the run finds them in
// clr_fn.flow_off (flows.WorkRunCallee): RUN_VIA, a field of the item
// holding the object that has the other two (0: the item itself);
// RUN_DELEGATE, the delegate's field; RUN_ARG, the argument's field (0:
// none); RUN_TARGET, Delegate._target's offset; RUN_PARAM, 1 when the
// run's own argument 1 is the callback's argument. No RUN_DELEGATE: the
// run does not wait for its callback.
enum { RUN_VIA = 0, RUN_DELEGATE = 1, RUN_ARG = 2, RUN_TARGET = 3, RUN_PARAM = 4 };

// Promise-style tasks: the delegate of Task's maker, TaskConstructorCore(
// Delegate action, object state, ...), its argument 1 (`this` is 0, read
// by eltargs.h clr_elt_arg1_word), is null for a promise-style task
// (a TaskCompletionSource's, FromAsync's, Task.Delay's), which completes
// without ever running through ExecuteWithThreadLocal. Such an item is not
// recorded: nothing would take it back, and until a collection forgot it,
// it would lengthen every probe of the table (an HttpListener's
// GetContextAsync makes one per request).

// The period's argument of a repeating item's maker (`this` is 0): the
// runtime's TimerQueueTimer(TimerCallback, object, uint dueTime, uint
// period, bool) on .NET Core 3.1 and .NET 8 alike.
enum { TIMER_PERIOD_ARG = 4 };

// How a work item's run continues its maker's trace.
// WORK_SHED: made under a trace shed under load (shed.h): its work is
// that trace's, shed too. WORK_SERVED: made by a serving frame whose own
// trace is not exported (shed or unsampled): its work begins a trace of
// its own, with no span to link to.
enum { WORK_NONE = 0, WORK_JOIN = 1, WORK_LINK = 2, WORK_UNSAMPLED = 3, WORK_SHED = 4, WORK_SERVED = 5 };

typedef struct clr_work_ctx {
    uint64_t trace[2]; // WORK_JOIN, WORK_LINK: the maker's trace and span
    uint64_t span;
    uint64_t made; // unix ns
    uint64_t unit;     // made in a unit of work's trace (serving.h): its run stays in it
    uint64_t periodic; // a timer with a period: each run is a tick
    uint64_t runs;     // clr_work_take of a repeating item: its runs before this one
} clr_work_ctx;

// The hooks (no lock, no allocation, no syscall): an item was made under
// ctx, as `how`; an item starts running: how its maker's trace goes on
// (removed from the table unless repeat).
void clr_work_made(uintptr_t item, int how, const clr_work_ctx *ctx);
int clr_work_take(uintptr_t item, int repeat, uint64_t now, clr_work_ctx *ctx);
// Whether any item may be waiting (a run need not look for its item if not).
int clr_work_any(void);

// The GC callbacks (COR_PRF_HIGH_BASIC_GC, COR_PRF_HIGH_MONITOR_GC_MOVED_OBJECTS);
// moved and surviving ranges also come from the GC's own events (gcevents.c).
// ranges: the heap's generations as the collection starts
// (GetGenerationBounds), n of them; an item in a generation it does not
// collect stays where it is, unreported, and is kept.
void clr_work_gc_started(int ngen, const BOOL *collected, const COR_PRF_GC_GENERATION_RANGE *ranges, uint32_t nranges);
void clr_work_gc_moved(ULONG n, const ObjectID *old_start, const ObjectID *new_start, const SIZE_T *len);
void clr_work_gc_survived(ULONG n, const ObjectID *start, const SIZE_T *len);
void clr_work_gc_moved32(ULONG n, const ObjectID *old_start, const ObjectID *new_start, const ULONG *len);
// Returns how many pending items this collection forgot (no report).
uint64_t clr_work_gc_finished(void);

// Counters for the exit log: items recorded, runs that continued a trace,
// items lost (table full, or a collection did not report them alive).
void clr_work_counts(uint64_t *made, uint64_t *joined, uint64_t *full, uint64_t *lost_gc);
// Collections followed, and object ranges they reported.
void clr_work_gc_counts(uint64_t *gcs, uint64_t *ranges);

#endif
