package cframework

/*
#include <stdlib.h>
#include "framework.h"

static int assembly(const uint16_t *s, uint32_t n) { return clr_framework_assembly(s, n); }
static int file(const uint16_t *s) { return clr_framework_file(s); }
static int reached(const char *p, size_t n) { return clr_framework_reached(p, n); }
*/
import "C"

import (
	"unicode/utf16"
	"unsafe"
)

// Assembly is clr_framework_assembly over name in UTF-16, with nuls
// trailing NULs, as the runtime may hand a name over.
func Assembly(name string, nuls int) bool {
	u := utf16.Encode([]rune(name))
	u = append(u, make([]uint16, nuls+1)...) // one more: never a nil pointer
	return C.assembly((*C.uint16_t)(unsafe.Pointer(&u[0])), C.uint32_t(len(u)-1)) != 0
}

// File is clr_framework_file over name, NUL-terminated UTF-16.
func File(name string) bool {
	u := append(utf16.Encode([]rune(name)), 0)
	return C.file((*C.uint16_t)(unsafe.Pointer(&u[0]))) != 0
}

// Reached is clr_framework_reached over an ASCII prefix.
func Reached(prefix string) bool {
	b := append([]byte(prefix), 0)
	return C.reached((*C.char)(unsafe.Pointer(&b[0])), C.size_t(len(prefix))) != 0
}
