// gcevents.c: where collections move objects, read from the runtime's own
// GC events, for the work items workitems.c keys by address.
//
// Why: COR_PRF_HIGH_MONITOR_GC_MOVED_OBJECTS makes the runtime walk the
// survivors of every collection, but since .NET 6 (the multi-profiler
// change, dotnet/runtime PR 53122) it hands the walk's MovedReferences2 and
// SurvivingReferences2 only to a profiler whose low mask has
// COR_PRF_MONITOR_GC, which would turn background GC off for good and walk
// the whole heap at every blocking collection. The same walk also writes
// the GCHeapSurvivalAndMovement events of Microsoft-Windows-DotNETRuntime
// (GCBulkMovedObjectRanges on compacting collections,
// GCBulkSurvivingObjectRanges on sweeping and background ones); an
// EventPipe session the profiler starts itself (ICorProfilerInfo12,
// .NET 5+) is synchronous: the runtime calls EventPipeEventDelivered on the
// thread that writes the event, inside the walk, between
// GarbageCollectionStarted and GarbageCollectionFinished. This file owns
// that session and reads those two events into the same calls the
// profiling callbacks make (clr_work_gc_moved, clr_work_gc_survived), which
// are idempotent, so a runtime that delivers both (.NET Core 3.1 has no
// session; .NET 5 has both) moves nothing twice.
//
// What it must not do: the events arrive on a GC thread with the runtime
// suspended (or, for a background collection, in its sweep): no managed
// call, no runtime call, no allocation, no logging; only parse bounds-checked
// and hand the ranges on. Starting the session allocates, takes the
// runtime's locks and runs managed code (see below): never from a hook or
// a callback that can run inside a collection. A session that does not
// start leaves the old behaviour (items a collection does not report are
// forgotten, counted) and is said in the exit log, not on the hot path.
//
// When: enabling Microsoft-Windows-DotNETRuntime also enables the managed
// EventSource of that name (NativeRuntimeEventSource), which builds its
// event descriptors by reflection: about 10 ms of a hello world's 40 ms
// start-up on .NET 8, and 13 ms of wall, 17 of CPU, for one that runs a
// Task when it started with the first maker (measured). So the session
// starts when a collection first forgets a pending item for want of
// reports (callbacks.c cb_gc_finished): a program none of whose items ever
// waits through a collection never pays for it. It starts on a thread of
// its own, nobody waiting for it: the managed code the enabling runs must
// not run in a GC callback, a JIT callback or on one of Go's threads (it
// would make it a managed thread). Items a collection moves before it is
// up (some 20 ms) are forgotten, and counted.
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>

#include "gcevents.h"
#include "workitems.h"

// GCHeapSurvivalAndMovementKeyword, and the level of both events
// (win:Informational).
enum { KEYWORD_SURVIVAL_AND_MOVEMENT = 0x400000, LEVEL_INFORMATIONAL = 4 };

// Both payloads start with UINT32 Index, UINT32 Count, UINT16 ClrInstanceID,
// then Count values, packed (the runtime's EventStruct*Value structs are
// #pragma pack(1), and EventPipe writes fields back to back): {UINT64
// RangeBase, UINT64 RangeLength} for surviving ranges, {UINT64 OldRangeBase,
// UINT64 NewRangeBase, UINT64 RangeLength} for moved ones. Unaligned: read
// with memcpy.
enum { HEADER = 10, SURVIVING_SIZE = 16, MOVED_SIZE = 24 };

// Ranges handed on per call (on the GC thread's stack).
enum { BATCH = 128 };

static _Atomic int g_state; // 0 not started, 1 running, -1 could not start
static _Atomic int g_spawned;
static _Atomic uint64_t g_events, g_malformed;
static void *g_info;
static ProfInfoVtbl *g_vt;
static uint32_t g_mask_high;

uint32_t clr_gcevents_mask_high(uint32_t mask_high, uint32_t info_version) {
    if ((mask_high & COR_PRF_HIGH_MONITOR_GC_MOVED_OBJECTS) && info_version >= 12)
        return COR_PRF_HIGH_MONITOR_EVENT_PIPE;
    return 0;
}

void clr_gcevents_init(void *info, ProfInfoVtbl *vt, uint32_t mask_high) {
    g_info = info;
    g_vt = vt;
    g_mask_high = mask_high;
    atomic_store(&g_state, 0);
    atomic_store(&g_spawned, 0);
}

