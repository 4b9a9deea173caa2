package naming

import (
	"fmt"
	"strconv"
)

// ElementType is an ECMA-335 CorElementType.
type ElementType byte

// Element types (ECMA-335 II.23.1.16).
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

// String returns the constant's name without its Elem prefix ("I4",
// "SZArray"), or ElementType(0x17) for a value with no constant.
func (e ElementType) String() string {
	switch e {
	case ElemEnd:
		return "End"
	case ElemVoid:
		return "Void"
	case ElemBoolean:
		return "Boolean"
	case ElemChar:
		return "Char"
	case ElemI1:
		return "I1"
	case ElemU1:
		return "U1"
	case ElemI2:
		return "I2"
	case ElemU2:
		return "U2"
	case ElemI4:
		return "I4"
	case ElemU4:
		return "U4"
	case ElemI8:
		return "I8"
	case ElemU8:
		return "U8"
	case ElemR4:
		return "R4"
	case ElemR8:
		return "R8"
	case ElemString:
		return "String"
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
	case ElemTypedByRef:
		return "TypedByRef"
	case ElemI:
		return "I"
	case ElemU:
		return "U"
	case ElemFnPtr:
		return "FnPtr"
	case ElemObject:
		return "Object"
	case ElemSZArray:
		return "SZArray"
	case ElemMVar:
		return "MVar"
	case ElemCModReqd:
		return "CModReqd"
	case ElemCModOpt:
		return "CModOpt"
	case ElemInternal:
		return "Internal"
	case ElemSentinel:
		return "Sentinel"
	case ElemPinned:
		return "Pinned"
	}
	return "ElementType(0x" + strconv.FormatUint(uint64(e), 16) + ")"
}

// Type is a decoded type in a signature.
type Type struct {
	Kind ElementType
	// Token is, for ElemClass and ElemValueType, the TypeDef, TypeRef or
	// TypeSpec token the type refers to.
	Token uint32
	// Elem is the element type of ElemPtr, ElemByRef, ElemSZArray,
	// ElemArray and ElemPinned, and for ElemGenericInst the generic type
	// itself (of Kind ElemClass or ElemValueType).
	Elem *Type
	// Args are the type arguments of ElemGenericInst.
	Args []Type
	// Index is the generic parameter number of ElemVar and ElemMVar.
	Index uint32
	// Rank, Sizes and LoBounds describe an ElemArray's shape.
	Rank     uint32
	Sizes    []uint32
	LoBounds []int32
	// Method is the signature of an ElemFnPtr.
	Method *MethodSig
	// Mods are the custom modifiers (modreq, modopt) that preceded the
	// type, in order.
	Mods []CustomMod
}

// CustomMod is a custom modifier: modreq when Required, else modopt.
type CustomMod struct {
	Required bool
	Token    uint32 // TypeDef, TypeRef or TypeSpec
}

// MethodSig is a decoded method signature.
type MethodSig struct {
	CallConv      byte // low 4 bits of the first byte: 0 default, 5 vararg, ...
	HasThis       bool
	ExplicitThis  bool
	GenericParams uint32 // number of method generic parameters
	Ret           Type
	Params        []Type
	VarArgStart   int // index in Params of the first argument after a SENTINEL, -1 if none
}

// Calling convention bytes and flags (ECMA-335 II.23.2.1-3).
const (
	ccDefault      = 0x00
	ccVarArg       = 0x05
	ccField        = 0x06
	ccGenericInst  = 0x0a
	ccMask         = 0x0f
	ccGeneric      = 0x10
	ccHasThis      = 0x20
	ccExplicitThis = 0x40
)

// maxSigDepth bounds the nesting of types (and of type specifications
// when formatting), so hostile blobs cannot exhaust the stack.
const maxSigDepth = 64

// maxArrayRank is the CLR's limit on array ranks.
const maxArrayRank = 32

// sigReader decodes one blob. Errors carry the offset of the item that
// could not be read.
type sigReader struct {
	b     []byte
	off   int
	depth int
}

func (r *sigReader) errorf(at int, format string, args ...any) error {
	return fmt.Errorf("naming: signature byte %d: %s", at, fmt.Sprintf(format, args...))
}

func (r *sigReader) left() int { return len(r.b) - r.off }

// byte reads one byte; what names what the byte was to be.
func (r *sigReader) byte(what string) (byte, error) {
	if r.off >= len(r.b) {
		return 0, r.errorf(r.off, "want %s, got end of signature", what)
	}
	c := r.b[r.off]
	r.off++
	return c, nil
}

