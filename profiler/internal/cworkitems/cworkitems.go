package cworkitems

/*
#cgo CFLAGS: -O2 -Wall
#include <stdlib.h>
#include "workitems.h"
#include "async.h"

static void made(uintptr_t item, int how, uint64_t span, uint64_t at) {
	clr_work_ctx c = {{span, span + 1}, span, at};
	clr_work_made(item, how, &c);
}
static int take(uintptr_t item, int repeat, uint64_t now, uint64_t *span) {
	clr_work_ctx c = {{0, 0}, 0, 0};
	int how = clr_work_take(item, repeat, now, &c);
	*span = c.span;
	return how;
}
static void started(int gen2) {
	BOOL c[5] = {1, 1, gen2, 0, 0};
	clr_work_gc_started(5, c, NULL, 0);
}
static void started_gen0(uintptr_t gen1_lo, uintptr_t gen1_len) {
	BOOL c[5] = {1, 0, 0, 0, 0};
	COR_PRF_GC_GENERATION_RANGE r[2] = {{1, gen1_lo, gen1_len, gen1_len}, {0, gen1_lo + gen1_len, 1 << 20, 1 << 20}};
	clr_work_gc_started(5, c, r, 2);
}
static void moved(uintptr_t from, uintptr_t to, uintptr_t len) {
	ObjectID a = from, b = to;
	SIZE_T n = len;
	clr_work_gc_moved(1, &a, &b, &n);
}
static void moved32(uintptr_t from, uintptr_t to, uint32_t len) {
	ObjectID a = from, b = to;
	ULONG n = len;
	clr_work_gc_moved32(1, &a, &b, &n);
}
*/
import "C"

import "github.com/clrotel/clrotel/profiler/internal/fakeheap"

// Hows, as workitems.h names them.
const (
	None      = int(C.WORK_NONE)
	Join      = int(C.WORK_JOIN)
	Link      = int(C.WORK_LINK)
	Unsampled = int(C.WORK_UNSAMPLED)
)

// Specials are async.h's kinds of CoreLib methods (ASYNC_SPECIAL_*), which
// package selection names.
var Specials = map[string]int{
	"ASYNC_SPECIAL_BUILDER": C.ASYNC_SPECIAL_BUILDER, "ASYNC_SPECIAL_QUEUE": C.ASYNC_SPECIAL_QUEUE,
	"ASYNC_SPECIAL_WORK_MAKE": C.ASYNC_SPECIAL_WORK_MAKE, "ASYNC_SPECIAL_WORK_RUN": C.ASYNC_SPECIAL_WORK_RUN,
	"ASYNC_SPECIAL_WORK_REPEAT": C.ASYNC_SPECIAL_WORK_REPEAT, "ASYNC_SPECIAL_COMPILE": C.ASYNC_SPECIAL_COMPILE,
	"ASYNC_SPECIAL_WORK_MAKE_REPEAT":  C.ASYNC_SPECIAL_WORK_MAKE_REPEAT,
	"ASYNC_SPECIAL_WORK_MAKE_PROMISE": C.ASYNC_SPECIAL_WORK_MAKE_PROMISE,
}

// Kinds are async.h's kinds of types given fields (ASYNC_KIND_*), in
// flows.TypeKind's order.
var Kinds = []int{C.ASYNC_KIND_STATE_MACHINE, C.ASYNC_KIND_CLOSURE, C.ASYNC_KIND_ITERATOR}

// NewHeap allocates words of fake heap (package fakeheap).
func NewHeap(words int) *fakeheap.Heap { return fakeheap.New(words) }

// Made records item as made under span at time at (unix ns).
func Made(item uintptr, how int, span, at uint64) {
	C.made(C.uintptr_t(item), C.int(how), C.uint64_t(span), C.uint64_t(at))
}

// Take is a run of item at time now: how it goes on, and the maker's span.
func Take(item uintptr, repeat bool, now uint64) (how int, span uint64) {
	var s C.uint64_t
	r := 0
	if repeat {
		r = 1
	}
	how = int(C.take(C.uintptr_t(item), C.int(r), C.uint64_t(now), &s))
	return how, uint64(s)
}

// GC reports, in the runtime's order.
func Started(gen2 bool) {
	g := 0
	if gen2 {
		g = 1
	}
	C.started(C.int(g))
}

// StartedGen0 starts a generation-0 collection, with generation 1 at
// [lo, lo+length) and generation 0 above it.
func StartedGen0(lo, length uintptr) { C.started_gen0(C.uintptr_t(lo), C.uintptr_t(length)) }

func Moved(from, to, length uintptr) {
	C.moved(C.uintptr_t(from), C.uintptr_t(to), C.uintptr_t(length))
}
func Moved32(from, to, length uintptr) {
	C.moved32(C.uintptr_t(from), C.uintptr_t(to), C.uint32_t(length))
}
func Finished() { C.clr_work_gc_finished() }

// Counts are the table's counters.
func Counts() (made, joined, full, lost uint64) {
	var a, b, c, d C.uint64_t
	C.clr_work_counts(&a, &b, &c, &d)
	return uint64(a), uint64(b), uint64(c), uint64(d)
}
