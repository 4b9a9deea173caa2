package creader

/*
#cgo CFLAGS: -O2 -Wall -Wno-unused-function -Wno-prio-ctor-dtor
#include <stdlib.h>
#include "fake.h"
#include "profiler.h"
#include "eltargs.h"
#include "safecopy.h"

// The copy from an address the test holds as a number.
static int safe_copy_at(void *dst, uintptr_t src, uintptr_t n) { return clr_safe_copy(dst, (const void *)src, n); }
*/
import "C"

import (
	"unsafe"
)

// Limits are the reader's limits for a test.
type Limits struct{ MaxBytes, MaxChars, MaxElems, MaxDepth, MaxFields uint32 }

// Init sets the fake runtime up (once per process).
func Init(l Limits) {
	lim := C.clr_value_limits{
		max_bytes: C.uint32_t(l.MaxBytes), max_chars: C.uint32_t(l.MaxChars), max_elems: C.uint32_t(l.MaxElems),
		max_depth: C.uint32_t(l.MaxDepth), max_fields: C.uint32_t(l.MaxFields),
		string_len_offset: 8, string_buf_offset: 12,
	}
	C.fake_init(&lim)
}

// Mem is synthetic memory in the C heap.
type Mem struct{ ptrs []unsafe.Pointer }

// Alloc returns n zeroed bytes of C memory.
func (m *Mem) Alloc(n int) []byte {
	p := C.calloc(1, C.size_t(n))
	m.ptrs = append(m.ptrs, p)
	return unsafe.Slice((*byte)(p), n)
}

// Addr is the address of b's first byte.
func Addr(b []byte) uint64 { return uint64(uintptr(unsafe.Pointer(&b[0]))) }

// Free releases everything allocated.
func (m *Mem) Free() {
	for _, p := range m.ptrs {
		C.free(p)
	}
}

// Field is one field of a synthetic class plan.
type Field struct {
	Kind   uint8
	Offset uint32
	Redact bool
	// Walk: BoundTree, BoundChains or BoundInner, with the owner's count at
	// BoundOffset (NoCount: none).
	Walk        uint8
	BoundOffset uint32
}

// Walked collections (values.h).
const (
	BoundTree   = C.BOUND_TREE
	BoundChains = C.BOUND_CHAINS
	BoundInner  = C.BOUND_INNER
	NoCount     = C.BOUND_NO_COUNT
	Unknown     = C.BOUND_UNKNOWN
)

// Links are a node class's linking fields, each 1 + its index (0: none).
type Links struct{ Left, Right, Count uint8 }

// Shapes.
const (
	ShapeObject = C.SHAPE_OBJECT
	ShapeString = C.SHAPE_STRING
	ShapeArray  = C.SHAPE_ARRAY
)

// Publish makes a class plan known to the reader.
func Publish(cls uint64, shape int, elemKind uint8, elemSize uint32, fields []Field) {
	PublishNode(cls, shape, elemKind, elemSize, fields, Links{})
}

// PublishNode is Publish for a walked collection's node class.
func PublishNode(cls uint64, shape int, elemKind uint8, elemSize uint32, fields []Field, l Links) {
	publish(cls, shape, elemKind, elemSize, fields, l, ViewRendered)
}

// Views (values.h VIEW_*): how package values shows an object.
const (
	ViewRendered = C.VIEW_RENDERED
	ViewPlain    = C.VIEW_PLAIN
	ViewTerse    = C.VIEW_TERSE
)

// PublishObject is Publish for an object class shown as view says.
func PublishObject(cls uint64, view uint8, fields []Field) {
	publish(cls, ShapeObject, 0, 0, fields, Links{}, view)
}

