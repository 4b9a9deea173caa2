package main

/*
#include <stdlib.h>
#include "startup.h"
*/
import "C"

import (
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
	st := scope.ForStartup(s.Include())
	C.clr_startup_scope(0, cBool(st.ReachesFramework), (*C.uint16_t)(unsafe.Pointer(&st.List[0])), C.uint32_t(len(st.List)))
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
