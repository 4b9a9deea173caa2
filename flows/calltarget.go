package flows

import (
	"errors"
	"fmt"
)

// Metadata token tables (ECMA-335 II.22) a call's method token may be in,
// and those of its parent.
const (
	tokTypeRef    = 0x01
	tokTypeDef    = 0x02
	tokMethodDef  = 0x06
	tokMemberRef  = 0x0a
	tokTypeSpec   = 0x1b
	tokMethodSpec = 0x2b
)

// CallMeta is what naming a call's callee asks of the calling module's
// metadata.
type CallMeta interface {
	// MemberRef is a MemberRef's parent, name and signature.
	MemberRef(mr uint32) (parent uint32, name string, sig []byte, err error)
	// MethodSpecParent is the MethodDef or MemberRef a MethodSpec
	// instantiates.
	MethodSpecParent(ms uint32) (uint32, error)
	TypeSpecBlob(ts uint32) ([]byte, error)
	// TypeRefName is a TypeRef's name and resolution scope (a TypeRef for
	// a nested type).
	TypeRefName(tr uint32) (name string, scope uint32, err error)
	// FindMethod is the MethodDef of TypeDef td with this name and
	// signature.
	FindMethod(td uint32, name string, sig []byte) (uint32, bool)
}

// Callee is the definition a call's method token names: a MethodDef of
// the calling module, or a method of a type of another module, known by
// names (its definition's token there is another).
type Callee struct {
	Def uint32 // a MethodDef of the calling module; 0 for another module's
	// Another module's: the type's names, outermost first for a nested
	// type ("Acme.Data.Store", "Entry"), the method's name, and how many
	// parameters it has (overloads of as many are not told apart).
	Type   []string
	Name   string
	Params int
}

// ErrCalleeUnnamed: the token names a method no Callee can (a vararg
// call's MemberRef, a method of an array type, a global function of
// another module).
var ErrCalleeUnnamed = errors.New("flows: callee not named by a definition")

// CallTarget names the callee of a call's method token (TailCallees): a
// MethodDef as it is; a MethodSpec (a generic method's instantiation) as
// the method it instantiates; a MemberRef by its parent, a type of the
// module (a TypeDef, or an instantiation of one: List<T>.Add called as
// List<Int32>.Add), where its signature finds the MethodDef, or a TypeRef
// of another module's type, named.
func CallTarget(m CallMeta, tok uint32) (Callee, error) {
	if tok>>24 == tokMethodSpec {
		p, err := m.MethodSpecParent(tok)
		if err != nil {
			return Callee{}, err
		}
		if p>>24 == tokMethodSpec {
			return Callee{}, fmt.Errorf("flows: MethodSpec %#x instantiates MethodSpec %#x", tok, p)
		}
		tok = p
	}
	switch tok >> 24 {
	case tokMethodDef:
		return Callee{Def: tok}, nil
	case tokMemberRef:
	default:
		return Callee{}, fmt.Errorf("flows: token %#x: %w", tok, ErrCalleeUnnamed)
	}
	parent, name, sig, err := m.MemberRef(tok)
	if err != nil {
		return Callee{}, err
	}
	if parent>>24 == tokTypeSpec {
		blob, err := m.TypeSpecBlob(parent)
		if err != nil {
			return Callee{}, err
		}
		if parent = genericType(blob); parent == 0 {
			return Callee{}, fmt.Errorf("flows: MemberRef %#x of a TypeSpec that is no generic type: %w", tok, ErrCalleeUnnamed)
		}
	}
	switch parent >> 24 {
	case tokTypeDef:
		md, ok := m.FindMethod(parent, name, sig)
		if !ok {
			return Callee{}, fmt.Errorf("flows: MemberRef %#x: no method %s of TypeDef %#x with its signature", tok, name, parent)
		}
		return Callee{Def: md}, nil
	case tokTypeRef:
		names, err := typeRefNames(m, parent)
		if err != nil {
			return Callee{}, err
		}
		n, ok := paramCount(sig)
		if !ok {
			return Callee{}, fmt.Errorf("flows: MemberRef %#x: signature % x: %w", tok, sig, ErrCalleeUnnamed)
		}
		return Callee{Type: names, Name: name, Params: n}, nil
	}
	return Callee{}, fmt.Errorf("flows: MemberRef %#x of parent %#x: %w", tok, parent, ErrCalleeUnnamed)
}