func publish(cls uint64, shape int, elemKind uint8, elemSize uint32, fields []Field, l Links, view uint8) {
	size := unsafe.Sizeof(C.clr_class_plan{}) + uintptr(len(fields))*unsafe.Sizeof(C.clr_value_plan{})
	p := (*C.clr_class_plan)(C.calloc(1, C.size_t(size)))
	p.class_id = C.uintptr_t(cls)
	p.shape = C.uint8_t(shape)
	p.elem_kind = C.uint8_t(elemKind)
	p.elem_size = C.uint32_t(elemSize)
	p.rank = 1
	p.nfields = C.uint16_t(len(fields))
	fs := unsafe.Slice((*C.clr_value_plan)(unsafe.Add(unsafe.Pointer(p), unsafe.Sizeof(C.clr_class_plan{}))), len(fields))
	for i, f := range fields {
		fs[i].kind = C.uint8_t(f.Kind)
		fs[i].offset = C.uint32_t(f.Offset)
		if f.Redact {
			fs[i].redact = 1
		}
		fs[i].bounded = C.uint8_t(f.Walk)
		fs[i].bound_offset = C.uint32_t(f.BoundOffset)
	}
	p.link[0], p.link[1], p.node_count = C.uint8_t(l.Left), C.uint8_t(l.Right), C.uint8_t(l.Count)
	p.view = C.uint8_t(view)
	C.clr_plan_publish(p)
}

// Capture runs the reader over argument slots read with kinds, and returns
// the value stream.
func Capture(kinds []uint8, slots []uint64, budget int) []byte {
	var a C.fake_args
	a.n = C.uint32_t(len(slots))
	for i, s := range slots {
		a.slots[i] = C.uint64_t(s)
	}
	C.fake_set_args(&a)
	size := unsafe.Sizeof(C.clr_fn_plan{}) + uintptr(len(kinds))*unsafe.Sizeof(C.clr_value_plan{})
	fp := (*C.clr_fn_plan)(C.calloc(1, C.size_t(size)))
	defer C.free(unsafe.Pointer(fp))
	fp.nargs = C.uint16_t(len(kinds))
	args := unsafe.Slice((*C.clr_value_plan)(unsafe.Add(unsafe.Pointer(fp), unsafe.Sizeof(C.clr_fn_plan{}))), len(kinds))
	for i, k := range kinds {
		args[i].kind = C.uint8_t(k)
	}
	buf := C.malloc(C.size_t(budget))
	defer C.free(buf)
	n := C.clr_capture_enter(fp, nil, 1, 1, (*C.uint8_t)(buf), C.uint32_t(budget))
	return C.GoBytes(buf, C.int(n))
}

// UnmappedPage is the address of a page that faults when read.
func UnmappedPage() uint64 { return uint64(uintptr(C.fake_unmapped_page())) }

// GuardFaults counts the faults inside guarded profiling-API calls.
func GuardFaults() uint64 { return uint64(C.clr_guard_faults()) }

// FakeModule is the one module the fake runtime reported loading.
const FakeModule = C.FAKE_MODULE

// This reads `this` of a call entered with the ELT block whose saved rdi
// (the stub's PROFILE_PLATFORM_SPECIFIC_DATA) is rdi, the runtime answering
// self (GetFunctionEnter3Info's range 0), through the hooks' reader. It
// returns what the reader gave and whether it now reads the word directly
// (1), has stopped trying (-1) or is still checking (0).
func This(rdi, self uint64) (uint64, int) {
	var a C.fake_args
	a.n = 1
	a.slots[0] = C.uint64_t(self)
	C.fake_set_args(&a)
	info, free := eltInfo(0, rdi)
	defer free()
	got := C.clr_elt_this(C.fake_runtime(), 7, info)
	return uint64(got), int(C.clr_elt_this_direct())
}

// Arg1 reads argument 1 of a call as This reads `this`: the stub saved
// rsi, the runtime answers arg (GetFunctionEnter3Info's range 1). It
// returns what the reader gave, whether that was read, and whether it now
// reads the word directly (1), has stopped trying (-1) or is still
// checking (0).
func Arg1(rsi, arg uint64) (uint64, bool, int) {
	var a C.fake_args
	a.n = 2
	a.slots[0] = 0x10
	a.slots[1] = C.uint64_t(arg)
	C.fake_set_args(&a)
	info, free := eltInfo(1, rsi)
	defer free()
	var got C.uintptr_t
	ok := C.clr_elt_arg1_word(C.fake_runtime(), 7, info, &got) != 0
	return uint64(got), ok, int(C.clr_elt_arg1_direct())
}

