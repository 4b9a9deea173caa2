package clr

/*
#include "async.h"
*/
import "C"

import (
	"sync"
	"unsafe"
)

// attributeNames are custom attributes' names as the metadata API takes
// them (UTF-16, NUL-terminated), made once per name.
var attributeNames sync.Map // string -> []C.uint16_t

// AttributeBlob returns the value blob of the custom attribute named attr
// on the token, if it carries one (flows.Module).
func (m Metadata) AttributeBlob(token uint32, attr string) ([]byte, bool) {
	w, ok := attributeNames.Load(attr)
	if !ok {
		w, _ = attributeNames.LoadOrStore(attr, utf16z(attr))
	}
	var blob *C.uint8_t
	var n C.uint32_t
	if C.md_attribute_blob(m.imp, C.uint32_t(token), &w.([]C.uint16_t)[0], &blob, &n) != 0 {
		return nil, false
	}
	return C.GoBytes(unsafe.Pointer(blob), C.int(n)), true
}

// HasAttribute reports whether the token carries the custom attribute
// named attr (naming.AttributeReader, planning.Metadata).
func (m Metadata) HasAttribute(token uint32, attr string) bool {
	_, ok := m.AttributeBlob(token, attr)
	return ok
}
