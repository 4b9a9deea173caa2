// ambient.c: the caller's trace context, read from Activity.Current.
//
// Activity.Current is an AsyncLocal<Activity> (Activity.s_current): its value
// lives in Thread.CurrentThread._executionContext.m_localValues, an
// IAsyncLocalValueMap whose implementation classes keep (key, value) pairs
// in fields or in an array. On a root call the Enter hook follows that
// chain with guarded reads (clr_safe_copy: a bad address reads as "not
// joined", never a fault) through the plan Go published (ambient.h).
//
// The one runtime call: the address of this thread's t_currentThread
// ([ThreadStatic]), asked once per thread and cached until the next GC.
// The storage behind it moves (.NET 8 keeps GC thread statics in a managed
// array: after a compacting GC the old address held a plausible but stale
// Thread, seen in TestJoinCallerTrace's "/gc" request), so a GC (counted
// from GarbageCollectionFinished, COR_PRF_HIGH_BASIC_GC) makes each thread
// ask again at its next root: one call per thread per GC, not per root. It
// may also not exist yet (the thread has not touched Thread.CurrentThread):
// every use checks that the object there is a Thread whose
// _DONT_USE_InternalThread is this thread's ThreadID, and asks again
// otherwise, at most once every AMB_RETRY roots (or GC). The hooks run in
// cooperative mode, so no GC moves an object while it is read.
#include <stdatomic.h>
#include <string.h>

#include "ambient.h"
#include "clrapi.h"
#include "profiler.h"
#include "values.h"
#include "eltargs.h"
#include "safecopy.h"

static clr_runtime g_rt;
void clr_ambient_init(const clr_runtime *rt) { g_rt = *rt; }

static _Atomic(const clr_ambient_plan *) g_plan;
static _Atomic uint64_t g_gc_epoch; // GCs finished

// Per thread: where t_currentThread is for this thread, the ThreadID it was
// found for, the plan's thread field it was asked with, and how many roots
// to let pass before asking the runtime again.
static __thread uintptr_t t_ref __attribute__((tls_model("initial-exec")));
static __thread uintptr_t t_native __attribute__((tls_model("initial-exec")));
static __thread uintptr_t t_for_class __attribute__((tls_model("initial-exec")));
static __thread uint32_t t_wait __attribute__((tls_model("initial-exec")));
static __thread uint64_t t_epoch __attribute__((tls_model("initial-exec"))); // g_gc_epoch when t_ref was asked
static __thread uint64_t t_wait_epoch __attribute__((tls_model("initial-exec"))); // and when t_wait was set

enum { AMB_RETRY = 256 };

void clr_ambient_publish(const clr_ambient_plan *p) { atomic_store_explicit(&g_plan, p, memory_order_release); }
void clr_ambient_gc(void) { atomic_fetch_add_explicit(&g_gc_epoch, 1, memory_order_release); }

// The reference in the field at off of obj (0: null, unknown or unreadable).
static inline uintptr_t rd_ref(uintptr_t obj, uint32_t off) {
    uintptr_t v = 0;
    if (obj == 0 || off == 0 || !clr_guarded_read(&v, obj + off, 8))
        return 0;
    return v;
}

// An object's MethodTable, which is its ClassID for every non-array class.
static inline uintptr_t class_of(uintptr_t obj) {
    uintptr_t mt = 0;
    if (!clr_guarded_read(&mt, obj, 8))
        return 0;
    return mt;
}

// Asks the runtime where this thread's t_currentThread is. Runs once per
// thread (and again only when the cached address went stale).
__attribute__((noinline, cold)) static int ambient_thread_slot(const clr_ambient_plan *p) {
    ProfInfoVtbl *v = g_rt.vtbl;
    void *info = g_rt.info;
    ThreadID tid = 0;
    void *addr = NULL;
    if (v == NULL || v->GetCurrentThreadID(info, &tid) < 0 || tid == 0)
        return 0;
    uint64_t epoch = atomic_load_explicit(&g_gc_epoch, memory_order_acquire);
    if (v->GetThreadStaticAddress(info, p->thread_class, p->thread_field, tid, &addr) < 0 || addr == NULL)
        return 0;
    t_epoch = epoch;
    t_ref = (uintptr_t)addr;
    t_native = tid;
    t_for_class = p->thread_class;
    return 1;
}