// Ret reads the bool an iterator step returned, as its Leave hook does:
// the stub saved rax; the runtime points at that word when atRAX, else at
// a word of its own holding ret. It returns what the reader gave (1 true,
// 0 false, -1 not known) and whether it now reads the saved rax directly
// (1), has stopped trying (-1) or is still checking (0).
func Ret(rax uint64, atRAX bool, ret uint64) (int, int) {
	var a C.fake_args
	if atRAX {
		a.ret_in_rax = 1
	}
	a.ret = C.uint64_t(ret)
	C.fake_set_args(&a)
	info, free := eltInfoAt(C.ELT_RAX, rax)
	defer free()
	got := C.clr_elt_ret_bool(C.fake_runtime(), 7, info)
	return int(got), int(C.clr_elt_ret_direct())
}

// eltInfo builds an ELT info block whose stub saved v in the k-th integer
// argument register (0: rdi, 1: rsi): the block's first word leads to
// the stub's data. free releases both.
func eltInfo(k int, v uint64) (C.uintptr_t, func()) { return eltInfoAt(C.ELT_RDI+8*k, v) }

// eltInfoAt builds an ELT info block whose stub saved v at offset at of
// its data.
func eltInfoAt(at int, v uint64) (C.uintptr_t, func()) {
	data := C.calloc(1, 0x100)
	info := (*C.uintptr_t)(C.calloc(1, 16))
	*(*uint64)(unsafe.Add(data, at)) = v
	*info = C.uintptr_t(uintptr(data))
	return C.uintptr_t(uintptr(unsafe.Pointer(info))), func() {
		C.free(unsafe.Pointer(info))
		C.free(data)
	}
}

// ResetThis makes the reader check the runtime's answers again.
func ResetThis() { C.clr_elt_this_reset() }

// SafeCopy copies n bytes at src through the value reader's fault-tolerant
// copy: the bytes, or false when reading src faulted.
func SafeCopy(src uint64, n int) ([]byte, bool) {
	dst := C.calloc(1, C.size_t(n+1))
	defer C.free(dst)
	if C.safe_copy_at(dst, C.uintptr_t(src), C.uintptr_t(n)) != 0 {
		return nil, false
	}
	return C.GoBytes(dst, C.int(n)), true
}

// Layout is one method's argument layout (eltargs.h), in C memory.
type Layout struct{ p *C.clr_arg_layout }

// NewLayout returns a layout that has learned nothing.
func NewLayout() *Layout {
	return &Layout{p: (*C.clr_arg_layout)(C.calloc(1, C.size_t(unsafe.Sizeof(C.clr_arg_layout{}))))}
}

// Free releases it.
func (l *Layout) Free() { C.free(unsafe.Pointer(l.p)) }

// Trusted says whether its ranges are read without asking the runtime.
func (l *Layout) Trusted() bool { return C.clr_arg_layout_trusted(l.p) != 0 }

// LayoutChecks is how many of the runtime's answers must agree with a
// layout before it is trusted.
const LayoutChecks = C.ARG_LAYOUT_CHECKS

// Saved-register offsets in the stub's block (eltargs.h).
const (
	OffRAX = C.ELT_RAX
	OffRDI = C.ELT_RDI
	OffRSI = C.ELT_RDI + 8
	// OffPast is past the words the stub saves: where the runtime may put
	// a copy it makes while it answers.
	OffPast = C.ELT_SAVED_END + 8
)

// Call is one call for the learned reader: the words the stub saved (by
// offset in its block), and where the runtime's answer puts each range:
// an offset in that block, or -1 for a word of the runtime's own holding
// own[i].
type Call struct {
	Saved map[int]uint64
	At    []int
	Own   []uint64
}

