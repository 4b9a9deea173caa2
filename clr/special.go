package clr

/*
#include "async.h"
*/
import "C"

import "github.com/clrotel/clrotel/selection"

// SpecialMethod tells a builder's SetResult/SetException
// (ASYNC_SPECIAL_BUILDER) or a CoreLib method that queues work
// (ASYNC_SPECIAL_QUEUE) by FunctionID (the module-load scan found them),
// before the method is named; 0 for any other.
func SpecialMethod(fid uint64) selection.Special {
	module, token, err := MethodDef(fid)
	if err != nil {
		return selection.SpecialNone
	}
	return Special(module, token)
}

// Special is what async.c's module-load scan found the MethodDef token of
// module to be (selection.SpecialNone: nothing special).
func Special(module uint64, token uint32) selection.Special {
	return selection.Special(C.clr_async_special_method(C.uintptr_t(module), C.uint32_t(token)))
}
