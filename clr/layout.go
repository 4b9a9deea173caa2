package clr

/*
#include "clrinfo.h"
*/
import "C"

import (
	"errors"
	"fmt"

	"github.com/clrotel/clrotel/naming"
	"github.com/clrotel/clrotel/planning"
)

// ClassLayout returns a class's instance fields (token and offset) and its
// size, asking the runtime for the count first.
func ClassLayout(cid uint64) ([]planning.FieldOffset, uint32, error) {
	var n, sz C.uint32_t
	if hr := C.clr_class_layout(C.uintptr_t(cid), nil, 0, &n, &sz); hr != 0 {
		return nil, 0, hrErr("GetClassLayout", hr)
	}
	if n == 0 {
		return nil, uint32(sz), nil
	}
	if n > naming.MaxName {
		return nil, 0, fmt.Errorf("GetClassLayout: %d fields", n)
	}
	fields := make([]C.clr_field_offset, n)
	var got C.uint32_t
	if hr := C.clr_class_layout(C.uintptr_t(cid), &fields[0], n, &got, &sz); hr != 0 {
		return nil, 0, hrErr("GetClassLayout", hr)
	}
	if got > n {
		return nil, 0, fmt.Errorf("GetClassLayout: %d fields, then %d", n, got)
	}
	out := make([]planning.FieldOffset, got)
	for i, f := range fields[:got] {
		out[i] = planning.FieldOffset{Token: uint32(f.token), Offset: uint32(f.offset)}
	}
	return out, uint32(sz), nil
}

// StringLayout returns where a String keeps its length and its first
// character (GetStringLayout2).
func StringLayout() (lenOff, bufOff uint32, err error) {
	var l, b C.uint32_t
	if C.clr_string_layout(&l, &b) != 0 {
		return 0, 0, errors.New("GetStringLayout2 failed")
	}
	return uint32(l), uint32(b), nil
}