// newCall builds c's ELT info block and tells the fake runtime its answer.
func newCall(c Call, retAt int, retLen uint32) (C.uintptr_t, func()) {
	data := C.calloc(1, 0x200)
	info := (*C.uintptr_t)(C.calloc(1, 16))
	for off, v := range c.Saved {
		*(*uint64)(unsafe.Add(data, off)) = v
	}
	*info = C.uintptr_t(uintptr(data))
	var a C.fake_args
	a.n = C.uint32_t(len(c.At))
	for i, at := range c.At {
		if at >= 0 {
			a.at[i] = C.uint64_t(uintptr(data) + uintptr(at))
		} else {
			a.slots[i] = C.uint64_t(c.Own[i])
		}
	}
	if retAt >= 0 {
		a.ret_at = C.uint64_t(uintptr(data) + uintptr(retAt))
	}
	a.ret_len = C.uint32_t(retLen)
	C.fake_set_args(&a)
	return C.uintptr_t(uintptr(unsafe.Pointer(info))), func() {
		C.free(unsafe.Pointer(info))
		C.free(data)
	}
}

// fnPlan builds a function plan over kinds (`this` first when hasThis,
// its kind kinds[0]).
func fnPlan(kinds []uint8, hasThis bool, ret uint8) (*C.clr_fn_plan, func()) {
	args := kinds
	if hasThis {
		args = kinds[1:]
	}
	size := unsafe.Sizeof(C.clr_fn_plan{}) + uintptr(len(args))*unsafe.Sizeof(C.clr_value_plan{})
	fp := (*C.clr_fn_plan)(C.calloc(1, C.size_t(size)))
	fp.nargs = C.uint16_t(len(args))
	if hasThis {
		fp.has_this = 1
		fp.this_plan.kind = C.uint8_t(kinds[0])
	}
	if ret != 0 {
		fp.capture_ret = 1
		fp.ret.kind = C.uint8_t(ret)
	}
	slots := unsafe.Slice((*C.clr_value_plan)(unsafe.Add(unsafe.Pointer(fp), unsafe.Sizeof(C.clr_fn_plan{}))), len(args))
	for i, k := range args {
		slots[i].kind = C.uint8_t(k)
	}
	return fp, func() { C.free(unsafe.Pointer(fp)) }
}

// EnterLearned runs the value reader's Enter over call c of a method with
// layout l, and returns the value stream and whether the runtime was asked.
func EnterLearned(l *Layout, kinds []uint8, hasThis bool, c Call) ([]byte, bool) {
	fp, free := fnPlan(kinds, hasThis, 0)
	defer free()
	elt, done := newCall(c, -1, 0)
	defer done()
	buf := C.malloc(256)
	defer C.free(buf)
	before := C.fake_enter_calls()
	n := C.clr_capture_enter(fp, l.p, 1, elt, (*C.uint8_t)(buf), 256)
	return C.GoBytes(buf, C.int(n)), C.fake_enter_calls() != before
}

// LeaveLearned runs the value reader's Leave over a call whose stub saved
// saved, the runtime placing the return of kind ret (size bytes) at offset
// retAt of the stub's block; it returns the value stream and whether the
// runtime was asked.
func LeaveLearned(l *Layout, ret uint8, size uint32, saved map[int]uint64, retAt int) ([]byte, bool) {
	fp, free := fnPlan(nil, false, ret)
	defer free()
	elt, done := newCall(Call{Saved: saved}, retAt, size)
	defer done()
	buf := C.malloc(256)
	defer C.free(buf)
	before := C.fake_leave_calls()
	n := C.clr_capture_leave(fp, l.p, 1, elt, (*C.uint8_t)(buf), 256)
	return C.GoBytes(buf, C.int(n)), C.fake_leave_calls() != before
}

// LayoutCounts is the reader's count of trusted and refused layouts.
func LayoutCounts() (trusted, refused uint64) {
	var a, b C.uint64_t
	C.clr_arg_layout_counts(&a, &b)
	return uint64(a), uint64(b)
}

// ResetLayoutCounts zeroes them.
func ResetLayoutCounts() { C.clr_arg_layout_counts_reset() }
