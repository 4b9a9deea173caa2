package cdisarm

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include "disarm.h"

static void *lib;

static int load(const char *path) {
	lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	return lib != NULL;
}

static void *sym(const char *name) { return lib ? dlsym(lib, name) : NULL; }

static int call_int(void *fn) { return ((int (*)(void))fn)(); }

static int disarm(void *anchor, const char *name) {
	const char *names[1] = {name};
	return clr_disarm(anchor, names, 1);
}
*/
import "C"

import (
	"errors"
	"unsafe"
)

// Load dlopens the shared library at path (one per test process).
func Load(path string) error {
	cs := C.CString(path)
	defer C.free(unsafe.Pointer(cs))
	if C.load(cs) == 0 {
		return errors.New(C.GoString(C.dlerror()))
	}
	return nil
}

// Call calls the loaded library's exported function name, which takes
// nothing and returns an int.
func Call(name string) int {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	fn := C.sym(cs)
	if fn == nil {
		panic("no symbol " + name)
	}
	return int(C.call_int(fn))
}

// Disarm runs clr_disarm on name in the library that holds the exported
// function anchor ("" for no anchor).
func Disarm(anchor, name string) int {
	var a unsafe.Pointer
	if anchor != "" {
		ca := C.CString(anchor)
		defer C.free(unsafe.Pointer(ca))
		a = C.sym(ca)
	}
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	return int(C.disarm(a, cs))
}
