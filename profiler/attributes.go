package main

/*
#include <stdint.h>
int md_attribute_blob(void *imp, uint32_t tok, const uint16_t *name, const uint8_t **data, uint32_t *len);
*/
import "C"

import (
	"sync"
	"unicode/utf16"
)

// attributeNames are custom attributes' names as the metadata API takes
// them (UTF-16, NUL-terminated), made once per name.
var attributeNames sync.Map // string -> []uint16

// HasAttribute reports whether the token carries the custom attribute
// named attr (naming.AttributeReader, planning.Metadata).
func (m metadata) HasAttribute(token uint32, attr string) bool {
	w, ok := attributeNames.Load(attr)
	if !ok {
		w, _ = attributeNames.LoadOrStore(attr, utf16.Encode([]rune(attr+"\x00")))
	}
	name := w.([]uint16)
	var blob *C.uint8_t
	var n C.uint32_t
	return C.md_attribute_blob(m.imp, C.uint32_t(token), (*C.uint16_t)(&name[0]), &blob, &n) == 0
}
