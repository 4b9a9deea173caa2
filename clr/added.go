package clr

/*
#include "async.h"
*/
import "C"

import "github.com/clrotel/clrotel/flows"

// addedNames are async.c's names of the fields it adds to the runtime's
// types as their modules load.
type addedNames struct{}

func (addedNames) Count(kind flows.TypeKind) int { return int(C.clr_async_field_count(C.int(kind))) }

func (addedNames) Index(name string, kind flows.TypeKind) int {
	if name == "" {
		return -1
	}
	w := utf16z(name) // the NUL is past the length given
	return int(C.clr_async_field_index(&w[0], C.uint32_t(len(w)-1), C.int(kind)))
}
