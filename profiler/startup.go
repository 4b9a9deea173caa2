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
	"github.com/clrotel/clrotel/selection"
)

// configureScope tells the C layer (startup.c) where the selection can
// match, so that modules holding nothing selected keep their ReadyToRun
// code and their methods are never named. When Initialize did not wait for
// Go, C read the same scope from CLROTEL_INCLUDE (clr_startup_scope_include)
// and keeps it.
func configureScope(s selection.Policy) {
	if s.OwnCodeOnly() {
		C.clr_startup_scope(1, 0, nil, 0)
		return
	}
	prefixes, everywhere := scope.Prefixes(s.Include())
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

// clrotelLogMask reports event-mask bits Go's configuration asks for that
// Initialize, which did not wait for Go, left out (callbacks.c go_ready):
// C read the environment by the wrong rule.
//
//export clrotelLogMask
func clrotelLogMask(missing C.uint32_t) {
	if p := prof; p != nil {
		p.log.Errorf("event mask bits %#x are missing: Initialize read the configuration differently from Go (a bug); tracing goes on without them", uint32(missing))
	}
}
