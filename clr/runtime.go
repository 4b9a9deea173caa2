package clr

/*
#include <stdlib.h>
#include "clrinfo.h"
*/
import "C"

import (
	"fmt"

	"github.com/clrotel/clrotel/naming"
	"github.com/clrotel/clrotel/planning"
)

// Runtime answers naming's questions through the C wrappers over
// ICorProfilerInfo and IMetaDataImport2.
type Runtime struct{}

var _ naming.Runtime = Runtime{}

func (Runtime) Function(fid uint64) (naming.Function, error) {
	var d C.clr_function_desc
	if hr := C.clr_function_info(C.uintptr_t(fid), &d); hr != 0 {
		return naming.Function{}, hrErr("GetFunctionInfo2", hr)
	}
	return naming.Function{Class: uint64(d.class_id), Module: uint64(d.module_id), Token: uint32(d.token),
		TypeArgs: ids(d.type_args[:d.n_type_args])}, nil
}

func (Runtime) Class(cid uint64) (naming.Class, error) {
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

func (Runtime) Module(mid uint64) (*naming.Module, error) {
	path, err := askName("GetModuleInfo", func(buf *C.uint16_t, capacity C.uint32_t, n *C.uint32_t) C.int {
		var an C.uint32_t
		return C.clr_module_info(C.uintptr_t(mid), buf, capacity, n, nil, 0, &an)
	})
	if err != nil {
		return nil, err
	}
	asm, err := ModuleAssembly(mid)
	if err != nil {
		return nil, err
	}
	imp := C.clr_module_import(C.uintptr_t(mid))
	if imp == nil {
		return nil, fmt.Errorf("GetModuleMetaData(%#x) failed", mid)
	}
	md := Metadata{imp: imp, fields: planning.NewFieldCache(moduleFields{imp}, addedNames{})}
	return &naming.Module{Path: path, Assembly: asm, Meta: md}, nil
}

// ModuleAssembly returns the name of the assembly module mid belongs to,
// from the profiling API alone. Unlike Module it opens no metadata
// importer: the runtime would convert the module's metadata to its slower
// read-write form for the rest of the run (imagemd.c), which asking about
// every loaded module cost a hello world 2-3 ms of CPU.
func ModuleAssembly(mid uint64) (string, error) {
	return askName("GetAssemblyInfo", func(buf *C.uint16_t, capacity C.uint32_t, n *C.uint32_t) C.int {
		var pn C.uint32_t
		return C.clr_module_info(C.uintptr_t(mid), nil, 0, &pn, buf, capacity, n)
	})
}

// MethodDef returns the module and MethodDef token of function fid, without
// its type arguments.
func MethodDef(fid uint64) (module uint64, token uint32, err error) {
	var d C.clr_function_desc
	if hr := C.clr_function_info(C.uintptr_t(fid), &d); hr != 0 {
		return 0, 0, hrErr("GetFunctionInfo2", hr)
	}
	return uint64(d.module_id), uint32(d.token), nil
}