// This thread's Thread object, if the cached address still holds it.
static inline uintptr_t current_thread(const clr_ambient_plan *p) {
    if (t_ref == 0 || t_for_class != p->thread_class || t_epoch != atomic_load_explicit(&g_gc_epoch, memory_order_acquire))
        return 0;
    uintptr_t th = 0, native = 0;
    if (!clr_guarded_read(&th, t_ref, 8) || th == 0 || class_of(th) != p->thread_class)
        return 0;
    if (!clr_guarded_read(&native, th + p->thread_native_off, 8) || native != t_native)
        return 0;
    return th;
}

// Where a one-dimensional array keeps its length and its elements, learnt
// once per process from the runtime (GetArrayObjectInfo on the first map
// array met): the element data is where the runtime says, and the length is
// the one 4-byte word between the type pointer and the data that holds the
// count it reports (a map array holds at least 4 pairs; the padding is 0).
// Nothing learnt (0): arrays are not read.
// It is asked at most AMB_ARRAY_TRIES times in all.
static _Atomic uint32_t g_arr_len_off, g_arr_data_off, g_arr_tries;
enum { AMB_ARRAY_TRIES = 8 };

__attribute__((noinline, cold)) static int learn_array_layout(uintptr_t arr) {
    if (atomic_fetch_add(&g_arr_tries, 1) >= AMB_ARRAY_TRIES)
        return 0;
    ULONG32 dims[1] = {0};
    int lb[1] = {0};
    BYTE *data = NULL;
    HRESULT hr = clr_guarded_array_object_info(&g_rt, arr, 1, dims, lb, &data);
    if (hr < 0 || data == NULL || (uintptr_t)data <= arr + 8 || (uintptr_t)data - arr > 64 || dims[0] < 2)
        return 0;
    uint32_t data_off = (uint32_t)((uintptr_t)data - arr), len_off = 0, found = 0;
    for (uint32_t off = 8; off + 4 <= data_off; off += 4) {
        uint32_t v = 0;
        if (clr_guarded_read(&v, arr + off, 4) && v == dims[0]) {
            len_off = off;
            found++;
        }
    }
    if (found != 1)
        return 0;
    atomic_store(&g_arr_len_off, len_off);
    atomic_store(&g_arr_data_off, data_off);
    return 1;
}

// The value of key in the map object, or 0.
static uintptr_t map_find(const clr_ambient_plan *p, uintptr_t map, uintptr_t key) {
    uintptr_t mt = class_of(map);
    if (mt == 0)
        return 0;
    for (uint32_t i = 0; i < p->nmaps && i < AMB_MAX_MAPS; i++) {
        const clr_ambient_map *m = &p->maps[i];
        if (m->class_id != mt)
            continue;
        switch (m->kind) {
        case AMB_MAP_INLINE:
            for (uint32_t j = 0; j < m->n && j < AMB_MAX_INLINE; j++)
                if (rd_ref(map, m->key_off[j]) == key)
                    return rd_ref(map, m->val_off[j]);
            return 0;
        case AMB_MAP_ARRAY:
        case AMB_MAP_DICT: {
            uintptr_t arr = rd_ref(map, m->arr_off);
            uint32_t n = 0, len_off = atomic_load_explicit(&g_arr_len_off, memory_order_relaxed),
                     data_off = atomic_load_explicit(&g_arr_data_off, memory_order_relaxed);
            if (arr != 0 && data_off == 0 && learn_array_layout(arr))
                len_off = atomic_load(&g_arr_len_off), data_off = atomic_load(&g_arr_data_off);
            if (arr == 0 || data_off == 0 || !clr_guarded_read(&n, arr + len_off, 4) || m->elem_size == 0)
                return 0;
            uint32_t max = m->kind == AMB_MAP_DICT ? AMB_MAX_DICT : AMB_MAX_ARRAY;
            for (uint32_t j = 0; j < n && j < max; j++) {
                uintptr_t e = arr + data_off + (uintptr_t)j * m->elem_size, k = 0, v = 0;
                if (clr_guarded_read(&k, e + m->elem_key, 8) && k == key)
                    return clr_guarded_read(&v, e + m->elem_val, 8) ? v : 0;
            }
            return 0;
        }
        default:
            return 0;
        }
    }
    // A map class the plan does not know (Go plans every implementation
    // the runtime has when it publishes): not joined.
    return 0;
}

