package ccapture

/*
#include <stdlib.h>
#include <string.h>
#include "capture.h"
#include "ring.h"

// A record header at p, as the hooks write one.
static void put_header(uint8_t *p, uint32_t size, uint16_t kind, uint16_t flags, uint64_t ts) {
    clr_put_header(p, size, kind, flags, ts);
}

// An exit record at p with what was folded into its frame, as pop_frame
// writes one: the fixed part, then the fold part (fold.c). top holds ntop
// entries of three words: function index, calls, ns.
static void put_fold_exit(uint8_t *p, uint32_t fn, uint32_t calls, uint64_t ns, uint32_t ntop, const uint64_t *top) {
    clr_frame f;
    memset(&f, 0, sizeof f);
    f.fold_calls = calls;
    f.fold_ns = ns;
    f.fold_ntop = ntop;
    for (uint32_t i = 0; i < ntop && i < FOLD_TOP; i++) {
        f.fold_top[i].fn_index = (uint32_t)top[3 * i];
        f.fold_top[i].calls = (uint32_t)top[3 * i + 1];
        f.fold_top[i].ns = top[3 * i + 2];
    }
    clr_put_header(p, REC_EXIT_SIZE + REC_FOLD_SIZE, REC_LEAVE, RF_FOLDED, 1);
    *(uint32_t *)(p + REC_HEADER) = fn;
    *(uint32_t *)(p + REC_HEADER + 4) = 0;
    clr_fold_write(&f, p + REC_EXIT_SIZE);
}

static uint64_t span_id(uint64_t salt, uint64_t pos) { return clr_span_id(salt, pos); }

// A ring of cap bytes whose first soft are resident (ring.h).
static clr_slot *ring_new(uint64_t cap) {
    clr_slot *s = calloc(1, sizeof *s);
    s->data = calloc(1, cap);
    return s;
}

static void ring_free(clr_slot *s) {
    free(s->data);
    free(s);
}

// Writes an enter record of size bytes, its time seq and every payload
// byte seq's low byte, as the hooks reserve and commit one. Returns the
// record's offset, or -1 when the ring had no room.
static int64_t ring_put(clr_slot *s, uint64_t cap, uint64_t soft, uint32_t size, uint32_t keep, uint64_t seq) {
    uint8_t *p = clr_ring_reserve(s, cap, soft, size, keep);
    if (p == NULL)
        return -1;
    clr_put_header(p, size, REC_ENTER, 0, seq);
    memset(p + REC_HEADER, (int)(seq & 0xff), size - REC_HEADER);
    clr_ring_commit(s, size);
    return p - s->data;
}

static uint64_t ring_used(clr_slot *s) { return clr_ring_used(s); }
static uint64_t *ring_head(clr_slot *s) { return (uint64_t *)&s->head; }
static uint64_t *ring_tail(clr_slot *s) { return (uint64_t *)&s->tail; }
static uint8_t *ring_data(clr_slot *s) { return s->data; }
*/
import "C"

import (
	"unsafe"
)

// Ring is ring.h's producer over C memory, for tests.
type Ring struct {
	s         *C.clr_slot
	cap, soft uint64
}

// NewRing allocates a ring of capacity cap whose resident part is its
// first soft bytes.
func NewRing(cap, soft uint64) *Ring { return &Ring{C.ring_new(C.uint64_t(cap)), cap, soft} }

// Free releases its memory.
func (r *Ring) Free() { C.ring_free(r.s) }

// Put writes a record of size bytes as the hooks do, keeping keep bytes
// free; its time is seq and its payload bytes seq's low byte. It returns
// the record's offset, or -1 when there was no room.
func (r *Ring) Put(size, keep uint32, seq uint64) int64 {
	return int64(C.ring_put(r.s, C.uint64_t(r.cap), C.uint64_t(r.soft), C.uint32_t(size), C.uint32_t(keep), C.uint64_t(seq)))
}

// Used is what the hooks take the ring to hold (ring.h clr_ring_used).
func (r *Ring) Used() uint64 { return uint64(C.ring_used(r.s)) }

