package main

/*
#include <stdlib.h>
#include "startup.h"
*/
import "C"

import (
	"unicode/utf16"
	"unsafe"

	"github.com/clrotel/clrotel/scope"
)

// configureScope tells the C layer (startup.c) where the selection can
// match, so that modules holding nothing selected keep their ReadyToRun
// code and their methods are never named.
func configureScope(s selector) {
	if s.ownCodeOnly {
		C.clr_startup_scope(1, 0, nil, 0)
		return
	}
	prefixes, everywhere := scope.Prefixes(s.include)
	var buf []uint16
	if everywhere {
		buf = []uint16{0} // one empty prefix: every module
	}
	for _, p := range prefixes {
		buf = append(append(buf, utf16.Encode([]rune(p))...), 0)
	}
	if len(buf) == 0 {
		buf = []uint16{0}
	}
	reaches := C.int(0)
	if scope.ReachesFramework(prefixes, everywhere) {
		reaches = 1
	}
	C.clr_startup_scope(0, reaches, (*C.uint16_t)(unsafe.Pointer(&buf[0])), C.uint32_t(len(buf)))
}
