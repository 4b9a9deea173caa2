package main

/*
#include "clrinfo.h"
#include "profiler.h"
*/
import "C"

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unsafe"

	"github.com/clrotel/clrotel/naming"
	"github.com/clrotel/clrotel/planning"
)

// typeSource answers the value planner's questions of the runtime
// (planning.Runtime) through the profiling API; its modules' metadata
// answer the rest (planning.PerModule).
type typeSource struct {
	resolver *naming.Resolver
}

var _ planning.Runtime = typeSource{}

// metadata opens a module's metadata (its importer, and its field cache).
func (s typeSource) metadata(module uint64) (planning.Metadata, error) {
	mod, err := s.resolver.ModuleInfo(module)
	if err != nil {
		return nil, err
	}
	return mod.Meta.(metadata), nil
}

func (s typeSource) Class(cid uint64) (naming.Class, error) { return clrRuntime{}.Class(cid) }

func (s typeSource) ClassName(cid uint64) string { return s.resolver.ClassName(cid) }

func (s typeSource) Layout(cid uint64) ([]planning.FieldOffset, uint32, error) {
	return classLayout(cid)
}

func (s typeSource) BoxOffset(cid uint64) (uint32, bool) {
	var off C.uint32_t
	if C.clr_box_offset(C.uintptr_t(cid), &off) != 0 {
		return 0, false
	}
	return uint32(off), true
}

func (s typeSource) ClassOf(module uint64, td uint32) (uint64, error) {
	var cid C.uintptr_t
	if hr := C.clr_class_from_token(C.uintptr_t(module), C.uint32_t(td), &cid); hr != 0 || cid == 0 {
		return 0, hrErr("GetClassFromToken", hr)
	}
	return uint64(cid), nil
}

func (s typeSource) Instantiate(module uint64, td uint32, args []uint64) (uint64, error) {
	if len(args) == 0 {
		return 0, fmt.Errorf("GetClassFromTokenAndTypeArgs: no type arguments")
	}
	ids := make([]C.uintptr_t, len(args))
	for i, a := range args {
		ids[i] = C.uintptr_t(a)
	}
	var cid C.uintptr_t
	if hr := C.clr_class_from_token_args(C.uintptr_t(module), C.uint32_t(td), C.uint32_t(len(ids)), &ids[0], &cid); hr != 0 {
		return 0, hrErr("GetClassFromTokenAndTypeArgs", hr)
	}
	return uint64(cid), nil
}

// maxModules bounds the modules one lookup by name scans.
const maxModules = 8192

func (s typeSource) Modules() []uint64 { return loadedModules(make([]C.uintptr_t, maxModules), nil) }

// loadedModules lists the loaded modules into out, through buf.
func loadedModules(buf []C.uintptr_t, out []uint64) []uint64 {
	n := C.clr_modules(&buf[0], C.uint32_t(len(buf)))
	for _, m := range buf[:n] {
		out = append(out, uint64(m))
	}
	return out
}

func (s typeSource) ModuleLoaded(module uint64) bool {
	return C.clr_module_known(C.uintptr_t(module)) != 0
}

func (m metadata) FindTypeDef(name string, enclosing uint32) (uint32, bool) {
	w := utf16z(name)
	var td C.uint32_t
	if C.md_find_typedef(m.imp, &w[0], C.uint32_t(enclosing), &td) != 0 {
		return 0, false
	}
	return uint32(td), true
}

// FindNested finds a TypeDef by its reflection name, nested types joined
// by '+' (Acme.Handler+<Handle>d__3).
func (m metadata) FindNested(name string) (td uint32, ok bool) {
	for _, part := range strings.Split(name, "+") {
		if td, ok = m.FindTypeDef(part, td); !ok {
			return 0, false
		}
	}
	return td, true
}

func (m metadata) Fields(td uint32) ([]uint32, error)           { return m.fields.Fields(td) }
func (m metadata) Field(fd uint32) (planning.FieldProps, error) { return m.fields.Field(fd) }

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

func (m metadata) Constant(fd uint32) (uint64, uint32, bool) {
	var v C.uint64_t
	var attrs C.uint32_t
	if C.md_field_constant(m.imp, C.uint32_t(fd), &v, &attrs) != 0 {
		return 0, 0, false
	}
	return uint64(v), uint32(attrs), true
}

// utf16z is name as a NUL-terminated UTF-16 string.
func utf16z(name string) []C.uint16_t {
	u := utf16.Encode([]rune(name + "\x00"))
	return unsafe.Slice((*C.uint16_t)(unsafe.Pointer(&u[0])), len(u))
}

// classLayout returns a class's instance fields (token and offset) and its
// size, asking the runtime for the count first.
func classLayout(cid uint64) ([]planning.FieldOffset, uint32, error) {
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