// uint reads a compressed unsigned integer (II.23.2): 1, 2 or 4 bytes,
// big-endian, told apart by the top bits of the first.
func (r *sigReader) uint(what string) (uint32, error) {
	start := r.off
	c, err := r.byte(what)
	if err != nil {
		return 0, err
	}
	switch {
	case c&0x80 == 0:
		return uint32(c), nil
	case c&0xc0 == 0x80:
		if r.left() < 1 {
			return 0, r.errorf(start, "truncated compressed integer (%s): lead byte %#x needs 2 bytes, have %d", what, c, len(r.b)-start)
		}
		v := uint32(c&0x3f)<<8 | uint32(r.b[r.off])
		r.off++
		return v, nil
	case c&0xe0 == 0xc0:
		if r.left() < 3 {
			return 0, r.errorf(start, "truncated compressed integer (%s): lead byte %#x needs 4 bytes, have %d", what, c, len(r.b)-start)
		}
		v := uint32(c&0x1f)<<24 | uint32(r.b[r.off])<<16 | uint32(r.b[r.off+1])<<8 | uint32(r.b[r.off+2])
		r.off += 3
		return v, nil
	}
	return 0, r.errorf(start, "invalid compressed integer lead byte %#x (%s)", c, what)
}

// int reads a compressed signed integer: the two's complement value in 7,
// 14 or 29 bits, rotated left by one so the sign bit is at the bottom, then
// encoded as an unsigned one.
func (r *sigReader) int(what string) (int32, error) {
	start := r.off
	u, err := r.uint(what)
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
	v := int32(u >> 1)
	if u&1 != 0 {
		v -= 1 << (bits - 1)
	}
	return v, nil
}

// token reads a TypeDefOrRefOrSpecEncoded coded index (II.23.2.8) and
// returns the metadata token it stands for.
func (r *sigReader) token(what string) (uint32, error) {
	start := r.off
	v, err := r.uint(what)
	if err != nil {
		return 0, err
	}
	var table uint32
	switch v & 3 {
	case 0:
		table = 0x02000000 // TypeDef
	case 1:
		table = 0x01000000 // TypeRef
	case 2:
		table = 0x1b000000 // TypeSpec
	default:
		return 0, r.errorf(start, "invalid TypeDefOrRefOrSpec tag 3 (%s)", what)
	}
	rid := v >> 2
	if rid > 0x00ffffff {
		return 0, r.errorf(start, "%s row %#x does not fit a token", what, rid)
	}
	return table | rid, nil
}

// count reads a count of items that each take at least one byte, and
// rejects counts the rest of the blob cannot hold before anything is
// allocated for them.
func (r *sigReader) count(what string) (int, error) {
	start := r.off
	n, err := r.uint(what)
	if err != nil {
		return 0, err
	}
	if int64(n) > int64(r.left()) {
		return 0, r.errorf(start, "%s %d, but only %d bytes follow", what, n, r.left())
	}
	return int(n), nil
}

// prealloc is how many slots to reserve for n items: never more than a
// few, so nested counts cannot multiply into large allocations; append
// grows the rest as items are actually read.
func prealloc(n int) int { return min(n, 8) }

// mods reads the custom modifiers in front of a type.
func (r *sigReader) mods() ([]CustomMod, error) {
	var mods []CustomMod
	for r.off < len(r.b) {
		k := ElementType(r.b[r.off])
		if k != ElemCModReqd && k != ElemCModOpt {
			break
		}
		r.off++
		tok, err := r.token("custom modifier type")
		if err != nil {
			return nil, err
		}
		mods = append(mods, CustomMod{Required: k == ElemCModReqd, Token: tok})
	}
	return mods, nil
}

// typ reads a type with its leading custom modifiers. It accepts every
// element type wherever the runtime could meet it (BYREF and TYPEDBYREF in
// parameters and return types, and also in fields, which ref fields use),
// and is strict about the encoding.
func (r *sigReader) typ() (Type, error) {
	if r.depth >= maxSigDepth {
		return Type{}, r.errorf(r.off, "types nested deeper than %d", maxSigDepth)
	}
	r.depth++
	defer func() { r.depth-- }()

	mods, err := r.mods()
	if err != nil {
		return Type{}, err
	}
	start := r.off
	c, err := r.byte("element type")
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
			return Type{}, err
		}
		t.Elem = &e
	case ElemValueType, ElemClass:
		if t.Token, err = r.token("type token"); err != nil {
			return Type{}, err
		}
	case ElemVar, ElemMVar:
		if t.Index, err = r.uint("generic parameter number"); err != nil {
			return Type{}, err
		}
	case ElemArray:
		if err := r.arrayShape(&t); err != nil {
			return Type{}, err
		}
	case ElemGenericInst:
		if err := r.genericInst(&t); err != nil {
			return Type{}, err
		}
	case ElemFnPtr:
		m, err := r.method()
		if err != nil {
			return Type{}, err
		}
		t.Method = &m
	case ElemSentinel:
		return Type{}, r.errorf(start, "want element type, got SENTINEL outside a vararg parameter list")
	case ElemInternal:
		return Type{}, r.errorf(start, "want element type, got runtime-internal INTERNAL (0x21)")
	default:
		return Type{}, r.errorf(start, "want element type, got unknown %#x", c)
	}
	return t, nil
}

