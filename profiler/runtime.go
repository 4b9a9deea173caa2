package main

/*
#include <stdlib.h>
#include "clrinfo.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/clrotel/clrotel/naming"
	"github.com/clrotel/clrotel/planning"
)

// clrRuntime answers naming's questions through the C wrappers over
// ICorProfilerInfo and IMetaDataImport2.
type clrRuntime struct{}

func hrErr(what string, hr C.int) error {
	return fmt.Errorf("%s: HRESULT %#x", what, uint32(hr))
}

// nameCall is one call of a metadata or info API that returns a name: buf
// is nil with capacity 0 (only the length is wanted), or has exactly
// capacity elements.
type nameCall func(buf *C.uint16_t, capacity C.uint32_t, n *C.uint32_t) C.int

// askName reads a name through call (see naming.ReadName).
func askName(what string, call nameCall) (string, error) {
	return naming.ReadName(what, func(buf []uint16) (uint32, int32) {
		var n C.uint32_t
		var p *C.uint16_t
		if len(buf) > 0 {
			p = (*C.uint16_t)(&buf[0])
		}
		hr := call(p, C.uint32_t(len(buf)), &n)
		return uint32(n), int32(hr)
	})
}

// enumCall is one call of a metadata enumeration: it fills at most
// capacity tokens and reports how many there are in all.
type enumCall func(toks *C.uint32_t, capacity C.uint32_t, count, total *C.uint32_t) C.int

// enumAll returns every token of an enumeration (naming.ReadTokens).
func enumAll(what string, first int, call enumCall) ([]C.uint32_t, error) {
	toks, err := naming.ReadTokens(what, first, func(buf []uint32) (uint32, uint32, int32) {
		var count, total C.uint32_t
		hr := call((*C.uint32_t)(unsafe.Pointer(&buf[0])), C.uint32_t(len(buf)), &count, &total)
		return uint32(count), uint32(total), int32(hr)
	})
	return unsafe.Slice((*C.uint32_t)(unsafe.SliceData(toks)), len(toks)), err
}

func (clrRuntime) Function(fid uint64) (naming.Function, error) {
	var d C.clr_function_desc
	if hr := C.clr_function_info(C.uintptr_t(fid), &d); hr != 0 {
		return naming.Function{}, hrErr("GetFunctionInfo2", hr)
	}
	return naming.Function{Class: uint64(d.class_id), Module: uint64(d.module_id), Token: uint32(d.token),
		TypeArgs: ids(d.type_args[:d.n_type_args])}, nil
}

func (clrRuntime) Class(cid uint64) (naming.Class, error) {
	var d C.clr_class_desc
	if hr := C.clr_class_info(C.uintptr_t(cid), &d); hr != 0 {
		return naming.Class{}, hrErr("GetClassIDInfo2", hr)
	}
	return naming.Class{
		Module: uint64(d.module_id), Token: uint32(d.token), Parent: uint64(d.parent),
		IsArray: d.is_array != 0, Elem: naming.ElementType(d.elem_type), ElemCls: uint64(d.elem_class), Rank: uint32(d.rank),
		TypeArgs: ids(d.type_args[:d.n_type_args]),
	}, nil
}

// ids are a C array's runtime IDs (ClassIDs, ModuleIDs); nil when empty.
func ids(c []C.uintptr_t) []uint64 {
	var out []uint64
	for _, id := range c {
		out = append(out, uint64(id))
	}
	return out
}

func (clrRuntime) Module(mid uint64) (*naming.Module, error) {
	path, err := askName("GetModuleInfo", func(buf *C.uint16_t, capacity C.uint32_t, n *C.uint32_t) C.int {
		var an C.uint32_t
		return C.clr_module_info(C.uintptr_t(mid), buf, capacity, n, nil, 0, &an)
	})
	if err != nil {
		return nil, err
	}
	asm, err := moduleAssembly(mid)
	if err != nil {
		return nil, err
	}
	imp := C.clr_module_import(C.uintptr_t(mid))
	if imp == nil {
		return nil, fmt.Errorf("GetModuleMetaData(%#x) failed", mid)
	}
	md := metadata{imp: imp, fields: planning.NewFieldCache(moduleFields{imp}, addedNames{})}
	return &naming.Module{Path: path, Assembly: asm, Meta: md}, nil
}

// moduleAssembly returns the name of the assembly module mid belongs to,
// from the profiling API alone. Unlike Module it opens no metadata
// importer: the runtime would convert the module's metadata to its slower
// read-write form for the rest of the run (imagemd.c), which asking about
// every loaded module cost a hello world 2-3 ms of CPU.
func moduleAssembly(mid uint64) (string, error) {
	return askName("GetAssemblyInfo", func(buf *C.uint16_t, capacity C.uint32_t, n *C.uint32_t) C.int {
		var pn C.uint32_t
		return C.clr_module_info(C.uintptr_t(mid), nil, 0, &pn, buf, capacity, n)
	})
}

// metadata is one module's IMetaDataImport2. The importer lives as long as
// the module; the profiler keeps its reference.
type metadata struct {
	imp    unsafe.Pointer
	fields *planning.FieldCache
}

func (m metadata) MethodProps(md uint32) (string, uint32, []byte, error) {
	var owner, attrs, sl C.uint32_t
	var sig *C.uint8_t
	name, err := askName("GetMethodProps", func(buf *C.uint16_t, capacity C.uint32_t, n *C.uint32_t) C.int {
		return C.md_method_props(m.imp, C.uint32_t(md), &owner, buf, capacity, n, &attrs, &sig, &sl)
	})
	if err != nil {
		return "", 0, nil, err
	}
	return name, uint32(owner), C.GoBytes(unsafe.Pointer(sig), C.int(sl)), nil
}

func (m metadata) TypeDefName(td uint32) (string, error) {
	var flags, ext C.uint32_t
	return askName("GetTypeDefProps", func(buf *C.uint16_t, capacity C.uint32_t, n *C.uint32_t) C.int {
		return C.md_typedef_props(m.imp, C.uint32_t(td), buf, capacity, n, &flags, &ext)
	})
}

// Extends returns the TypeDef's base type token (0 for none).
func (m metadata) Extends(td uint32) (uint32, error) {
	var n, flags, ext C.uint32_t
	if hr := C.md_typedef_props(m.imp, C.uint32_t(td), nil, 0, &n, &flags, &ext); hr != 0 {
		return 0, hrErr("GetTypeDefProps", hr)
	}
	return uint32(ext), nil
}

func (m metadata) EnclosingClass(td uint32) uint32 {
	var e C.uint32_t
	if C.md_enclosing_class(m.imp, C.uint32_t(td), &e) != 0 {
		return 0
	}
	return uint32(e)
}

func (m metadata) TypeRefName(tr uint32) (string, uint32, error) {
	var scope C.uint32_t
	name, err := askName("GetTypeRefProps", func(buf *C.uint16_t, capacity C.uint32_t, n *C.uint32_t) C.int {
		return C.md_typeref_props(m.imp, C.uint32_t(tr), &scope, buf, capacity, n)
	})
	return name, uint32(scope), err
}

func (m metadata) TypeSpecBlob(ts uint32) ([]byte, error) {
	var sig *C.uint8_t
	var n C.uint32_t
	if hr := C.md_typespec(m.imp, C.uint32_t(ts), &sig, &n); hr != 0 {
		return nil, hrErr("GetTypeSpecFromToken", hr)
	}
	return C.GoBytes(unsafe.Pointer(sig), C.int(n)), nil
}

func (m metadata) Params(md uint32) ([]naming.ParamRow, error) {
	toks, err := enumAll("EnumParams", 32, func(toks *C.uint32_t, capacity C.uint32_t, count, total *C.uint32_t) C.int {
		return C.md_params(m.imp, C.uint32_t(md), toks, capacity, count, total)
	})
	if err != nil {
		return nil, err
	}
	return naming.ParamRows(goTokens(toks), func(pd uint32) (naming.ParamRow, error) {
		var seq, attrs C.uint32_t
		name, err := askName("GetParamProps", func(buf *C.uint16_t, capacity C.uint32_t, n *C.uint32_t) C.int {
			return C.md_param_props(m.imp, C.uint32_t(pd), &seq, buf, capacity, n, &attrs)
		})
		return naming.ParamRow{Seq: uint32(seq), Name: name, Attrs: uint32(attrs)}, err
	}), nil
}

func (m metadata) GenericParams(owner uint32) ([]string, error) {
	toks, err := enumAll("EnumGenericParams", 8, func(toks *C.uint32_t, capacity C.uint32_t, count, total *C.uint32_t) C.int {
		return C.md_generic_params(m.imp, C.uint32_t(owner), toks, capacity, count, total)
	})
	if err != nil {
		return nil, err
	}
	return naming.GenericParamNames(goTokens(toks), func(gp uint32) (uint32, string, error) {
		var seq C.uint32_t
		name, err := askName("GetGenericParamProps", func(buf *C.uint16_t, capacity C.uint32_t, n *C.uint32_t) C.int {
			return C.md_generic_param_props(m.imp, C.uint32_t(gp), &seq, buf, capacity, n)
		})
		return uint32(seq), name, err
	}), nil
}

// goTokens is toks as Go's uint32s (the same memory).
func goTokens(toks []C.uint32_t) []uint32 {
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(toks))), len(toks))
}
