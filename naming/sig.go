package naming

import (
	"fmt"
)

// ElementType is an ECMA-335 CorElementType.
type ElementType byte

const (
	ElemEnd         ElementType = 0x00
	ElemVoid        ElementType = 0x01
	ElemBoolean     ElementType = 0x02
	ElemChar        ElementType = 0x03
	ElemI1          ElementType = 0x04
	ElemU1          ElementType = 0x05
	ElemI2          ElementType = 0x06
	ElemU2          ElementType = 0x07
	ElemI4          ElementType = 0x08
	ElemU4          ElementType = 0x09
	ElemI8          ElementType = 0x0a
	ElemU8          ElementType = 0x0b
	ElemR4          ElementType = 0x0c
	ElemR8          ElementType = 0x0d
	ElemString      ElementType = 0x0e
	ElemPtr         ElementType = 0x0f
	ElemByRef       ElementType = 0x10
	ElemValueType   ElementType = 0x11
	ElemClass       ElementType = 0x12
	ElemVar         ElementType = 0x13
	ElemArray       ElementType = 0x14
	ElemGenericInst ElementType = 0x15
	ElemTypedByRef  ElementType = 0x16
	ElemI           ElementType = 0x18
	ElemU           ElementType = 0x19
	ElemFnPtr       ElementType = 0x1b
	ElemObject      ElementType = 0x1c
	ElemSZArray     ElementType = 0x1d
	ElemMVar        ElementType = 0x1e
	ElemCModReqd    ElementType = 0x1f
	ElemCModOpt     ElementType = 0x20
	ElemInternal    ElementType = 0x21
	ElemSentinel    ElementType = 0x41
	ElemPinned      ElementType = 0x45
)

// primitive names by the CLR's short names.
var primNames = map[ElementType]string{
	ElemVoid: "Void", ElemBoolean: "Boolean", ElemChar: "Char", ElemI1: "SByte", ElemU1: "Byte",
	ElemI2: "Int16", ElemU2: "UInt16", ElemI4: "Int32", ElemU4: "UInt32", ElemI8: "Int64",
	ElemU8: "UInt64", ElemR4: "Single", ElemR8: "Double", ElemString: "String", ElemI: "IntPtr",
	ElemU: "UIntPtr", ElemObject: "Object", ElemTypedByRef: "TypedReference",
}

func (e ElementType) String() string {
	if n, ok := primNames[e]; ok {
		return n
	}
	switch e {
	case ElemPtr:
		return "Ptr"
	case ElemByRef:
		return "ByRef"
	case ElemValueType:
		return "ValueType"
	case ElemClass:
		return "Class"
	case ElemVar:
		return "Var"
	case ElemArray:
		return "Array"
	case ElemGenericInst:
		return "GenericInst"
	case ElemFnPtr:
		return "FnPtr"
	case ElemSZArray:
		return "SZArray"
	case ElemMVar:
		return "MVar"
	}
	return fmt.Sprintf("ElementType(%#x)", byte(e))
}

// Type is a decoded type signature.
type Type struct {
	Kind     ElementType
	Token    uint32      // ElemClass, ElemValueType: TypeDef, TypeRef or TypeSpec token
	Elem     *Type       // ElemPtr, ElemByRef, ElemSZArray, ElemArray, ElemPinned; ElemGenericInst: the generic type
	Args     []Type      // ElemGenericInst: type arguments
	Index    uint32      // ElemVar, ElemMVar
	Rank     uint32      // ElemArray
	Sizes    []uint32    // ElemArray
	LoBounds []int32     // ElemArray
	Method   *MethodSig  // ElemFnPtr
	Mods     []CustomMod // custom modifiers before the type
}

// CustomMod is a modreq or modopt.
type CustomMod struct {
	Required bool
	Token    uint32
}

// MethodSig is a decoded method signature.
type MethodSig struct {
	CallConv      byte // low 4 bits of the first byte
	HasThis       bool
	ExplicitThis  bool
	GenericParams uint32
	Ret           Type
	Params        []Type
	VarArgStart   int // index in Params of the first vararg parameter, -1 if none
}

const (
	callConvGeneric      = 0x10
	callConvHasThis      = 0x20
	callConvExplicitThis = 0x40
	callConvField        = 0x06
	callConvGenericInst  = 0x0a
	maxSigDepth          = 64
)

type sigReader struct {
	b     []byte
	off   int
	depth int
}

