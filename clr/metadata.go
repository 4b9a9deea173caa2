package clr

/*
#include "clrinfo.h"
*/
import "C"

import (
	"strings"
	"unsafe"

	"github.com/clrotel/clrotel/naming"
	"github.com/clrotel/clrotel/planning"
)

// Metadata is one module's IMetaDataImport2 (naming's and planning's
// metadata questions). The importer lives as long as the module; the
// profiler keeps its reference.
type Metadata struct {
	imp    unsafe.Pointer
	fields *planning.FieldCache
}

var _ planning.Metadata = Metadata{}

func (m Metadata) MethodProps(md uint32) (string, uint32, []byte, error) {
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

// MethodAttrs is a MethodDef's attributes (CorMethodAttr).
func (m Metadata) MethodAttrs(md uint32) (uint32, error) {
	var owner, attrs, sl, n C.uint32_t
	var sig *C.uint8_t
	if hr := C.md_method_props(m.imp, C.uint32_t(md), &owner, nil, 0, &n, &attrs, &sig, &sl); hr < 0 {
		return 0, hrErr("GetMethodProps", hr)
	}
	return uint32(attrs), nil
}

func (m Metadata) TypeDefName(td uint32) (string, error) {
	var flags, ext C.uint32_t
	return askName("GetTypeDefProps", func(buf *C.uint16_t, capacity C.uint32_t, n *C.uint32_t) C.int {
		return C.md_typedef_props(m.imp, C.uint32_t(td), buf, capacity, n, &flags, &ext)
	})
}

// Extends returns the TypeDef's base type token (0 for none).
func (m Metadata) Extends(td uint32) (uint32, error) {
	_, ext, err := m.typeDefProps(td)
	return ext, err
}

// TypeDefFlags returns the TypeDef's TypeAttributes.
func (m Metadata) TypeDefFlags(td uint32) (uint32, error) {
	flags, _, err := m.typeDefProps(td)
	return flags, err
}

// typeDefProps returns the TypeDef's TypeAttributes and base type token.
func (m Metadata) typeDefProps(td uint32) (flags, extends uint32, err error) {
	var n, f, ext C.uint32_t
	if hr := C.md_typedef_props(m.imp, C.uint32_t(td), nil, 0, &n, &f, &ext); hr != 0 {
		return 0, 0, hrErr("GetTypeDefProps", hr)
	}
	return uint32(f), uint32(ext), nil
}

func (m Metadata) EnclosingClass(td uint32) uint32 {
	var e C.uint32_t
	if C.md_enclosing_class(m.imp, C.uint32_t(td), &e) != 0 {
		return 0
	}
	return uint32(e)
}

func (m Metadata) TypeRefName(tr uint32) (string, uint32, error) {
	var scope C.uint32_t
	name, err := askName("GetTypeRefProps", func(buf *C.uint16_t, capacity C.uint32_t, n *C.uint32_t) C.int {
		return C.md_typeref_props(m.imp, C.uint32_t(tr), &scope, buf, capacity, n)
	})
	return name, uint32(scope), err
}

func (m Metadata) TypeSpecBlob(ts uint32) ([]byte, error) {
	var sig *C.uint8_t
	var n C.uint32_t
	if hr := C.md_typespec(m.imp, C.uint32_t(ts), &sig, &n); hr != 0 {
		return nil, hrErr("GetTypeSpecFromToken", hr)
	}
	return C.GoBytes(unsafe.Pointer(sig), C.int(n)), nil
}

func (m Metadata) Params(md uint32) ([]naming.ParamRow, error) {
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

func (m Metadata) GenericParams(owner uint32) ([]string, error) {
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

func (m Metadata) FindTypeDef(name string, enclosing uint32) (uint32, bool) {
	w := utf16z(name)
	var td C.uint32_t
	if C.md_find_typedef(m.imp, &w[0], C.uint32_t(enclosing), &td) != 0 {
		return 0, false
	}
	return uint32(td), true
}

// FindNested finds a TypeDef by its reflection name, nested types joined
// by '+' (Acme.Handler+<Handle>d__3).
func (m Metadata) FindNested(name string) (td uint32, ok bool) {
	for _, part := range strings.Split(name, "+") {
		if td, ok = m.FindTypeDef(part, td); !ok {
			return 0, false
		}
	}
	return td, true
}

func (m Metadata) Fields(td uint32) ([]uint32, error)           { return m.fields.Fields(td) }
func (m Metadata) Field(fd uint32) (planning.FieldProps, error) { return m.fields.Field(fd) }

func (m Metadata) Constant(fd uint32) (uint64, uint32, bool) {
	var v C.uint64_t
	var attrs C.uint32_t
	if C.md_field_constant(m.imp, C.uint32_t(fd), &v, &attrs) != 0 {
		return 0, 0, false
	}
	return uint64(v), uint32(attrs), true
}

// MemberRef is a MemberRef's parent (a TypeDef, TypeRef, TypeSpec...),
// name and signature.
func (m Metadata) MemberRef(mr uint32) (parent uint32, name string, sig []byte, err error) {
	var p, sl C.uint32_t
	var s *C.uint8_t
	name, err = askName("GetMemberRefProps", func(buf *C.uint16_t, capacity C.uint32_t, n *C.uint32_t) C.int {
		return C.md_memberref_props(m.imp, C.uint32_t(mr), &p, buf, capacity, n, &s, &sl)
	})
	if err != nil {
		return 0, "", nil, err
	}
	return uint32(p), name, C.GoBytes(unsafe.Pointer(s), C.int(sl)), nil
}

// MethodSpecParent is the method a MethodSpec instantiates.
func (m Metadata) MethodSpecParent(ms uint32) (uint32, error) {
	var p C.uint32_t
	if hr := C.md_methodspec_parent(m.imp, C.uint32_t(ms), &p); hr != 0 {
		return 0, hrErr("GetMethodSpecProps", hr)
	}
	return uint32(p), nil
}

// FindMethod is the MethodDef of TypeDef td with this name and signature
// (a signature of this module: its tokens are the module's).
func (m Metadata) FindMethod(td uint32, name string, sig []byte) (uint32, bool) {
	if len(sig) == 0 {
		return 0, false
	}
	w := utf16z(name)
	var md C.uint32_t
	ok := C.md_find_method(m.imp, C.uint32_t(td), &w[0], (*C.uint8_t)(&sig[0]), C.uint32_t(len(sig)), &md) == 0
	return uint32(md), ok
}

// MethodsNamed is the MethodDefs of TypeDef td with this name.
func (m Metadata) MethodsNamed(td uint32, name string) ([]uint32, error) {
	w := utf16z(name)
	toks, err := enumAll("EnumMethodsWithName", 8, func(toks *C.uint32_t, capacity C.uint32_t, count, total *C.uint32_t) C.int {
		return C.md_methods_named(m.imp, C.uint32_t(td), &w[0], toks, capacity, count, total)
	})
	return goTokens(toks), err
}
