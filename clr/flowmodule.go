package clr

/*
#include "clrinfo.h"
*/
import "C"

import (
	"unsafe"

	"github.com/clrotel/clrotel/flows"
	"github.com/clrotel/clrotel/planning"
)

// FlowModule answers flows.Gather from a module's metadata and the
// runtime's class layouts.
type FlowModule struct {
	Meta   Metadata
	Module uint64
	// Iterators are the traced iterators' enumerator types.
	Iterators *flows.Iterators
}

var _ flows.Module = FlowModule{}

func (f FlowModule) AttributeBlob(token uint32, attr string) ([]byte, bool) {
	return f.Meta.AttributeBlob(token, attr)
}

func (f FlowModule) FindNested(name string) (uint32, bool) { return f.Meta.FindNested(name) }
func (f FlowModule) Added(td uint32) (flows.Added, error)  { return f.Meta.fields.Added(td) }
func (f FlowModule) EnclosingClass(td uint32) uint32       { return f.Meta.EnclosingClass(td) }
func (f FlowModule) GenericParams(owner uint32) ([]string, error) {
	return f.Meta.GenericParams(owner)
}
func (f FlowModule) IteratorTracked(td uint32) bool {
	return f.Iterators.Has(f.Module, td)
}

func (f FlowModule) ILBody(token uint32) ([]byte, bool) { return ILBody(f.Module, token) }

// ILBody is the body (header and IL) of MethodDef token of a module, a
// copy; false when the runtime gives none.
func ILBody(module uint64, token uint32) ([]byte, bool) {
	var body *C.uint8_t
	var n C.uint32_t
	if C.clr_il_body(C.uintptr_t(module), C.uint32_t(token), &body, &n) != 0 || n == 0 {
		return nil, false
	}
	return C.GoBytes(unsafe.Pointer(body), C.int(n)), true
}

func (f FlowModule) ConstructedType(ctor uint32) (uint32, bool) {
	switch ctor >> 24 {
	case 0x06: // MethodDef
		_, owner, _, err := f.Meta.MethodProps(ctor)
		return owner, err == nil
	case 0x0a: // MemberRef
		parent, _, _, err := f.Meta.MemberRef(ctor)
		if err != nil {
			return 0, false
		}
		switch parent >> 24 {
		case 0x02:
			return parent, true
		case 0x1b:
			sig, err := f.Meta.TypeSpecBlob(parent)
			if err != nil {
				return 0, false
			}
			return flows.GenericTypeDef(sig)
		}
	}
	return 0, false
}

func (f FlowModule) ClassOf(td uint32) (uint64, error) { return TypeSource{}.ClassOf(f.Module, td) }

// tdSealed is TypeAttributes.Sealed (ECMA-335 II.23.1.15).
const tdSealed = 0x100

func (f FlowModule) SealedClass(td uint32) bool {
	flags, err := f.Meta.TypeDefFlags(td)
	if err != nil || flags&tdSealed == 0 {
		return false
	}
	names := planning.PerModule(nil, func(uint64) (planning.Metadata, error) { return f.Meta, nil })
	return !planning.ValueType(names, f.Module, td)
}

func (f FlowModule) Layout(cid uint64) ([]flows.FieldAt, error) {
	layout, _, err := ClassLayout(cid)
	out := make([]flows.FieldAt, len(layout))
	for i, fl := range layout {
		out[i] = flows.FieldAt{Token: fl.Token, Offset: fl.Offset}
	}
	return out, err
}
