package cflowlayout

/*
#cgo CFLAGS: -O2 -Wall
#include <stdlib.h>
#include <string.h>
#include "flowlayout.h"

// A fake runtime: class layouts by ClassID, and the frame of the call
// being entered (its exact class and its `this`).
enum { FAKE_CLASSES = 64, FAKE_FIELDS = 8 };
typedef struct {
	uintptr_t cls;
	uint32_t n;
	COR_FIELD_OFFSET f[FAKE_FIELDS];
} fake_class;
static fake_class g_classes[FAKE_CLASSES];
static _Atomic uint64_t g_layout_calls;
static uintptr_t g_frame_class;
static uintptr_t g_this;
static int g_ranges = 1;

static HRESULT fake_layout(void *self, ClassID cls, COR_FIELD_OFFSET out[], ULONG cap, ULONG *n, ULONG *size) {
	(void)self;
	atomic_fetch_add(&g_layout_calls, 1);
	for (int i = 0; i < FAKE_CLASSES; i++) {
		if (g_classes[i].cls != cls || cls == 0)
			continue;
		for (uint32_t k = 0; k < g_classes[i].n && k < cap; k++)
			out[k] = g_classes[i].f[k];
		*n = g_classes[i].n;
		*size = 64;
		return 0;
	}
	return (HRESULT)0x80070057; // E_INVALIDARG
}

// The frame is the ELT info itself, as in the runtime.
static HRESULT fake_enter3(void *self, FunctionID fid, COR_PRF_ELT_INFO elt, COR_PRF_FRAME_INFO *frame, ULONG *cb,
                           COR_PRF_FUNCTION_ARGUMENT_INFO *info) {
	(void)self;
	(void)fid;
	(void)cb;
	*frame = (COR_PRF_FRAME_INFO)elt;
	info->numRanges = (ULONG)g_ranges;
	info->totalArgumentSize = 8;
	info->ranges[0].startAddress = (UINT_PTR)&g_this;
	info->ranges[0].length = 8;
	return 0;
}

static _Atomic uint64_t g_frame_calls;
static uintptr_t g_object, g_object_class;

static HRESULT fake_info2(void *self, FunctionID fid, COR_PRF_FRAME_INFO frame, ClassID *cls, ModuleID *mod, mdToken *tok,
                          ULONG32 cap, ULONG32 *n, ClassID args[]) {
	atomic_fetch_add(&g_frame_calls, 1);
	(void)self;
	(void)fid;
	(void)mod;
	(void)tok;
	(void)cap;
	(void)args;
	if (frame == 0)
		return (HRESULT)0x80070057;
	*cls = g_frame_class;
	*n = 0;
	return 0;
}

// The class of the one object the fake heap holds.
static HRESULT fake_class_from_object(void *self, ObjectID obj, ClassID *cls) {
	(void)self;
	if (obj == 0 || obj != g_object)
		return (HRESULT)0x80070057;
	*cls = g_object_class;
	return 0;
}

static ProfInfoVtbl g_vt;
static clr_runtime g_rt;

static void fake_init(void) {
	g_vt.GetClassLayout = fake_layout;
	g_vt.GetFunctionEnter3Info = fake_enter3;
	g_vt.GetFunctionInfo2 = fake_info2;
	g_vt.GetClassFromObject = fake_class_from_object;
	g_frame_calls = 0;
	g_object = g_object_class = 0;
	g_rt.vtbl = &g_vt;
	g_rt.version = 12;
	memset(g_classes, 0, sizeof g_classes);
	g_layout_calls = 0;
}

static void fake_class_set(int i, uintptr_t cls, const uint32_t *tok, const uint32_t *off, uint32_t n) {
	g_classes[i].cls = cls;
	g_classes[i].n = n;
	for (uint32_t k = 0; k < n && k < FAKE_FIELDS; k++) {
		g_classes[i].f[k].ridOfField = tok[k];
		g_classes[i].f[k].ulOffset = off[k];
	}
}

static uint64_t fake_layout_calls(void) { return g_layout_calls; }
static uint64_t fake_frame_calls(void) { return g_frame_calls; }
static void fake_object_set(uintptr_t obj, uintptr_t cls) {
	g_object = obj;
	g_object_class = cls;
}

static int offsets(clr_flow_layout *l, uintptr_t cls, uint16_t *off) { return clr_flow_layout_offsets(&g_rt, l, cls, off); }

static int flow_this(clr_flow_layout *l, uintptr_t frame_class, uintptr_t self, int ranges, uintptr_t *got, uint16_t *off) {
	g_frame_class = frame_class;
	g_this = self;
	g_ranges = ranges;
	uintptr_t elt_block = 0; // the repair of saved registers is off: never read
	return clr_flow_this(&g_rt, 0x1234, (uintptr_t)&elt_block, l, got, off);
}
*/
import "C"