int clr_gcevents_start(void) {
    if (!(g_mask_high & COR_PRF_HIGH_MONITOR_EVENT_PIPE) || g_vt == NULL)
        return -1;
    // WCHAR is 16-bit in the runtime's PAL: a UTF-16 literal.
    static const WCHAR provider[] = {'M', 'i', 'c', 'r', 'o', 's', 'o', 'f', 't', '-', 'W', 'i', 'n', 'd', 'o', 'w',
                                     's', '-', 'D', 'o', 't', 'N', 'E', 'T', 'R', 'u', 'n', 't', 'i', 'm', 'e', 0};
    COR_PRF_EVENTPIPE_PROVIDER_CONFIG cfg = {
        .providerName = provider,
        .keywords = KEYWORD_SURVIVAL_AND_MOVEMENT,
        .loggingLevel = LEVEL_INFORMATIONAL,
        .filterData = NULL,
    };
    EVENTPIPE_SESSION session = 0;
    HRESULT hr = g_vt->EventPipeStartSession != NULL ? g_vt->EventPipeStartSession(g_info, 1, &cfg, 0, &session) : -1;
    atomic_store(&g_state, hr >= 0 ? 1 : -1);
    return hr >= 0 ? 0 : -1;
}

static void *starter(void *arg) {
    (void)arg;
    // Created from a thread with the runtime's activation signal blocked
    // (a Go call): this one may become a managed thread, which the
    // runtime must be able to interrupt.
    sigset_t none;
    sigemptyset(&none);
    pthread_sigmask(SIG_SETMASK, &none, NULL);
    clr_gcevents_start();
    return NULL;
}

void clr_gcevents_start_later(void) {
    if (atomic_load_explicit(&g_state, memory_order_acquire) != 0 || !(g_mask_high & COR_PRF_HIGH_MONITOR_EVENT_PIPE))
        return;
    if (!atomic_exchange(&g_spawned, 1)) {
        pthread_attr_t attr;
        pthread_t t;
        int rc = pthread_attr_init(&attr);
        if (rc == 0) {
            pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
            rc = pthread_create(&t, &attr, starter, NULL);
            pthread_attr_destroy(&attr);
        }
        if (rc != 0) {
            atomic_store(&g_state, -1);
            return;
        }
    }
}

static uint32_t rd32(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static uint64_t rd64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

void clr_gcevents_delivered(uint32_t event_id, uint32_t cb, const uint8_t *data) {
    if (event_id != GCEV_SURVIVING_RANGES && event_id != GCEV_MOVED_RANGES)
        return;
    uint64_t size = event_id == GCEV_MOVED_RANGES ? MOVED_SIZE : SURVIVING_SIZE;
    // The payload must be exactly the header and Count values: anything
    // else is a layout this file does not know, and is not guessed at.
    if (data == NULL || cb < HEADER || (uint64_t)cb != HEADER + (uint64_t)rd32(data + 4) * size) {
        atomic_fetch_add_explicit(&g_malformed, 1, memory_order_relaxed);
        return;
    }
    atomic_fetch_add_explicit(&g_events, 1, memory_order_relaxed);
    uint32_t count = rd32(data + 4);
    const uint8_t *v = data + HEADER;
    ObjectID from[BATCH], to[BATCH];
    SIZE_T len[BATCH];
    for (uint32_t done = 0; done < count;) {
        uint32_t n = count - done < BATCH ? count - done : BATCH;
        for (uint32_t i = 0; i < n; i++, v += size) {
            from[i] = (ObjectID)rd64(v);
            if (event_id == GCEV_MOVED_RANGES) {
                to[i] = (ObjectID)rd64(v + 8);
                len[i] = (SIZE_T)rd64(v + 16);
            } else {
                len[i] = (SIZE_T)rd64(v + 8);
            }
        }
        if (event_id == GCEV_MOVED_RANGES)
            clr_work_gc_moved(n, from, to, len);
        else
            clr_work_gc_survived(n, from, len);
        done += n;
    }
}

void clr_gcevents_counts(int *state, uint64_t *events, uint64_t *malformed) {
    *state = atomic_load(&g_state);
    *events = atomic_load_explicit(&g_events, memory_order_relaxed);
    *malformed = atomic_load_explicit(&g_malformed, memory_order_relaxed);
}
