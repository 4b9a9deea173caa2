package main

/*
#include <stdlib.h>
#include "clrinfo.h"
*/
import "C"

import (
	"fmt"
	"unicode/utf16"
	"unsafe"

	"github.com/clrotel/clrotel/naming"
)

// clrRuntime answers naming's questions through the C wrappers over
// ICorProfilerInfo and IMetaDataImport2.
type clrRuntime struct{}

const nameCap = 1024

func hrErr(what string, hr C.int) error {
	return fmt.Errorf("%s: HRESULT %#x", what, uint32(hr))
}

func utf16String(buf []uint16, n C.uint32_t) string {
	// Lengths the runtime reports include the terminating NUL.
	l := int(n)
	if l > len(buf) {
		l = len(buf)
	}
	for l > 0 && buf[l-1] == 0 {
		l--
	}
	return string(utf16.Decode(buf[:l]))
}

func (clrRuntime) Function(fid uint64) (naming.Function, error) {
	var d C.clr_function_desc
	if hr := C.clr_function_info(C.uintptr_t(fid), &d); hr != 0 {
		return naming.Function{}, hrErr("GetFunctionInfo2", hr)
	}
	f := naming.Function{Class: uint64(d.class_id), Module: uint64(d.module_id), Token: uint32(d.token)}
	for i := 0; i < int(d.n_type_args); i++ {
		f.TypeArgs = append(f.TypeArgs, uint64(d.type_args[i]))
	}
	return f, nil
}

func (clrRuntime) Class(cid uint64) (naming.Class, error) {
	var d C.clr_class_desc
	if hr := C.clr_class_info(C.uintptr_t(cid), &d); hr != 0 {
		return naming.Class{}, hrErr("GetClassIDInfo2", hr)
	}
	c := naming.Class{
		Module: uint64(d.module_id), Token: uint32(d.token), Parent: uint64(d.parent),
		IsArray: d.is_array != 0, Elem: naming.ElementType(d.elem_type), ElemCls: uint64(d.elem_class), Rank: uint32(d.rank),
	}
	for i := 0; i < int(d.n_type_args); i++ {
		c.TypeArgs = append(c.TypeArgs, uint64(d.type_args[i]))
	}
	return c, nil
}

func (clrRuntime) Module(mid uint64) (*naming.Module, error) {
	path := make([]uint16, nameCap)
	asm := make([]uint16, nameCap)
	var n, an C.uint32_t
	if hr := C.clr_module_info(C.uintptr_t(mid), (*C.uint16_t)(&path[0]), nameCap, &n, (*C.uint16_t)(&asm[0]), nameCap, &an); hr != 0 {
		return nil, hrErr("GetModuleInfo", hr)
	}
	imp := C.clr_module_import(C.uintptr_t(mid))
	if imp == nil {
		return nil, fmt.Errorf("GetModuleMetaData(%#x) failed", mid)
	}
	return &naming.Module{Path: utf16String(path, n), Assembly: utf16String(asm, an), Meta: metadata{imp}}, nil
}

// metadata is one module's IMetaDataImport2. The importer lives as long as
// the module; the profiler keeps its reference.
type metadata struct{ imp unsafe.Pointer }

func (m metadata) MethodProps(md uint32) (string, uint32, []byte, error) {
	name := make([]uint16, nameCap)
	var owner, n, attrs, sl C.uint32_t
	var sig *C.uint8_t
	if hr := C.md_method_props(m.imp, C.uint32_t(md), &owner, (*C.uint16_t)(&name[0]), nameCap, &n, &attrs, &sig, &sl); hr != 0 {
		return "", 0, nil, hrErr("GetMethodProps", hr)
	}
	return utf16String(name, n), uint32(owner), C.GoBytes(unsafe.Pointer(sig), C.int(sl)), nil
}

func (m metadata) TypeDefName(td uint32) (string, error) {
	name := make([]uint16, nameCap)
	var n, flags, ext C.uint32_t
	if hr := C.md_typedef_props(m.imp, C.uint32_t(td), (*C.uint16_t)(&name[0]), nameCap, &n, &flags, &ext); hr != 0 {
		return "", hrErr("GetTypeDefProps", hr)
	}
	return utf16String(name, n), nil
}

func (m metadata) EnclosingClass(td uint32) uint32 {
	var e C.uint32_t
	if C.md_enclosing_class(m.imp, C.uint32_t(td), &e) != 0 {
		return 0
	}
	return uint32(e)
}

func (m metadata) TypeRefName(tr uint32) (string, uint32, error) {
	name := make([]uint16, nameCap)
	var scope, n C.uint32_t
	if hr := C.md_typeref_props(m.imp, C.uint32_t(tr), &scope, (*C.uint16_t)(&name[0]), nameCap, &n); hr != 0 {
		return "", 0, hrErr("GetTypeRefProps", hr)
	}
	return utf16String(name, n), uint32(scope), nil
}

func (m metadata) TypeSpecBlob(ts uint32) ([]byte, error) {
	var sig *C.uint8_t
	var n C.uint32_t
	if hr := C.md_typespec(m.imp, C.uint32_t(ts), &sig, &n); hr != 0 {
		return nil, hrErr("GetTypeSpecFromToken", hr)
	}
	return C.GoBytes(unsafe.Pointer(sig), C.int(n)), nil
}

const maxParams = 256

func (m metadata) Params(md uint32) ([]naming.ParamRow, error) {
	toks := make([]C.uint32_t, maxParams)
	var count C.uint32_t
	if hr := C.md_params(m.imp, C.uint32_t(md), &toks[0], maxParams, &count); hr != 0 {
		return nil, hrErr("EnumParams", hr)
	}
	rows := make([]naming.ParamRow, 0, count)
	name := make([]uint16, nameCap)
	for _, pd := range toks[:count] {
		var seq, n, attrs C.uint32_t
		if C.md_param_props(m.imp, pd, &seq, (*C.uint16_t)(&name[0]), nameCap, &n, &attrs) != 0 {
			continue
		}
		rows = append(rows, naming.ParamRow{Seq: uint32(seq), Name: utf16String(name, n), Attrs: uint32(attrs)})
	}
	return rows, nil
}

func (m metadata) GenericParams(owner uint32) ([]string, error) {
	toks := make([]C.uint32_t, 64)
	var count C.uint32_t
	if hr := C.md_generic_params(m.imp, C.uint32_t(owner), &toks[0], 64, &count); hr != 0 {
		return nil, hrErr("EnumGenericParams", hr)
	}
	names := make([]string, count)
	name := make([]uint16, nameCap)
	for _, gp := range toks[:count] {
		var seq, n C.uint32_t
		if C.md_generic_param_props(m.imp, gp, &seq, (*C.uint16_t)(&name[0]), nameCap, &n) != 0 || int(seq) >= len(names) {
			continue
		}
		names[seq] = utf16String(name, n)
	}
	return names, nil
}