func (r *sigReader) errorf(format string, args ...any) error {
	return fmt.Errorf("naming: signature byte %d: "+format, append([]any{r.off}, args...)...)
}

func (r *sigReader) byte() (byte, error) {
	if r.off >= len(r.b) {
		return 0, r.errorf("unexpected end")
	}
	c := r.b[r.off]
	r.off++
	return c, nil
}

func (r *sigReader) peek() (byte, error) {
	if r.off >= len(r.b) {
		return 0, r.errorf("unexpected end")
	}
	return r.b[r.off], nil
}

// uint reads a compressed unsigned integer (ECMA-335 II.23.2).
func (r *sigReader) uint() (uint32, error) {
	c, err := r.byte()
	if err != nil {
		return 0, err
	}
	switch {
	case c&0x80 == 0:
		return uint32(c), nil
	case c&0xC0 == 0x80:
		c2, err := r.byte()
		if err != nil {
			return 0, r.errorf("truncated compressed integer")
		}
		return uint32(c&0x3F)<<8 | uint32(c2), nil
	case c&0xE0 == 0xC0:
		if r.off+3 > len(r.b) {
			r.off = len(r.b)
			return 0, r.errorf("truncated compressed integer")
		}
		v := uint32(c&0x1F)<<24 | uint32(r.b[r.off])<<16 | uint32(r.b[r.off+1])<<8 | uint32(r.b[r.off+2])
		r.off += 3
		return v, nil
	}
	r.off--
	return 0, r.errorf("invalid compressed integer lead byte %#x", c)
}

// int reads a compressed signed integer: the value rotated left by one with
// the sign bit at the bottom, in as many bits as its unsigned encoding uses.
func (r *sigReader) int() (int32, error) {
	start := r.off
	u, err := r.uint()
	if err != nil {
		return 0, err
	}
	var bits uint
	switch r.off - start {
	case 1:
		bits = 7
	case 2:
		bits = 14
	default:
		bits = 29
	}
	neg := u&1 != 0
	v := int32(u >> 1)
	if neg {
		v -= 1 << (bits - 1)
	}
	return v, nil
}

func (r *sigReader) token() (uint32, error) {
	v, err := r.uint()
	if err != nil {
		return 0, err
	}
	tables := [...]uint32{0x02000000, 0x01000000, 0x1b000000}
	tag := v & 3
	if tag == 3 {
		return 0, r.errorf("invalid TypeDefOrRefOrSpec tag 3")
	}
	return tables[tag] | v>>2, nil
}

// count reads a count of items that each take at least one more byte.
func (r *sigReader) count(what string) (uint32, error) {
	n, err := r.uint()
	if err != nil {
		return 0, err
	}
	if int(n) > len(r.b)-r.off {
		return 0, r.errorf("%d %s but only %d bytes left", n, what, len(r.b)-r.off)
	}
	return n, nil
}

func (r *sigReader) mods() ([]CustomMod, error) {
	var mods []CustomMod
	for {
		c, err := r.peek()
		if err != nil {
			return nil, err
		}
		if ElementType(c) != ElemCModReqd && ElementType(c) != ElemCModOpt {
			return mods, nil
		}
		r.off++
		tok, err := r.token()
		if err != nil {
			return nil, err
		}
		mods = append(mods, CustomMod{Required: ElementType(c) == ElemCModReqd, Token: tok})
	}
}