// arrayShape reads the element type and ArrayShape (II.23.2.13) of ARRAY.
func (r *sigReader) arrayShape(t *Type) error {
	e, err := r.typ()
	if err != nil {
		return err
	}
	t.Elem = &e
	start := r.off
	if t.Rank, err = r.uint("array rank"); err != nil {
		return err
	}
	if t.Rank == 0 || t.Rank > maxArrayRank {
		return r.errorf(start, "array rank %d, want 1 to %d", t.Rank, maxArrayRank)
	}
	start = r.off
	n, err := r.count("array size count")
	if err != nil {
		return err
	}
	if n > int(t.Rank) {
		return r.errorf(start, "%d array sizes for rank %d", n, t.Rank)
	}
	if n > 0 {
		t.Sizes = make([]uint32, n)
		for i := range t.Sizes {
			if t.Sizes[i], err = r.uint("array size"); err != nil {
				return err
			}
		}
	}
	start = r.off
	if n, err = r.count("array lower bound count"); err != nil {
		return err
	}
	if n > int(t.Rank) {
		return r.errorf(start, "%d array lower bounds for rank %d", n, t.Rank)
	}
	if n > 0 {
		t.LoBounds = make([]int32, n)
		for i := range t.LoBounds {
			if t.LoBounds[i], err = r.int("array lower bound"); err != nil {
				return err
			}
		}
	}
	return nil
}

// genericInst reads GENERICINST's generic type and type arguments.
func (r *sigReader) genericInst(t *Type) error {
	start := r.off
	g, err := r.typ()
	if err != nil {
		return err
	}
	if g.Kind != ElemClass && g.Kind != ElemValueType {
		return r.errorf(start, "want CLASS or VALUETYPE after GENERICINST, got %v", g.Kind)
	}
	t.Elem = &g
	start = r.off
	n, err := r.count("generic argument count")
	if err != nil {
		return err
	}
	if n == 0 {
		return r.errorf(start, "generic instantiation with no type arguments")
	}
	t.Args = make([]Type, 0, prealloc(n))
	for range n {
		a, err := r.typ()
		if err != nil {
			return err
		}
		t.Args = append(t.Args, a)
	}
	return nil
}

// method reads a MethodDefSig, MethodRefSig or StandAloneMethodSig
// (II.23.2.1-3), also the signature of FNPTR.
func (r *sigReader) method() (MethodSig, error) {
	m := MethodSig{VarArgStart: -1}
	c, err := r.byte("calling convention")
	if err != nil {
		return m, err
	}
	switch c & ccMask {
	case ccDefault, 1, 2, 3, 4, ccVarArg, 9: // default, C, stdcall, thiscall, fastcall, vararg, unmanaged
	default:
		return m, r.errorf(r.off-1, "want a method calling convention, got %#x", c)
	}
	m.CallConv = c & ccMask
	m.HasThis = c&ccHasThis != 0
	m.ExplicitThis = c&ccExplicitThis != 0
	if c&ccGeneric != 0 {
		if m.GenericParams, err = r.uint("generic parameter count"); err != nil {
			return m, err
		}
	}
	n, err := r.count("parameter count")
	if err != nil {
		return m, err
	}
	if m.Ret, err = r.typ(); err != nil {
		return m, err
	}
	if n > 0 {
		m.Params = make([]Type, 0, prealloc(n))
	}
	for range n {
		if r.off < len(r.b) && ElementType(r.b[r.off]) == ElemSentinel {
			if m.VarArgStart >= 0 {
				return m, r.errorf(r.off, "second SENTINEL in parameter list")
			}
			r.off++
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

// ParseMethodSig decodes a MethodDefSig, MethodRefSig or
// StandAloneMethodSig. Bytes after the signature are ignored.
func ParseMethodSig(blob []byte) (MethodSig, error) {
	r := &sigReader{b: blob}
	m, err := r.method()
	if err != nil {
		return MethodSig{}, err
	}
	return m, nil
}

// ParseFieldSig decodes a FieldSig (calling convention FIELD, 0x06) and
// returns the field's type. Bytes after the signature are ignored.
func ParseFieldSig(blob []byte) (Type, error) {
	r := &sigReader{b: blob}
	c, err := r.byte("FIELD calling convention (0x06)")
	if err != nil {
		return Type{}, err
	}
	if c != ccField {
		return Type{}, r.errorf(0, "want FIELD calling convention (0x06), got %#x", c)
	}
	return r.typ()
}

// ParseTypeSpec decodes a TypeSpec blob. Bytes after the type are ignored.
func ParseTypeSpec(blob []byte) (Type, error) {
	r := &sigReader{b: blob}
	return r.typ()
}

// ParseMethodSpec decodes a MethodSpec instantiation blob
// (GENERICINST, 0x0a) and returns the method's type arguments. Bytes after
// the signature are ignored.
func ParseMethodSpec(blob []byte) ([]Type, error) {
	r := &sigReader{b: blob}
	c, err := r.byte("GENERICINST calling convention (0x0a)")
	if err != nil {
		return nil, err
	}
	if c != ccGenericInst {
		return nil, r.errorf(0, "want GENERICINST calling convention (0x0a), got %#x", c)
	}
	start := r.off
	n, err := r.count("generic argument count")
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, r.errorf(start, "method instantiation with no type arguments")
	}
	args := make([]Type, 0, prealloc(n))
	for range n {
		t, err := r.typ()
		if err != nil {
			return nil, err
		}
		args = append(args, t)
	}
	return args, nil
}
