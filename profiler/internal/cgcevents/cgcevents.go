package cgcevents

/*
#cgo CFLAGS: -O2 -Wall
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gcevents.h"
#include "workitems.h"

static void made(uintptr_t item, uint64_t span) {
	clr_work_ctx c = {{span, span + 1}, span, 1};
	clr_work_made(item, WORK_JOIN, &c);
}
static uint64_t take(uintptr_t item) {
	clr_work_ctx c = {{0, 0}, 0, 0};
	return clr_work_take(item, 0, 1, &c) == WORK_JOIN ? c.span : 0;
}
static void started(void) {
	BOOL c[3] = {1, 1, 1};
	clr_work_gc_started(3, c, NULL, 0);
}

// A fake runtime: the one ICorProfilerInfo12 method gcevents.c calls,
// recording what it was asked.
typedef struct {
	int calls;
	uint32_t nconfigs;
	uint16_t name[64];
	uint64_t keywords;
	uint32_t level;
	int filter_null;
	BOOL rundown;
	HRESULT result;
	int delay_ms;
} asked_t;
static asked_t g_asked;
static asked_t *asked(void) { return &g_asked; }

static HRESULT fake_start(void *self, uint32_t n, COR_PRF_EVENTPIPE_PROVIDER_CONFIG cfg[], BOOL rundown, EVENTPIPE_SESSION *session) {
	(void)self;
	if (g_asked.delay_ms > 0)
		usleep(g_asked.delay_ms * 1000);
	g_asked.calls++;
	g_asked.nconfigs = n;
	memset(g_asked.name, 0, sizeof g_asked.name);
	for (int i = 0; i < 63 && cfg[0].providerName[i] != 0; i++)
		g_asked.name[i] = cfg[0].providerName[i];
	g_asked.keywords = cfg[0].keywords;
	g_asked.level = cfg[0].loggingLevel;
	g_asked.filter_null = cfg[0].filterData == NULL;
	g_asked.rundown = rundown;
	*session = 42;
	return g_asked.result;
}

static ProfInfoVtbl g_vt;

static void init(uint32_t mask_high, HRESULT result, int delay_ms) {
	g_vt.EventPipeStartSession = fake_start;
	memset(&g_asked, 0, sizeof g_asked);
	g_asked.result = result;
	g_asked.delay_ms = delay_ms;
	clr_gcevents_init(NULL, &g_vt, mask_high);
}

static uint32_t mask_high(uint32_t m, uint32_t v) { return clr_gcevents_mask_high(m, v); }
*/
import "C"

import (
	"encoding/binary"
	"time"
	"unsafe"

	"github.com/clrotel/clrotel/profiler/internal/fakeheap"
)

// Event ids and mask bits, as gcevents.h and clrapi.h name them.
const (
	SurvivingRanges = uint32(C.GCEV_SURVIVING_RANGES)
	MovedRanges     = uint32(C.GCEV_MOVED_RANGES)
	MaskMoved       = uint32(C.COR_PRF_HIGH_MONITOR_GC_MOVED_OBJECTS)
	MaskEventPipe   = uint32(C.COR_PRF_HIGH_MONITOR_EVENT_PIPE)
)

// taskClass is the class word the fake objects carry.
const taskClass = 0x1000

// NewHeap allocates words of fake heap (package fakeheap).
func NewHeap(words int) *fakeheap.Heap { return fakeheap.New(words) }

// Made records item as made under span; Take runs it: the span it joins,
// or 0.
func Made(item uintptr, span uint64) { C.made(C.uintptr_t(item), C.uint64_t(span)) }
func Take(item uintptr) uint64       { return uint64(C.take(C.uintptr_t(item))) }

// Started and Finished bracket a full collection.
func Started()  { C.started() }
func Finished() { C.clr_work_gc_finished() }

// Deliver hands an event to gcevents.c as EventPipeEventDelivered does,
// from offset off of a buffer of its own (to test unaligned payloads).
func Deliver(id uint32, payload []byte, off int) {
	buf := C.malloc(C.size_t(len(payload) + off + 1))
	defer C.free(buf)
	p := unsafe.Add(buf, off)
	if len(payload) > 0 {
		C.memcpy(p, unsafe.Pointer(&payload[0]), C.size_t(len(payload)))
	}
	C.clr_gcevents_delivered(C.uint32_t(id), C.uint32_t(len(payload)), (*C.uint8_t)(p))
}

// DeliverNil is an event with no payload at all.
func DeliverNil(id uint32) { C.clr_gcevents_delivered(C.uint32_t(id), 0, nil) }

// Range is a range of live objects: Old moved to New (New == Old for a
// surviving range).
type Range struct{ Old, New, Len uint64 }

// Payload encodes ranges as the runtime writes the event: UINT32 Index,
// UINT32 Count, UINT16 ClrInstanceID, then the values, packed.
func Payload(id uint32, ranges []Range) []byte {
	b := binary.LittleEndian.AppendUint32(nil, 0)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(ranges)))
	b = binary.LittleEndian.AppendUint16(b, 9)
	for _, r := range ranges {
		b = binary.LittleEndian.AppendUint64(b, r.Old)
		if id == MovedRanges {
			b = binary.LittleEndian.AppendUint64(b, r.New)
		}
		b = binary.LittleEndian.AppendUint64(b, r.Len)
	}
	return b
}

// Counts are gcevents.c's counters, and the items the table lost.
func Counts() (state int, events, malformed, lost uint64) {
	var s C.int
	var e, m, a, b, c, d C.uint64_t
	C.clr_gcevents_counts(&s, &e, &m)
	C.clr_work_counts(&a, &b, &c, &d)
	return int(s), uint64(e), uint64(m), uint64(d)
}

// Asked is what the fake runtime was asked to start.
type Asked struct {
	Calls, Configs      int
	Provider            string
	Keywords            uint64
	Level               uint32
	FilterNull, Rundown bool
}

// Init readies gcevents.c against a fake runtime whose
// EventPipeStartSession returns result after delay.
func Init(maskHigh uint32, result int32, delay time.Duration) {
	C.init(C.uint32_t(maskHigh), C.HRESULT(result), C.int(delay.Milliseconds()))
}

// Start is clr_gcevents_start; StartLater is clr_gcevents_start_later.
func Start() int  { return int(C.clr_gcevents_start()) }
func StartLater() { C.clr_gcevents_start_later() }

// WhatAsked is what the fake runtime was asked to start.
func WhatAsked() Asked {
	a := C.asked()
	name := make([]rune, 0, 64)
	for _, u := range a.name {
		if u == 0 {
			break
		}
		name = append(name, rune(u))
	}
	return Asked{int(a.calls), int(a.nconfigs), string(name), uint64(a.keywords), uint32(a.level), a.filter_null != 0, a.rundown != 0}
}

// MaskHigh is clr_gcevents_mask_high.
func MaskHigh(mask, infoVersion uint32) uint32 {
	return uint32(C.mask_high(C.uint32_t(mask), C.uint32_t(infoVersion)))
}
