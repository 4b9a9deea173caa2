package fakeheap

/*
#include <stdlib.h>
*/
import "C"

import "unsafe"

// Heap is a block of words, allocated by C so that the Go GC never moves it.
type Heap struct{ base unsafe.Pointer }

// New allocates words of fake heap, zeroed.
func New(words int) *Heap { return &Heap{C.calloc(C.size_t(words), 8)} }

// Free releases the heap.
func (h *Heap) Free() { C.free(h.base) }

// Obj is the address of word i, after writing class there.
func (h *Heap) Obj(i int, class uintptr) uintptr {
	p := unsafe.Add(h.base, i*8)
	*(*uintptr)(p) = class
	return uintptr(p)
}