// Head, Tail and Data are the ring's positions and memory, for a
// consumer.
func (r *Ring) Head() *uint64 { return (*uint64)(unsafe.Pointer(C.ring_head(r.s))) }
func (r *Ring) Tail() *uint64 { return (*uint64)(unsafe.Pointer(C.ring_tail(r.s))) }
func (r *Ring) Data() []byte  { return unsafe.Slice((*byte)(unsafe.Pointer(C.ring_data(r.s))), r.cap) }

// Constant is one number capture.h defines for the record format.
type Constant struct {
	Name  string
	Value uint64
}

// Kinds are capture.h's record kinds (REC_*, but for the sizes).
var Kinds = []Constant{
	{"REC_PAD", C.REC_PAD},
	{"REC_ENTER", C.REC_ENTER},
	{"REC_LEAVE", C.REC_LEAVE},
	{"REC_TAILCALL", C.REC_TAILCALL},
	{"REC_UNWIND", C.REC_UNWIND},
	{"REC_EXCEPTION", C.REC_EXCEPTION},
	{"REC_CATCH", C.REC_CATCH},
	{"REC_NO_LEAVE", C.REC_NO_LEAVE},
	{"REC_SERVING", C.REC_SERVING},
	{"REC_ACTIVITY", C.REC_ACTIVITY},
}

// Flags are capture.h's record flags (RF_*).
var Flags = []Constant{
	{"RF_ROOT", C.RF_ROOT},
	{"RF_GENERIC", C.RF_GENERIC},
	{"RF_VALUES", C.RF_VALUES},
	{"RF_VALUES_DROPPED", C.RF_VALUES_DROPPED},
	{"RF_FOLDED", C.RF_FOLDED},
	{"RF_TRUNCATED", C.RF_TRUNCATED},
	{"RF_FOLDED_COUNT", C.RF_FOLDED_COUNT},
	{"RF_PARENT", C.RF_PARENT},
	{"RF_SPANID", C.RF_SPANID},
	{"RF_RESUME", C.RF_RESUME},
	{"RF_ASYNC_END", C.RF_ASYNC_END},
	{"RF_APPROX", C.RF_APPROX},
	{"RF_SYNC_END", C.RF_SYNC_END},
	{"RF_LINK", C.RF_LINK},
	{"RF_VALUES_LIMITED", C.RF_VALUES_LIMITED},
	{"RF_VALUES_OMITTED", C.RF_VALUES_OMITTED},
}

// SharedFlags are capture.h's flags that reuse another's bit, on records
// of a kind that never carries the other (RF_UNIT: enter records only;
// RF_FOLDED: exit records only; RF_QUEUED: exit records only; RF_LINK:
// enter records only).
var SharedFlags = []Constant{
	{"RF_UNIT", C.RF_UNIT},
	{"RF_QUEUED", C.RF_QUEUED},
}