import "unsafe"

// Fields is the number of added fields a layout holds at most.
const Fields = int(C.FLOW_LAYOUT_FIELDS)

// Classes is the number of classes a layout remembers.
const Classes = int(C.FLOW_LAYOUT_CLASSES)

// Init resets the fake runtime: no classes, no calls.
func Init() { C.fake_init() }

// SetClass gives the fake runtime's class i (slot 0..63) the fields toks
// at offs.
func SetClass(i int, cls uint64, toks []uint32, offs []uint32) {
	var t, o [8]C.uint32_t
	for k := range toks {
		t[k], o[k] = C.uint32_t(toks[k]), C.uint32_t(offs[k])
	}
	C.fake_class_set(C.int(i), C.uintptr_t(cls), &t[0], &o[0], C.uint32_t(len(toks)))
}

// LayoutCalls is how many times the runtime's class layout was asked.
func LayoutCalls() uint64 { return uint64(C.fake_layout_calls()) }

// FrameCalls is how many times the runtime was asked a frame's class.
func FrameCalls() uint64 { return uint64(C.fake_frame_calls()) }

// SetObject makes obj the fake heap's one object, of class cls.
func SetObject(obj, cls uint64) { C.fake_object_set(C.uintptr_t(obj), C.uintptr_t(cls)) }

// Layout is a clr_flow_layout.
type Layout struct{ l *C.clr_flow_layout }

// New makes a layout for the fields toks of a struct's steps, or of a
// sealed class's (objectThis); ok false when C refuses.
func New(toks []uint32, objectThis bool) (Layout, bool) {
	var t [8]C.uint32_t
	for k := range toks {
		if k < len(t) {
			t[k] = C.uint32_t(toks[k])
		}
	}
	object := C.int(0)
	if objectThis {
		object = 1
	}
	l := C.clr_flow_layout_new(&t[0], C.uint32_t(len(toks)), object)
	return Layout{l}, l != nil
}

// Free releases the layout's memory (the profiler never does).
func (l Layout) Free() { C.free(unsafe.Pointer(l.l)) }

// Offsets are the fields' offsets in class cls, as the hooks find them.
func (l Layout) Offsets(cls uint64) ([]uint16, bool) {
	var off [C.FLOW_LAYOUT_FIELDS]C.uint16_t
	if C.offsets(l.l, C.uintptr_t(cls), &off[0]) == 0 {
		return nil, false
	}
	out := make([]uint16, l.l.n)
	for i := range out {
		out[i] = uint16(off[i])
	}
	return out, true
}

// This is what the hooks find on entering a shared step whose frame's
// exact class is cls and whose `this` is self (ranges: the argument ranges
// the runtime reports; the object's class is SetObject's).
func (l Layout) This(cls, self uint64, ranges int) (uint64, []uint16, bool) {
	var off [C.FLOW_LAYOUT_FIELDS]C.uint16_t
	var got C.uintptr_t
	if C.flow_this(l.l, C.uintptr_t(cls), C.uintptr_t(self), C.int(ranges), &got, &off[0]) == 0 {
		return 0, nil, false
	}
	out := make([]uint16, l.l.n)
	for i := range out {
		out[i] = uint16(off[i])
	}
	return uint64(got), out, true
}

// Missing and Uncached are flowlayout.c's counters.
func Missing() uint64  { return uint64(C.clr_flow_layout_missing()) }
func Uncached() uint64 { return uint64(C.clr_flow_layout_uncached()) }
