package clr

/*
// The headers of the C layer this package calls, for every file of it.
#cgo CFLAGS: -I${SRCDIR}/../profiler
#include <stdint.h>
*/
import "C"

import (
	"fmt"
	"unicode/utf16"
	"unsafe"

	"github.com/clrotel/clrotel/naming"
)

func hrErr(what string, hr C.int) error {
	return fmt.Errorf("%s: HRESULT %#x", what, uint32(hr))
}

// nameCall is one call of a metadata or info API that returns a name: buf
// is nil with capacity 0 (only the length is wanted), or has exactly
// capacity elements.
type nameCall func(buf *C.uint16_t, capacity C.uint32_t, n *C.uint32_t) C.int

// askName reads a name through call (see naming.ReadName).
func askName(what string, call nameCall) (string, error) {
	return naming.ReadName(what, func(buf []uint16) (uint32, int32) {
		var n C.uint32_t
		var p *C.uint16_t
		if len(buf) > 0 {
			p = (*C.uint16_t)(&buf[0])
		}
		hr := call(p, C.uint32_t(len(buf)), &n)
		return uint32(n), int32(hr)
	})
}

// enumCall is one call of a metadata enumeration: it fills at most
// capacity tokens and reports how many there are in all.
type enumCall func(toks *C.uint32_t, capacity C.uint32_t, count, total *C.uint32_t) C.int

// enumAll returns every token of an enumeration (naming.ReadTokens).
func enumAll(what string, first int, call enumCall) ([]C.uint32_t, error) {
	toks, err := naming.ReadTokens(what, first, func(buf []uint32) (uint32, uint32, int32) {
		var count, total C.uint32_t
		hr := call((*C.uint32_t)(unsafe.Pointer(&buf[0])), C.uint32_t(len(buf)), &count, &total)
		return uint32(count), uint32(total), int32(hr)
	})
	return unsafe.Slice((*C.uint32_t)(unsafe.SliceData(toks)), len(toks)), err
}

// goTokens is toks as Go's uint32s (the same memory).
func goTokens(toks []C.uint32_t) []uint32 {
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(toks))), len(toks))
}

// ids are a C array's runtime IDs (ClassIDs, ModuleIDs); nil when empty.
func ids(c []C.uintptr_t) []uint64 {
	var out []uint64
	for _, id := range c {
		out = append(out, uint64(id))
	}
	return out
}

// utf16z is name as a NUL-terminated UTF-16 string.
func utf16z(name string) []C.uint16_t {
	u := utf16.Encode([]rune(name + "\x00"))
	return unsafe.Slice((*C.uint16_t)(unsafe.Pointer(&u[0])), len(u))
}