func (r *sigReader) typ() (Type, error) {
	r.depth++
	defer func() { r.depth-- }()
	if r.depth > maxSigDepth {
		return Type{}, r.errorf("types nested deeper than %d", maxSigDepth)
	}
	mods, err := r.mods()
	if err != nil {
		return Type{}, err
	}
	c, err := r.byte()
	if err != nil {
		return Type{}, err
	}
	t := Type{Kind: ElementType(c), Mods: mods}
	switch t.Kind {
	case ElemVoid, ElemBoolean, ElemChar, ElemI1, ElemU1, ElemI2, ElemU2, ElemI4, ElemU4,
		ElemI8, ElemU8, ElemR4, ElemR8, ElemString, ElemI, ElemU, ElemObject, ElemTypedByRef:
	case ElemPtr, ElemByRef, ElemSZArray, ElemPinned:
		e, err := r.typ()
		if err != nil {
			return t, err
		}
		t.Elem = &e
	case ElemValueType, ElemClass:
		if t.Token, err = r.token(); err != nil {
			return t, err
		}
	case ElemVar, ElemMVar:
		if t.Index, err = r.uint(); err != nil {
			return t, err
		}
	case ElemArray:
		e, err := r.typ()
		if err != nil {
			return t, err
		}
		t.Elem = &e
		if t.Rank, err = r.uint(); err != nil {
			return t, err
		}
		n, err := r.count("array sizes")
		if err != nil {
			return t, err
		}
		for i := uint32(0); i < n; i++ {
			s, err := r.uint()
			if err != nil {
				return t, err
			}
			t.Sizes = append(t.Sizes, s)
		}
		if n, err = r.count("array lower bounds"); err != nil {
			return t, err
		}
		for i := uint32(0); i < n; i++ {
			lb, err := r.int()
			if err != nil {
				return t, err
			}
			t.LoBounds = append(t.LoBounds, lb)
		}
	case ElemGenericInst:
		g, err := r.typ()
		if err != nil {
			return t, err
		}
		if g.Kind != ElemClass && g.Kind != ElemValueType {
			return t, r.errorf("generic instantiation of %v, want a class or value type", g.Kind)
		}
		t.Elem = &g
		n, err := r.count("type arguments")
		if err != nil {
			return t, err
		}
		if n == 0 {
			return t, r.errorf("generic instantiation with no type arguments")
		}
		t.Args = make([]Type, 0, n)
		for i := uint32(0); i < n; i++ {
			a, err := r.typ()
			if err != nil {
				return t, err
			}
			t.Args = append(t.Args, a)
		}
	case ElemFnPtr:
		m, err := r.method()
		if err != nil {
			return t, err
		}
		t.Method = &m
	default:
		r.off--
		return t, r.errorf("unexpected element type %#x", c)
	}
	return t, nil
}

func (r *sigReader) method() (MethodSig, error) {
	var m MethodSig
	m.VarArgStart = -1
	c, err := r.byte()
	if err != nil {
		return m, err
	}
	switch c & 0x0F {
	case 0, 1, 2, 3, 4, 5, 9: // default, C, stdcall, thiscall, fastcall, vararg, unmanaged
	default:
		r.off--
		return m, r.errorf("calling convention %#x is not a method's", c)
	}
	m.CallConv = c & 0x0F
	m.HasThis = c&callConvHasThis != 0
	m.ExplicitThis = c&callConvExplicitThis != 0
	if c&callConvGeneric != 0 {
		if m.GenericParams, err = r.uint(); err != nil {
			return m, err
		}
	}
	n, err := r.count("parameters")
	if err != nil {
		return m, err
	}
	if m.Ret, err = r.typ(); err != nil {
		return m, err
	}
	m.Params = make([]Type, 0, n)
	for i := uint32(0); i < n; i++ {
		if b, err := r.peek(); err == nil && ElementType(b) == ElemSentinel {
			r.off++
			if m.VarArgStart >= 0 {
				return m, r.errorf("second vararg sentinel")
			}
			m.VarArgStart = len(m.Params)
		}
		p, err := r.typ()
		if err != nil {
			return m, err
		}
		m.Params = append(m.Params, p)
	}
	return m, nil
}

// ParseMethodSig decodes a MethodDefSig, MethodRefSig or StandAloneMethodSig.
func ParseMethodSig(blob []byte) (MethodSig, error) {
	r := &sigReader{b: blob}
	return r.method()
}

// ParseFieldSig decodes a FieldSig.
func ParseFieldSig(blob []byte) (Type, error) {
	r := &sigReader{b: blob}
	c, err := r.byte()
	if err != nil {
		return Type{}, err
	}
	if c != callConvField {
		return Type{}, fmt.Errorf("naming: signature byte 0: %#x is not a field signature", c)
	}
	return r.typ()
}

// ParseTypeSpec decodes a TypeSpec blob.
func ParseTypeSpec(blob []byte) (Type, error) {
	r := &sigReader{b: blob}
	return r.typ()
}

// ParseMethodSpec decodes a MethodSpec instantiation blob.
func ParseMethodSpec(blob []byte) ([]Type, error) {
	r := &sigReader{b: blob}
	c, err := r.byte()
	if err != nil {
		return nil, err
	}
	if c != callConvGenericInst {
		return nil, fmt.Errorf("naming: signature byte 0: %#x is not a method instantiation", c)
	}
	n, err := r.count("type arguments")
	if err != nil {
		return nil, err
	}
	out := make([]Type, 0, n)
	for i := uint32(0); i < n; i++ {
		t, err := r.typ()
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}
