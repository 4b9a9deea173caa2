package cimagemd

/*
#cgo CFLAGS: -O1 -g -Wall
#include <stdlib.h>
#include "../../imagemd.c"

static md_image g_img;
static int open_image(const uint8_t *base, size_t size, int flat) { return md_image_open(&g_img, base, size, flat); }
static uint32_t find_type(const char *ns, const char *name) { return md_image_find_type(&g_img, ns, name); }
static int methods_named(uint32_t td, const char *name, uint32_t *out, int max) { return md_image_methods_named(&g_img, td, name, out, max); }
static const char *method_name(uint32_t tok) { return md_image_method_name(&g_img, tok); }
static int names(const char *name) { return md_image_names(&g_img, name); }
*/
import "C"

import (
	"errors"
	"unsafe"
)

// Image is one image held in C memory while it is read.
type Image struct{ mem unsafe.Pointer }

// Open reads the metadata of image (flat: as the file lays it out; else
// mapped at its RVAs). Only one image is open at a time.
func Open(image []byte, flat bool) (*Image, error) {
	mem := C.CBytes(image)
	f := C.int(0)
	if flat {
		f = 1
	}
	if C.open_image((*C.uint8_t)(mem), C.size_t(len(image)), f) != 0 {
		C.free(mem)
		return nil, errors.New("imagemd: not an image the reader handles")
	}
	return &Image{mem: mem}, nil
}

// Close frees the image.
func (im *Image) Close() { C.free(im.mem) }

// FindType returns the top-level TypeDef token of ns.name, or 0.
func (im *Image) FindType(ns, name string) uint32 {
	cns, cn := C.CString(ns), C.CString(name)
	defer C.free(unsafe.Pointer(cns))
	defer C.free(unsafe.Pointer(cn))
	return uint32(C.find_type(cns, cn))
}

// MethodsNamed returns the MethodDef tokens of td named name.
func (im *Image) MethodsNamed(td uint32, name string) []uint32 {
	cn := C.CString(name)
	defer C.free(unsafe.Pointer(cn))
	out := make([]C.uint32_t, 16)
	n := int(C.methods_named(C.uint32_t(td), cn, &out[0], 16))
	toks := make([]uint32, 0, n)
	for i := 0; i < min(n, 16); i++ {
		toks = append(toks, uint32(out[i]))
	}
	return toks
}

// MethodName returns the name of MethodDef tok, and whether it exists.
func (im *Image) MethodName(tok uint32) (string, bool) {
	p := C.method_name(C.uint32_t(tok))
	if p == nil {
		return "", false
	}
	return C.GoString(p), true
}

// Names says whether the string heap may hold name (md_image_names): false
// means no entry is name or ends with it.
func (im *Image) Names(name string) bool {
	cn := C.CString(name)
	defer C.free(unsafe.Pointer(cn))
	return C.names(cn) != 0
}