static inline int hexval(uint16_t c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// Parses the string str, exactly 2*n hex digits, into n bytes; 0 if it is
// not that or is all zeros (an invalid W3C id).
static int hex_id(const clr_ambient_plan *p, uintptr_t str, uint8_t *out, uint32_t n) {
    uint32_t len = 0;
    uint16_t ch[32];
    if (str == 0 || n > 16 || !clr_guarded_read(&len, str + p->str_len_off, 4) || len != 2 * n || !clr_guarded_read(ch, str + p->str_buf_off, 2 * (uintptr_t)len))
        return 0;
    uint8_t any = 0;
    for (uint32_t i = 0; i < n; i++) {
        int hi = hexval(ch[2 * i]), lo = hexval(ch[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return 0;
        out[i] = (uint8_t)(hi << 4 | lo);
        any |= out[i];
    }
    return any != 0;
}

// Whether act, or an Activity it descends from in this process, was given
// its parent's id (a caller's context: SetParentId, or a remote parent).
static int has_caller(const clr_ambient_plan *p, uintptr_t act) {
    for (int depth = 0; act != 0 && depth < 16; depth++) {
        if (rd_ref(act, p->parent_id_off) != 0 || rd_ref(act, p->parent_span_off) != 0)
            return 1;
        act = rd_ref(act, p->parent_off);
    }
    return 0;
}

// What the last ExecutionContext read on this thread yielded. An
// ExecutionContext is immutable (a new one replaces it on every change of an
// AsyncLocal), and between two GCs no other object can take its address:
// the same address in the same GC epoch is the same context, with the same
// Activity.Current. The Activity's ids are fixed once it has started; its
// flags are read when it is first seen.
#define AMB_TLS __attribute__((tls_model("initial-exec")))
static __thread uintptr_t t_th AMB_TLS;
static __thread uintptr_t t_ec AMB_TLS;
static __thread uint64_t t_ec_epoch __attribute__((tls_model("initial-exec")));
static __thread const clr_ambient_plan *t_ec_plan __attribute__((tls_model("initial-exec")));
static __thread int t_ec_joined __attribute__((tls_model("initial-exec")));
static __thread uint8_t t_trace[16] AMB_TLS;
static __thread uint8_t t_span[8] AMB_TLS;
static __thread uint8_t t_flags AMB_TLS;

// Follows Thread._executionContext.m_localValues[Activity.s_current] and
// reads the Activity's ids into the cache above; 1 if joined.
static int read_context(const clr_ambient_plan *p, uintptr_t ec) {
    uintptr_t map = rd_ref(ec, p->ec_locals_off), key = 0;
    if (map == 0 || !clr_guarded_read(&key, p->current_static, 8) || key == 0)
        return 0;
    uintptr_t act = map_find(p, map, key);
    if (act == 0 || class_of(act) != p->activity_class)
        return 0;
    uint8_t fl = 0;
    if (!hex_id(p, rd_ref(act, p->trace_id_off), t_trace, 16) || !hex_id(p, rd_ref(act, p->span_id_off), t_span, 8))
        return 0;
    if (p->flags_off != 0 && !clr_guarded_read(&fl, act + p->flags_off, 1))
        fl = 0;
    fl &= 1; // .NET 5+ keeps "flags set" in the top bit
    t_flags = fl | (fl || has_caller(p, act) ? AMB_DECIDED : 0);
    return 1;
}

// This thread's Thread object (0: not known yet, or not now).
static uintptr_t this_thread(const clr_ambient_plan *p, uint64_t epoch) {
    uintptr_t th = 0;
    // The Thread validated since the last GC is still the one there: no
    // need to check it again.
    if (t_th != 0 && t_epoch == epoch && t_for_class == p->thread_class && clr_guarded_read(&th, t_ref, 8) && th == t_th)
        return th;
    th = current_thread(p);
    if (th == 0) {
        // Waiting since a failed ask: until AMB_RETRY roots passed, or a
        // GC (after which the answer may differ).
        if (t_wait > 0 && t_wait_epoch == epoch) {
            t_wait--;
            return 0;
        }
        if (!ambient_thread_slot(p) || (th = current_thread(p)) == 0) {
            t_wait = AMB_RETRY;
            t_wait_epoch = epoch;
            t_th = 0;
            return 0;
        }
    }
    t_th = th;
    return th;
}

int clr_ambient_flow_suppressed(void) {
    const clr_ambient_plan *p = atomic_load_explicit(&g_plan, memory_order_acquire);
    if (p == NULL || p->ec_suppressed_off == 0)
        return 0;
    uintptr_t th = this_thread(p, atomic_load_explicit(&g_gc_epoch, memory_order_acquire));
    uintptr_t ec = th == 0 ? 0 : rd_ref(th, p->thread_ec_off);
    uint8_t b = 0;
    return ec != 0 && clr_guarded_read(&b, ec + p->ec_suppressed_off, 1) && b != 0;
}

int clr_ambient_parent(clr_slot *s, uint8_t trace[16], uint8_t span[8], uint8_t *flags) {
    (void)s;
    const clr_ambient_plan *p = atomic_load_explicit(&g_plan, memory_order_acquire);
    if (p == NULL || p->activity_class == 0)
        return 0;
    uint64_t epoch = atomic_load_explicit(&g_gc_epoch, memory_order_acquire);
    uintptr_t th = this_thread(p, epoch);
    if (th == 0)
        return 0;
    uintptr_t ec = rd_ref(th, p->thread_ec_off);
    if (ec == 0)
        return 0;
    if (ec != t_ec || t_ec_epoch != epoch || t_ec_plan != p) {
        t_ec = ec;
        t_ec_epoch = epoch;
        t_ec_plan = p;
        t_ec_joined = read_context(p, ec);
    }
    if (!t_ec_joined)
        return 0;
    memcpy(trace, t_trace, 16);
    memcpy(span, t_span, 8);
    *flags = t_flags;
    return 1;
}

// ---- Activity.Stop -------------------------------------------------------

// Writes str (at most max UTF-16 units) as u16 count (0xFFFF: null), u16
// pad, the units padded to 4 bytes.
static uint8_t *put_str(const clr_ambient_plan *p, uint8_t *w, uintptr_t str, uint32_t max) {
    uint32_t len = 0;
    uint16_t n = 0xFFFF;
    if (str != 0 && clr_guarded_read(&len, str + p->str_len_off, 4)) {
        n = (uint16_t)(len < max ? len : max);
        if (n > 0 && !clr_guarded_read(w + 4, str + p->str_buf_off, 2 * (uintptr_t)n))
            n = 0xFFFF;
    }
    memcpy(w, &n, 2);
    memset(w + 2, 0, 2);
    uint32_t bytes = n == 0xFFFF ? 0 : 2 * (uint32_t)n;
    return w + 4 + ((bytes + 3) & ~3u);
}

uint32_t clr_ambient_stop(uintptr_t fid, uintptr_t elt, uint8_t *buf, uint32_t len) {
    const clr_ambient_plan *p = atomic_load_explicit(&g_plan, memory_order_acquire);
    if (p == NULL || p->activity_class == 0 || len < AMB_STOP_MAX)
        return 0;
    uintptr_t act = g_rt.vtbl != NULL ? clr_elt_this(&g_rt, fid, elt) : 0;
    if (act == 0 || class_of(act) != p->activity_class)
        return 0;
    uint64_t start = 0;
    if (p->start_off != 0 && !clr_guarded_read(&start, act + p->start_off, 8))
        start = 0;
    uint8_t fl = 0;
    if (p->flags_off != 0 && !clr_guarded_read(&fl, act + p->flags_off, 1))
        fl = 0;
    memset(buf, 0, 16);
    memcpy(buf, &start, 8);
    buf[8] = fl;
    buf[9] = p->source_off != 0 && p->source_name_off != 0;
    buf[10] = (uint8_t)has_caller(p, act);
    uint8_t *w = buf + 16;
    w = put_str(p, w, rd_ref(act, p->trace_id_off), 32);
    w = put_str(p, w, rd_ref(act, p->span_id_off), 16);
    w = put_str(p, w, rd_ref(act, p->parent_span_off), 16);
    w = put_str(p, w, rd_ref(act, p->parent_id_off), 64);
    w = put_str(p, w, rd_ref(act, p->name_off), 128);
    w = put_str(p, w, rd_ref(rd_ref(act, p->source_off), p->source_name_off), 64);
    w = put_str(p, w, rd_ref(rd_ref(act, p->parent_off), p->span_id_off), 16);
    return (uint32_t)(w - buf);
}

// For Go, on a runtime thread (the JIT's): the address of a static field in
// the current AppDomain (CORPROF_E_DATAINCOMPLETE until its class is
// initialised).
int clr_ambient_static(uintptr_t cls, uint32_t field, uintptr_t *addr) {
    ProfInfoVtbl *v = g_rt.vtbl;
    void *info = g_rt.info;
    ThreadID tid = 0;
    AppDomainID ad = 0;
    void *a = NULL;
    HRESULT hr = v->GetCurrentThreadID(info, &tid);
    if (hr >= 0)
        hr = v->GetThreadAppDomain(info, tid, &ad);
    if (hr >= 0)
        hr = v->GetAppDomainStaticAddress(info, cls, field, ad, &a);
    if (hr < 0)
        return (int)hr;
    *addr = (uintptr_t)a;
    return a == NULL ? -1 : 0;
}
