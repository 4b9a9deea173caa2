package clr

/*
#include "clrinfo.h"
*/
import "C"

import (
	"unsafe"

	"github.com/clrotel/clrotel/planning"
)

// moduleFields reads a module's fields (planning.FieldCache caches them).
type moduleFields struct{ imp unsafe.Pointer }

func (m moduleFields) Fields(td uint32) ([]uint32, error) {
	toks, err := enumAll("EnumFields", 64, func(toks *C.uint32_t, capacity C.uint32_t, count, total *C.uint32_t) C.int {
		return C.md_enum_fields(m.imp, C.uint32_t(td), toks, capacity, count, total)
	})
	if err != nil {
		return nil, err
	}
	return goTokens(toks), nil
}

func (m moduleFields) Field(fd uint32) (planning.FieldProps, error) {
	var owner, a, sl C.uint32_t
	var s *C.uint8_t
	name, err := askName("GetFieldProps", func(buf *C.uint16_t, capacity C.uint32_t, n *C.uint32_t) C.int {
		return C.md_field_props(m.imp, C.uint32_t(fd), &owner, buf, capacity, n, &a, &s, &sl)
	})
	if err != nil {
		return planning.FieldProps{}, err
	}
	return planning.FieldProps{Name: name, Sig: C.GoBytes(unsafe.Pointer(s), C.int(sl)), Attrs: uint32(a)}, nil
}