// FnFlags are capture.h's function flags (FN_*), which package selection
// decides.
var FnFlags = []Constant{
	{"FN_SELECTED", C.FN_SELECTED},
	{"FN_SHARED_GENERIC", C.FN_SHARED_GENERIC},
	{"FN_FOLDED", C.FN_FOLDED},
	{"FN_FOLD_EXEMPT", C.FN_FOLD_EXEMPT},
	{"FN_ASYNC_KICKOFF", C.FN_ASYNC_KICKOFF},
	{"FN_ASYNC_MOVENEXT", C.FN_ASYNC_MOVENEXT},
	{"FN_ASYNC_COMPLETE", C.FN_ASYNC_COMPLETE},
	{"FN_ASYNC", C.FN_ASYNC},
	{"FN_CLOSURE_CTOR", C.FN_CLOSURE_CTOR},
	{"FN_CLOSURE_BODY", C.FN_CLOSURE_BODY},
	{"FN_LINKED", C.FN_LINKED},
	{"FN_REJIT", C.FN_REJIT},
	{"FN_UNHOOKED", C.FN_UNHOOKED},
	{"FN_ITER_FOLDED", C.FN_ITER_FOLDED},
	{"FN_ITER_START", C.FN_ITER_START},
	{"FN_ACTIVITY_STOP", C.FN_ACTIVITY_STOP},
	{"FN_QUEUE", C.FN_QUEUE},
	{"FN_QUEUE_UNSAFE", C.FN_QUEUE_UNSAFE},
	{"FN_QUEUE_REGISTERS", C.FN_QUEUE_REGISTERS},
	{"FN_ITER_END", C.FN_ITER_END},
	{"FN_WORK_MAKE", C.FN_WORK_MAKE},
	{"FN_WORK_RUN", C.FN_WORK_RUN},
	{"FN_WORK_REPEAT", C.FN_WORK_REPEAT},
	{"FN_COMPILE", C.FN_COMPILE},
	{"FN_PENDING", C.FN_PENDING},
	{"FN_ENTRY", C.FN_ENTRY},
	{"FN_WORK_THREAD", C.FN_WORK_THREAD},
	{"FN_ASYNC_LOOP", C.FN_ASYNC_LOOP},
	{"FN_PLUMBING", C.FN_PLUMBING},
	{"FN_ITER_STEP", C.FN_ITER_STEP},
	{"FN_WORK_PROMISE", C.FN_WORK_PROMISE},
	{"FN_NOT_A_CALL", C.FN_NOT_A_CALL},
	{"FN_NEVER_FOLDED", C.FN_NEVER_FOLDED},
}

// Sizes are capture.h's sizes and counts of the record format.
var Sizes = []Constant{
	{"REC_HEADER", C.REC_HEADER},
	{"REC_EXIT_SIZE", C.REC_EXIT_SIZE},
	{"MAX_TYPE_ARGS", C.MAX_TYPE_ARGS},
	{"TAIL_CALLEES", C.TAIL_CALLEES},
	{"FOLD_TOP", C.FOLD_TOP},
	{"REC_FOLD_SIZE", C.REC_FOLD_SIZE},
	{"EXIT_ITER_YIELDED", C.EXIT_ITER_YIELDED},
	{"EXIT_ITER_DONE", C.EXIT_ITER_DONE},
	{"EXIT_AUX_COUNT", C.EXIT_AUX_COUNT},
}

// PutHeader writes a record header at the start of p as the hooks do.
func PutHeader(p []byte, size uint32, kind, flags uint16, time uint64) {
	if len(p) < C.REC_HEADER {
		panic("ccapture: no room for a header")
	}
	C.put_header((*C.uint8_t)(unsafe.Pointer(&p[0])), C.uint32_t(size), C.uint16_t(kind), C.uint16_t(flags), C.uint64_t(time))
}

// FoldEntry is one method's entry in a frame's fold part.
type FoldEntry struct {
	Func, Calls uint32
	Ns          uint64
}

// PutFoldExit writes at the start of p a leave record of function fn with
// what was folded into its frame, as the hooks do, and returns its size.
func PutFoldExit(p []byte, fn, calls uint32, ns uint64, top []FoldEntry) int {
	size := C.REC_EXIT_SIZE + C.REC_FOLD_SIZE
	if len(p) < size || len(top) > C.FOLD_TOP {
		panic("ccapture: no room for a fold exit record")
	}
	words := make([]C.uint64_t, 3*C.FOLD_TOP)
	for i, e := range top {
		words[3*i], words[3*i+1], words[3*i+2] = C.uint64_t(e.Func), C.uint64_t(e.Calls), C.uint64_t(e.Ns)
	}
	C.put_fold_exit((*C.uint8_t)(unsafe.Pointer(&p[0])), C.uint32_t(fn), C.uint32_t(calls), C.uint64_t(ns), C.uint32_t(len(top)), &words[0])
	return size
}

// SpanID is capture.h's clr_span_id.
func SpanID(salt, pos uint64) uint64 { return uint64(C.span_id(C.uint64_t(salt), C.uint64_t(pos))) }
