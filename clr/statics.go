package clr

/*
#include "ambient.h"
*/
import "C"

import "fmt"

// StaticAddress returns the address of a class's static field in the
// current AppDomain (ambient.c); an error until its class is initialised.
// It asks about the calling thread: call it on a runtime thread.
func StaticAddress(cid uint64, field uint32) (uint64, error) {
	var addr C.uintptr_t
	if hr := C.clr_ambient_static(C.uintptr_t(cid), C.uint32_t(field), &addr); hr != 0 {
		return 0, fmt.Errorf("HRESULT %#x", uint32(hr))
	}
	return uint64(addr), nil
}
