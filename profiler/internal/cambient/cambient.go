package cambient

/*
#cgo CFLAGS: -O2 -Wall -Wno-unused-function -Wno-prio-ctor-dtor
#include <stdlib.h>
#include <string.h>
#include "ambient.h"
#include "fake.h"

static int parent(uint8_t *trace, uint8_t *span, uint8_t *flags) { return clr_ambient_parent(NULL, trace, span, flags); }
static int suppressed(void) { return clr_ambient_flow_suppressed(); }
*/
import "C"

import (
	"encoding/binary"
	"unicode/utf16"
	"unsafe"
)

// Synthetic classes (ClassIDs are only compared, never followed).
const (
	ClassThread   = 0x7100
	ClassContext  = 0x7200
	ClassMap1     = 0x7301 // pairs in fields: _key1 at 8, _value1 at 16 (.NET Core 3.1's shape)
	ClassMap2     = 0x7302 // KeyValuePair structs: _item0 at 8, _item1 at 24 (.NET 8's shape)
	ClassMapArray = 0x7310 // KeyValuePair[] at 8
	ClassMapMany  = 0x7320 // known, not read
	ClassActivity = 0x7400
	ClassSource   = 0x7500
	ClassString   = 0x7600
	ClassLocal    = 0x7700 // AsyncLocal<Activity>
	ClassArray    = 0x7800
)

// Field offsets of the synthetic layouts.
const (
	ThreadEC, ThreadNative                                  = 8, 16
	ContextLocals, ContextSuppressed                        = 8, 16
	ActTrace, ActSpan, ActFlags, ActParentID, ActParentSpan = 8, 16, 24, 32, 40
	ActName, ActStart, ActSource, ActParent                 = 48, 56, 64, 72
	SourceName                                              = 8
)

// Init sets the fake runtime up (once per process).
func Init() { C.fake_init() }

// Ptr is an object in synthetic memory.
type Ptr = unsafe.Pointer

// U is p as the word an object field holds.
func U(p Ptr) uint64 { return uint64(uintptr(p)) }

var allocs []Ptr

// FreeAll frees every synthetic object and plan, once nothing reads them
// any more (the end of the tests).
func FreeAll() {
	C.clr_ambient_publish(nil)
	for _, p := range allocs {
		C.free(p)
	}
	allocs = nil
}

// Obj returns n zeroed bytes of C memory (never freed: a published plan
// may point into it) holding class cls in its first word.
func Obj(cls uint64, n int) Ptr {
	p := C.calloc(1, C.size_t(n))
	allocs = append(allocs, p)
	Put(p, 0, cls)
	return p
}

// Put writes v at p+off.
func Put(p Ptr, off int, v uint64) {
	binary.LittleEndian.PutUint64(unsafe.Slice((*byte)(unsafe.Add(p, off)), 8), v)
}

// PutByte writes b at p+off.
func PutByte(p Ptr, off int, b byte) { *(*byte)(unsafe.Add(p, off)) = b }

// Str is a synthetic string.
func Str(s string) Ptr {
	u := utf16.Encode([]rune(s))
	p := Obj(ClassString, 12+2*len(u)+2)
	*(*uint32)(unsafe.Add(p, 8)) = uint32(len(u))
	for i, c := range u {
		*(*uint16)(unsafe.Add(p, 12+2*i)) = c
	}
	return p
}

// Array is a synthetic KeyValuePair<IAsyncLocal, object>[] of pairs.
func Array(pairs ...[2]Ptr) Ptr {
	p := Obj(ClassArray, 16+16*len(pairs))
	*(*uint32)(unsafe.Add(p, 8)) = uint32(len(pairs))
	for i, kv := range pairs {
		Put(p, 16+16*i, U(kv[0]))
		Put(p, 24+16*i, U(kv[1]))
	}
	return p
}

// Publish publishes the plan of the synthetic layouts, with the
// AsyncLocal's static at currentStatic.
func Publish(currentStatic Ptr) {
	p := (*C.clr_ambient_plan)(C.calloc(1, C.size_t(unsafe.Sizeof(C.clr_ambient_plan{}))))
	allocs = append(allocs, Ptr(p))
	p.thread_class, p.thread_field = ClassThread, 0x04000001
	p.thread_ec_off, p.thread_native_off = ThreadEC, ThreadNative
	p.ec_locals_off, p.ec_suppressed_off = ContextLocals, ContextSuppressed
	p.current_static = C.uintptr_t(uintptr(currentStatic))
	p.activity_class = ClassActivity
	p.trace_id_off, p.span_id_off, p.flags_off = ActTrace, ActSpan, ActFlags
	p.parent_span_off, p.parent_id_off, p.name_off, p.start_off = ActParentSpan, ActParentID, ActName, ActStart
	p.source_off, p.source_name_off, p.parent_off = ActSource, SourceName, ActParent
	p.str_len_off, p.str_buf_off = 8, 12
	maps := []C.clr_ambient_map{
		{class_id: ClassMap1, kind: C.AMB_MAP_INLINE, n: 1, key_off: [4]C.uint32_t{8}, val_off: [4]C.uint32_t{16}},
		{class_id: ClassMap2, kind: C.AMB_MAP_INLINE, n: 2, key_off: [4]C.uint32_t{8, 24}, val_off: [4]C.uint32_t{16, 32}},
		{class_id: ClassMapArray, kind: C.AMB_MAP_ARRAY, arr_off: 8, elem_size: 16, elem_key: 0, elem_val: 8},
		{class_id: ClassMapMany, kind: C.AMB_MAP_EMPTY},
	}
	for i, m := range maps {
		p.maps[i] = m
	}
	p.nmaps = C.uint32_t(len(maps))
	C.clr_ambient_publish(p)
}

// FlowSuppressed reports what clr_ambient_flow_suppressed says on this thread.
func FlowSuppressed() bool { return C.suppressed() != 0 }

// SetThread sets what the fake runtime answers for this thread.
func SetThread(tid uintptr, staticAddr Ptr) {
	C.fake_set_thread(C.uintptr_t(tid), C.uintptr_t(uintptr(staticAddr)))
}

// StaticAsks is how many times the reader asked for the thread static.
func StaticAsks() uint64 { return uint64(C.fake_static_asks()) }

// GC tells the reader a GC finished.
func GC() { C.clr_ambient_gc() }

// Parent is the hook's question on a root call (call it with the OS thread
// locked: the reader caches per thread).
func Parent() (trace [16]byte, span [8]byte, flags uint8, ok bool) {
	var f C.uint8_t
	r := C.parent((*C.uint8_t)(unsafe.Pointer(&trace[0])), (*C.uint8_t)(unsafe.Pointer(&span[0])), &f)
	return trace, span, uint8(f), r != 0
}

// Flags of Parent.
const (
	Sampled = C.AMB_SAMPLED
	Decided = C.AMB_DECIDED
)

// Stop is the Activity.Stop hook's record payload for the Activity obj
// (after the record's u32 function, u32 0), or nil.
func Stop(obj Ptr) []byte {
	C.fake_set_this(C.uintptr_t(uintptr(obj)))
	buf := make([]byte, C.AMB_STOP_MAX)
	n := C.clr_ambient_stop(1, 0, (*C.uint8_t)(unsafe.Pointer(&buf[0])), C.uint32_t(len(buf)))
	if n == 0 {
		return nil
	}
	return buf[:n]
}

// Unmapped is an address whose reads fault.
func Unmapped() Ptr { return C.fake_unmapped_page() }
