package clr

/*
#include "clrinfo.h"
*/
import "C"

import (
	"fmt"

	"github.com/clrotel/clrotel/naming"
	"github.com/clrotel/clrotel/planning"
)

// TypeSource answers the value planner's questions of the runtime
// (planning.Runtime) through the profiling API; its modules' metadata
// answer the rest (planning.PerModule with Metadata).
type TypeSource struct {
	Resolver *naming.Resolver
}

var _ planning.Runtime = TypeSource{}

// Metadata opens a module's metadata (its importer, and its field cache).
func (s TypeSource) Metadata(module uint64) (planning.Metadata, error) {
	mod, err := s.Resolver.ModuleInfo(module)
	if err != nil {
		return nil, err
	}
	return mod.Meta.(Metadata), nil
}

func (s TypeSource) Class(cid uint64) (naming.Class, error) { return Runtime{}.Class(cid) }

func (s TypeSource) ClassName(cid uint64) string { return s.Resolver.ClassName(cid) }

func (s TypeSource) Layout(cid uint64) ([]planning.FieldOffset, uint32, error) {
	return ClassLayout(cid)
}

func (s TypeSource) BoxOffset(cid uint64) (uint32, bool) {
	var off C.uint32_t
	if C.clr_box_offset(C.uintptr_t(cid), &off) != 0 {
		return 0, false
	}
	return uint32(off), true
}

func (s TypeSource) ClassOf(module uint64, td uint32) (uint64, error) {
	var cid C.uintptr_t
	if hr := C.clr_class_from_token(C.uintptr_t(module), C.uint32_t(td), &cid); hr != 0 || cid == 0 {
		return 0, hrErr("GetClassFromToken", hr)
	}
	return uint64(cid), nil
}

func (s TypeSource) Instantiate(module uint64, td uint32, args []uint64) (uint64, error) {
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

func (s TypeSource) Modules() []uint64 { return LoadedModules() }

func (s TypeSource) ModuleLoaded(module uint64) bool { return ModuleLoaded(module) }
