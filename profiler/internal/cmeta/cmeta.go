package cmeta

/*
#cgo CFLAGS: -O1 -g -Wall -Wno-unused-function -fstack-protector-strong -D_FORTIFY_SOURCE=2
#include <stdlib.h>
#include "fake.h"
#include "clrinfo.h"
*/
import "C"

import (
	"fmt"
	"unicode/utf16"
	"unsafe"
)

// Reset sets the fake runtime up: every name it reports is name, every
// class has nfields fields (and every enumeration that many entries), and
// every function and class ntypeArgs type arguments.
func Reset(name string, nfields, ntypeArgs int) {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	C.fake_reset(cs, C.uint32_t(nfields), C.uint32_t(ntypeArgs))
	C.clr_module_loaded(0x3000) // the fake classes' module
}

// Violations is how many calls broke the buffer contract since Reset, and
// the last of them.
func Violations() (int, string) {
	return int(C.fake_violations()), C.GoString(C.fake_last_violation())
}

// nameCall is a wrapper that returns a name: buf is NULL with capacity 0,
// or holds capacity UTF-16 units.
type nameCall func(buf *C.uint16_t, capacity C.uint32_t, n *C.uint32_t) C.int

// ask asks for the length first, then reads the name into C memory of
// exactly that size (so that AddressSanitizer sees any overrun).
func ask(call nameCall) (string, error) {
	var n C.uint32_t
	if hr := call(nil, 0, &n); hr != 0 {
		return "", fmt.Errorf("HRESULT %#x", uint32(hr))
	}
	if n == 0 {
		return "", nil
	}
	buf := (*C.uint16_t)(C.malloc(C.size_t(n) * 2))
	defer C.free(unsafe.Pointer(buf))
	var got C.uint32_t
	if hr := call(buf, n, &got); hr != 0 {
		return "", fmt.Errorf("HRESULT %#x", uint32(hr))
	}
	u := unsafe.Slice((*uint16)(unsafe.Pointer(buf)), int(n))
	l := min(int(got), len(u))
	for l > 0 && u[l-1] == 0 {
		l--
	}
	return string(utf16.Decode(u[:l])), nil
}

// Names reads one name through each name-returning wrapper.
func Names() (map[string]string, error) {
	imp := C.fake_import()
	var u32 C.uint32_t
	var sig *C.uint8_t
	calls := map[string]nameCall{
		"field": func(b *C.uint16_t, c C.uint32_t, n *C.uint32_t) C.int {
			return C.md_field_props(imp, 0x04000001, &u32, b, c, n, &u32, &sig, &u32)
		},
		"method": func(b *C.uint16_t, c C.uint32_t, n *C.uint32_t) C.int {
			return C.md_method_props(imp, 0x06000001, &u32, b, c, n, &u32, &sig, &u32)
		},
		"typedef": func(b *C.uint16_t, c C.uint32_t, n *C.uint32_t) C.int {
			return C.md_typedef_props(imp, 0x02000002, b, c, n, &u32, &u32)
		},
		"typeref": func(b *C.uint16_t, c C.uint32_t, n *C.uint32_t) C.int {
			return C.md_typeref_props(imp, 0x01000001, &u32, b, c, n)
		},
		"memberref": func(b *C.uint16_t, c C.uint32_t, n *C.uint32_t) C.int {
			return C.md_memberref_props(imp, 0x0a000001, &u32, b, c, n, &sig, &u32)
		},
		"param": func(b *C.uint16_t, c C.uint32_t, n *C.uint32_t) C.int {
			return C.md_param_props(imp, 0x08000001, &u32, b, c, n, &u32)
		},
		"generic param": func(b *C.uint16_t, c C.uint32_t, n *C.uint32_t) C.int {
			return C.md_generic_param_props(imp, 0x2A000001, &u32, b, c, n)
		},
		"module": func(b *C.uint16_t, c C.uint32_t, n *C.uint32_t) C.int {
			return C.clr_module_info(0x3000, b, c, n, nil, 0, &u32)
		},
		"assembly": func(b *C.uint16_t, c C.uint32_t, n *C.uint32_t) C.int {
			return C.clr_module_info(0x3000, nil, 0, &u32, b, c, n)
		},
	}
	out := map[string]string{}
	for k, call := range calls {
		s, err := ask(call)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		out[k] = s
	}
	return out, nil
}

// FieldConstant reads a literal field's value, as enums are read.
func FieldConstant() (uint64, uint32, error) {
	var v C.uint64_t
	var attrs C.uint32_t
	if hr := C.md_field_constant(C.fake_import(), 0x04000001, &v, &attrs); hr != 0 {
		return 0, 0, fmt.Errorf("md_field_constant: %d", int(hr))
	}
	return uint64(v), uint32(attrs), nil
}

type enumCall func(toks *C.uint32_t, capacity C.uint32_t, count, total *C.uint32_t) C.int