// genericType is the TypeDef or TypeRef a TypeSpec's signature
// instantiates (GENERICINST, CLASS or VALUETYPE, a TypeDefOrRef coded
// index); 0 for another signature.
func genericType(sig []byte) uint32 {
	if len(sig) < 3 || sig[0] != 0x15 || sig[1] != 0x12 && sig[1] != 0x11 {
		return 0
	}
	coded, ok := compressed(sig[2:])
	if !ok || coded>>2 == 0 {
		return 0
	}
	switch coded & 3 {
	case 0:
		return tokTypeDef<<24 | coded>>2
	case 1:
		return tokTypeRef<<24 | coded>>2
	}
	return 0
}

// maxNesting bounds a type's chain of enclosing types.
const maxNesting = 16

// typeRefNames is a TypeRef's type names, outermost first.
func typeRefNames(m CallMeta, tr uint32) ([]string, error) {
	var names []string
	for range maxNesting {
		name, scope, err := m.TypeRefName(tr)
		if err != nil {
			return nil, err
		}
		names = append([]string{name}, names...)
		if scope>>24 != tokTypeRef {
			return names, nil
		}
		tr = scope
	}
	return nil, fmt.Errorf("flows: TypeRef %#x nested deeper than %d", tr, maxNesting)
}

// DefMeta is what TypeDefNames asks of a module's metadata.
type DefMeta interface {
	TypeDefName(td uint32) (string, error)
	EnclosingClass(td uint32) uint32 // 0: not nested
}

// TypeDefNames is a TypeDef's names, outermost first, as a Callee of
// another module names its type; false when one cannot be read.
func TypeDefNames(m DefMeta, td uint32) ([]string, bool) {
	var names []string
	for range maxNesting {
		name, err := m.TypeDefName(td)
		if err != nil {
			return nil, false
		}
		names = append([]string{name}, names...)
		if td = m.EnclosingClass(td); td == 0 {
			return names, true
		}
	}
	return nil, false
}

// paramCount reads a method signature's parameter count (ECMA-335
// II.23.2.1: the calling convention, a generic method's type parameter
// count, then the parameter count). A vararg call's signature is not
// read: its count includes the extra arguments.
func paramCount(sig []byte) (int, bool) {
	if len(sig) < 2 || sig[0]&0x0f == 0x05 { // VARARG
		return 0, false
	}
	i := 1
	if sig[0]&0x10 != 0 { // GENERIC
		_, n := compressedN(sig[i:])
		if n == 0 {
			return 0, false
		}
		i += n
	}
	n, ok := compressed(sig[i:])
	return int(n), ok
}

// Overload picks the method c names among the signatures of the methods
// of its name in another module's type: the only one with c.Params
// parameters.
func (c Callee) Overload(sigs [][]byte) (int, bool) {
	found := -1
	for i, sig := range sigs {
		if n, ok := paramCount(sig); ok && n == c.Params {
			if found >= 0 {
				return 0, false
			}
			found = i
		}
	}
	return found, found >= 0
}

// Names reports whether a method of another module, of type chain
// (outermost first), with this name and signature, is the one c names
// (before its overloads are told apart by Overload).
func (c Callee) Names(chain []string, name string, sig []byte) bool {
	if c.Def != 0 || name != c.Name || len(chain) != len(c.Type) {
		return false
	}
	for i := range chain {
		if chain[i] != c.Type[i] {
			return false
		}
	}
	n, ok := paramCount(sig)
	return ok && n == c.Params
}
