package clr

/*
#include "clrinfo.h"
*/
import "C"

// CodeFunction returns the function whose code a delegate's method pointer
// leads to, following the runtime's precode stubs; false when none is
// known (its method may not be compiled yet).
func CodeFunction(code uint64) (uint64, bool) {
	var fid C.uintptr_t
	if C.clr_code_function(C.uintptr_t(code), &fid) != 0 {
		return 0, false
	}
	return uint64(fid), true
}
