// ambient.h: reading the caller's trace context (System.Diagnostics.Activity
// .Current) from the Enter hook, through layouts Go finds at run time.
//
// Go (profiler/ambient.go, decisions in package ambient) builds a plan from
// GetClassLayout and field names, and publishes it with one pointer store;
// a plan is immutable once published and never freed (a few are made per
// process). Nothing here is a hard-coded offset: an offset of 0 means "not
// known", and whatever is missing reads as "not joined".
#ifndef CLROTEL_AMBIENT_H
#define CLROTEL_AMBIENT_H

#include <stdint.h>

#include "capture.h"

// How an IAsyncLocalValueMap implementation keeps its pairs.
enum {
    AMB_MAP_EMPTY = 0,  // no pairs
    AMB_MAP_INLINE = 1, // n (key, value) reference fields in the object
    AMB_MAP_ARRAY = 2,  // a KeyValuePair<IAsyncLocal, object>[] field
    AMB_MAP_DICT = 3,   // a Dictionary<IAsyncLocal, object>: its Entry[] field
};
// AMB_MAX_DICT: the entries scanned of a Dictionary map (its capacity, a
// prime: 239 holds 200-odd AsyncLocals); a key past it is not found.
enum { AMB_MAX_INLINE = 4, AMB_MAX_MAPS = 8, AMB_MAX_ARRAY = 16, AMB_MAX_DICT = 256 };

typedef struct clr_ambient_map {
    uintptr_t class_id;
    uint32_t kind, n;
    uint32_t key_off[AMB_MAX_INLINE], val_off[AMB_MAX_INLINE];
    // AMB_MAP_ARRAY, AMB_MAP_DICT: the array field, an element's size and
    // where its key and value are in it.
    uint32_t arr_off, elem_size, elem_key, elem_val;
} clr_ambient_map;

typedef struct clr_ambient_plan {
    // Thread.t_currentThread ([ThreadStatic]): its class and field token,
    // and in Thread, _executionContext and _DONT_USE_InternalThread (the
    // runtime's Thread*, which is the profiler's ThreadID: it proves that a
    // cached thread-static address still holds this thread's object).
    uintptr_t thread_class;
    uint32_t thread_field;
    uint32_t thread_ec_off, thread_native_off;
    uint32_t ec_locals_off; // ExecutionContext.m_localValues
    uint32_t ec_suppressed_off; // ExecutionContext.m_isFlowSuppressed (queue.c)
    // Activity.s_current: the AsyncLocal<Activity> that keys the map.
    // The static's address (stable: statics live in pinned storage); the
    // object in it is read on every use.
    uintptr_t current_static;
    uintptr_t activity_class;
    uint32_t trace_id_off, span_id_off, flags_off; // _traceId, _spanId (strings), _w3CIdFlags
    // For the stop record: _parentSpanId, _parentId, the operation name,
    // StartTimeUtc (a DateTime), Source and ActivitySource's name, Parent
    // (the Activity it was started under, in this process) (0: none).
    uint32_t parent_span_off, parent_id_off, name_off, start_off, source_off, source_name_off, parent_off;
    uint32_t str_len_off, str_buf_off;       // String (GetStringLayout2)
    uint32_t nmaps;
    clr_ambient_map maps[AMB_MAX_MAPS];
} clr_ambient_plan;

struct clr_runtime;
// The runtime asked for thread statics, array layout and Activity.Stop's
// `this` (Initialize).
void clr_ambient_init(const struct clr_runtime *rt);
// Go publishes a plan (the previous one is never freed: see above).
void clr_ambient_publish(const clr_ambient_plan *p);
int clr_ambient_static(uintptr_t cls, uint32_t field, uintptr_t *addr);
// GarbageCollectionFinished (COR_PRF_HIGH_BASIC_GC): cached thread-static
// addresses are asked again.
void clr_ambient_gc(void);

// For the Enter hook, on a root: when Activity.Current is set on this
// thread and has W3C ids, writes its trace id (16 bytes, as on the wire),
// its span id (8 bytes) and flags, and returns 1; else 0. No lock, no
// allocation, no system call: guarded reads of the objects, and once per
// thread and GC the runtime's address of this thread's t_currentThread.
// flags: AMB_SAMPLED, the Activity's W3C sampled flag (Recorded); and
// AMB_DECIDED when that flag is a decision to honour: the Activity (or one
// it descends from in this process) has a caller's context (a parent id),
// or something recorded it. A local root Activity that nothing sampled
// (`new Activity(name).Start()` with no listener) has Recorded false by
// default, which decides nothing: the sampler decides as for a root.
enum { AMB_SAMPLED = 1, AMB_DECIDED = 0x80 };
int clr_ambient_parent(clr_slot *s, uint8_t trace[16], uint8_t span[8], uint8_t *flags);

// Whether ExecutionContext.SuppressFlow() is in force on this thread (its
// ExecutionContext's m_isFlowSuppressed); 0 when that cannot be read. The
// plan may hold only the thread's part (activity_class 0) until the app
// loads System.Diagnostics.DiagnosticSource.
int clr_ambient_flow_suppressed(void);

// For the Enter hook of Activity.Stop (FN_ACTIVITY_STOP): writes what the
// REC_ACTIVITY record carries about the Activity being stopped into buf (at
// most len bytes) and returns the bytes written (0: nothing to report).
// Layout (capture/record.go DecodeActivity): u64 StartTimeUtc (DateTime
// bits), u8 w3c flags, u8 has a source, u8 has a caller (as AMB_DECIDED
// tells it), 5 pad; then seven strings, each u16
// chars (0xFFFF: null), u16 pad, chars padded to 4 bytes: trace id, span
// id, parent span id, parent id, operation name, source name, and the span
// id of the Parent Activity.
uint32_t clr_ambient_stop(uintptr_t function_id, uintptr_t elt, uint8_t *buf, uint32_t len);
enum { AMB_STOP_MAX = 16 + 7 * 8 + 2 * (32 + 16 + 16 + 64 + 128 + 64 + 16) };

#endif