// Enums reads every token of each enumeration, starting with room for
// first entries and asking again with room for all.
func Enums(first int) (map[string]int, error) {
	imp := C.fake_import()
	name := [...]C.uint16_t{'F', 0}
	calls := map[string]enumCall{
		"fields": func(t *C.uint32_t, c C.uint32_t, n, all *C.uint32_t) C.int {
			return C.md_enum_fields(imp, 0x02000002, t, c, n, all)
		},
		"params": func(t *C.uint32_t, c C.uint32_t, n, all *C.uint32_t) C.int {
			return C.md_params(imp, 0x06000001, t, c, n, all)
		},
		"methods named": func(t *C.uint32_t, c C.uint32_t, n, all *C.uint32_t) C.int {
			return C.md_methods_named(imp, 0x02000002, &name[0], t, c, n, all)
		},
		"generic params": func(t *C.uint32_t, c C.uint32_t, n, all *C.uint32_t) C.int {
			return C.md_generic_params(imp, 0x02000002, t, c, n, all)
		},
	}
	out := map[string]int{}
	for k, call := range calls {
		size := first
		for try := 0; ; try++ {
			toks := (*C.uint32_t)(C.malloc(C.size_t(max(size, 1)) * 4))
			var n, all C.uint32_t
			hr := call(toks, C.uint32_t(size), &n, &all)
			C.free(unsafe.Pointer(toks))
			if hr != 0 {
				return nil, fmt.Errorf("%s: %d", k, int(hr))
			}
			if int(all) <= size {
				out[k] = int(n)
				break
			}
			if try > 0 {
				return nil, fmt.Errorf("%s: %d entries after asking for %d", k, int(all), size)
			}
			size = int(all)
		}
	}
	return out, nil
}

// Layout reads a class layout: the count first, then all fields.
func Layout() (int, error) {
	var n, size C.uint32_t
	if hr := C.clr_class_layout(0x2000, nil, 0, &n, &size); hr != 0 {
		return 0, fmt.Errorf("count: %d", int(hr))
	}
	if n == 0 {
		return 0, nil
	}
	f := (*C.clr_field_offset)(C.malloc(C.size_t(n) * C.size_t(unsafe.Sizeof(C.clr_field_offset{}))))
	defer C.free(unsafe.Pointer(f))
	var got C.uint32_t
	if hr := C.clr_class_layout(0x2000, f, n, &got, &size); hr != 0 {
		return 0, fmt.Errorf("fields: %d", int(hr))
	}
	fields := unsafe.Slice(f, int(n))
	for i, x := range fields {
		if uint32(x.token) != 0x04000001+uint32(i) {
			return 0, fmt.Errorf("field %d: token %#x", i, uint32(x.token))
		}
	}
	return int(got), nil
}

// TypeArgs reads a function's and a class's type arguments through the
// wrappers' fixed buffers.
func TypeArgs() (fn, class int, fnErr, classErr error) {
	var fd C.clr_function_desc
	if hr := C.clr_function_info(0x10, &fd); hr != 0 {
		fnErr = fmt.Errorf("clr_function_info: %#x", uint32(hr))
	}
	var cd C.clr_class_desc
	if hr := C.clr_class_info(0x2000, &cd); hr != 0 {
		classErr = fmt.Errorf("clr_class_info: %#x", uint32(hr))
	}
	return int(fd.n_type_args), int(cd.n_type_args), fnErr, classErr
}

// MaxTypeArgs is the wrappers' fixed capacity for type arguments.
const MaxTypeArgs = C.CLR_MAX_TYPE_ARGS

// Code is C memory that stubs are laid out in: its addresses do not move.
type Code struct {
	p     unsafe.Pointer
	Bytes []byte
}

// NewCode allocates n zeroed bytes of C memory.
func NewCode(n int) Code {
	p := C.calloc(C.size_t(n), 1)
	return Code{p, unsafe.Slice((*byte)(p), n)}
}

// Free releases the memory.
func (c Code) Free() { C.free(c.p) }

// Addr is the address of byte off.
func (c Code) Addr(off int) uint64 { return uint64(uintptr(c.p)) + uint64(off) }

// SetCode makes ip the compiled code of function fid, for the fake's
// GetFunctionFromIP (0: no code is known).
func SetCode(ip, fid uint64) { C.fake_set_code(C.uintptr_t(ip), C.uintptr_t(fid)) }

// UnloadModule makes the fake classes' module unknown until the next Reset.
func UnloadModule() { C.clr_module_unloaded(0x3000) }

// CodeFunction is clr_code_function: the function a code pointer leads to.
func CodeFunction(ip uint64) (uint64, bool) {
	var fid C.uintptr_t
	if C.clr_code_function(C.uintptr_t(ip), &fid) != 0 {
		return 0, false
	}
	return uint64(fid), true
}
