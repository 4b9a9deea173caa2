package naming

import (
	"bytes"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// fakeNamer resolves tokens from maps.
type fakeNamer struct {
	names map[uint32]string
	specs map[uint32][]byte
}

func (f fakeNamer) TypeName(tok uint32) (string, error) {
	if n, ok := f.names[tok]; ok {
		return n, nil
	}
	return "", fmt.Errorf("no type %#x", tok)
}

func (f fakeNamer) TypeSpec(tok uint32) ([]byte, error) {
	if b, ok := f.specs[tok]; ok {
		return b, nil
	}
	return nil, fmt.Errorf("no typespec %#x", tok)
}

// Coded TypeDefOrRefOrSpec values, (row << 2) | tag with tag 0 TypeDef,
// 1 TypeRef, 2 TypeSpec, and the tokens they stand for.
const (
	tdItem    = 2<<2 | 0 // 0x02000002 Acme.Shop.Item
	tdMoney   = 3<<2 | 0 // 0x02000003 Acme.Shop.Money
	tdLine    = 4<<2 | 0 // 0x02000004 Acme.Shop.Cart.Line
	trList    = 5<<2 | 1 // 0x01000005 List`1
	trDict    = 6<<2 | 1 // 0x01000006 Dictionary`2
	trVol     = 7<<2 | 1 // 0x01000007 IsVolatile
	trGuid    = 8<<2 | 1 // 0x01000008 System.Guid
	trIn      = 9<<2 | 1 // 0x01000009 InAttribute
	trInt32   = 10<<2 | 1
	trKVP     = 11<<2 | 1
	trConst   = 12<<2 | 1
	tsList    = 1<<2 | 2 // 0x1b000001 List<Int32>
	tsBomb    = 2<<2 | 2 // 0x1b000002 refers to itself twice
	tsBad     = 3<<2 | 2 // 0x1b000003 not a type
	tsChain   = 4<<2 | 2 // 0x1b000004 List<0x1b000001>
	tokItem   = 0x02000002
	tokMoney  = 0x02000003
	tokLine   = 0x02000004
	tokList   = 0x01000005
	tokDict   = 0x01000006
	tokVol    = 0x01000007
	tokGuid   = 0x01000008
	tokIn     = 0x01000009
	tokInt32  = 0x0100000a
	tokKVP    = 0x0100000b
	tokConst  = 0x0100000c
	tokTSList = 0x1b000001
)

var namer = fakeNamer{
	names: map[uint32]string{
		tokItem:  "Acme.Shop.Item",
		tokMoney: "Acme.Shop.Money",
		tokLine:  "Acme.Shop.Cart.Line",
		tokList:  "System.Collections.Generic.List`1",
		tokDict:  "System.Collections.Generic.Dictionary`2",
		tokVol:   "System.Runtime.CompilerServices.IsVolatile",
		tokGuid:  "System.Guid",
		tokIn:    "System.Runtime.InteropServices.InAttribute",
		tokInt32: "System.Int32",
		tokKVP:   "System.Collections.Generic.KeyValuePair`2",
		tokConst: "System.Runtime.CompilerServices.IsConst",
	},
	specs: map[uint32][]byte{
		0x1b000001: {0x15, 0x12, trList, 0x01, 0x08},
		0x1b000002: {0x15, 0x12, trDict, 0x02, 0x12, tsBomb, 0x12, tsBomb},
		0x1b000003: {0x17},
		0x1b000004: {0x15, 0x12, trList, 0x01, 0x12, tsList},
	},
}

// Type constructors for expected parse results.
func prim(k ElementType) Type              { return Type{Kind: k} }
func class(tok uint32) Type                { return Type{Kind: ElemClass, Token: tok} }
func valueType(tok uint32) Type            { return Type{Kind: ElemValueType, Token: tok} }
func wrap(k ElementType, e Type) Type      { return Type{Kind: k, Elem: &e} }
func tvar(i uint32) Type                   { return Type{Kind: ElemVar, Index: i} }
func mvar(i uint32) Type                   { return Type{Kind: ElemMVar, Index: i} }
func inst(g Type, args ...Type) Type       { return Type{Kind: ElemGenericInst, Elem: &g, Args: args} }
func withMods(t Type, m ...CustomMod) Type { t.Mods = m; return t }
func types(ts ...Type) []Type              { return ts }

var (
	i4   = prim(ElemI4)
	void = prim(ElemVoid)
	str  = prim(ElemString)
)

func sig(conv byte, ret Type, params ...Type) MethodSig {
	m := MethodSig{CallConv: conv & ccMask, HasThis: conv&ccHasThis != 0, ExplicitThis: conv&ccExplicitThis != 0, Ret: ret, VarArgStart: -1}
	if len(params) > 0 {
		m.Params = params
	}
	return m
}

func generic(m MethodSig, n uint32) MethodSig { m.GenericParams = n; return m }
func varargAt(m MethodSig, i int) MethodSig   { m.VarArgStart = i; return m }

type methodSigCase struct {
	name   string
	blob   []byte
	want   MethodSig
	params []Param
	g      Generics
	ret    string // FormatType(want.Ret)
	fmt    string // FormatParams
}

var methodSigCases = []methodSigCase{
	{name: "static void M()", blob: []byte{0x00, 0x00, 0x01},
		want: sig(0x00, void), ret: "Void", fmt: ""},
	{name: "instance Int32 M(String, Int32)", blob: []byte{0x20, 0x02, 0x08, 0x0e, 0x08},
		want: sig(0x20, i4, str, i4), params: []Param{{Name: "s"}, {Name: "n"}},
		ret: "Int32", fmt: "String s, Int32 n"},
	{name: "explicit this", blob: []byte{0x60, 0x01, 0x01, 0x12, tdItem},
		want: sig(0x60, void, class(tokItem)), ret: "Void", fmt: "Acme.Shop.Item arg0"},
	{name: "unnamed and partly named params", blob: []byte{0x00, 0x03, 0x01, 0x0a, 0x0d, 0x02},
		want: sig(0x00, void, prim(ElemI8), prim(ElemR8), prim(ElemBoolean)), params: []Param{{}, {Name: "d"}},
		ret: "Void", fmt: "Int64 arg0, Double d, Boolean arg2"},
	{name: "every primitive", blob: []byte{0x00, 0x10, 0x1c, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x18, 0x19, 0x1c},
		want: sig(0x00, prim(ElemObject), prim(ElemBoolean), prim(ElemChar), prim(ElemI1), prim(ElemU1), prim(ElemI2), prim(ElemU2), i4, prim(ElemU4),
			prim(ElemI8), prim(ElemU8), prim(ElemR4), prim(ElemR8), str, prim(ElemI), prim(ElemU), prim(ElemObject)),
		params: []Param{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}, {Name: "e"}, {Name: "f"}, {Name: "g"}, {Name: "h"}, {Name: "i"}, {Name: "j"}, {Name: "k"}, {Name: "l"}, {Name: "m"}, {Name: "n"}, {Name: "o"}, {Name: "p"}},
		ret:    "Object", fmt: "Boolean a, Char b, SByte c, Byte d, Int16 e, UInt16 f, Int32 g, UInt32 h, Int64 i, UInt64 j, Single k, Double l, String m, IntPtr n, UIntPtr o, Object p"},
	{name: "generic method T M<T>(T, List<T>)",
		blob:   []byte{0x10, 0x01, 0x02, 0x1e, 0x00, 0x1e, 0x00, 0x15, 0x12, trList, 0x01, 0x1e, 0x00},
		want:   generic(sig(0x00, mvar(0), mvar(0), inst(class(tokList), mvar(0))), 1),
		params: []Param{{Name: "v"}, {Name: "l"}}, g: Generics{MethodParams: []string{"T"}},
		ret: "T", fmt: "T v, System.Collections.Generic.List<T> l"},
	{name: "generic method, argument known",
		blob:   []byte{0x10, 0x01, 0x02, 0x1e, 0x00, 0x1e, 0x00, 0x15, 0x12, trList, 0x01, 0x1e, 0x00},
		want:   generic(sig(0x00, mvar(0), mvar(0), inst(class(tokList), mvar(0))), 1),
		params: []Param{{Name: "v"}, {Name: "l"}}, g: Generics{Method: []string{"Int32"}, MethodParams: []string{"T"}},
		ret: "Int32", fmt: "Int32 v, System.Collections.Generic.List<Int32> l"},
	{name: "generic method, nothing known",
		blob: []byte{0x30, 0x02, 0x01, 0x1e, 0x01, 0x1e, 0x00},
		want: generic(sig(0x20, mvar(1), mvar(0)), 2),
		ret:  "!!1", fmt: "!!0 arg0"},
	{name: "VAR in a generic type, no names", blob: []byte{0x20, 0x01, 0x13, 0x00, 0x13, 0x01},
		want: sig(0x20, tvar(0), tvar(1)), ret: "!0", fmt: "!1 arg0"},
	{name: "VAR, declared names", blob: []byte{0x20, 0x01, 0x13, 0x00, 0x13, 0x01},
		want: sig(0x20, tvar(0), tvar(1)), params: []Param{{Name: "v"}}, g: Generics{TypeParams: []string{"K", "V"}},
		ret: "K", fmt: "V v"},
	{name: "VAR, short and empty arguments", blob: []byte{0x20, 0x02, 0x13, 0x00, 0x13, 0x01, 0x13, 0x02},
		want:   sig(0x20, tvar(0), tvar(1), tvar(2)),
		params: []Param{{Name: "a"}, {Name: "b"}}, g: Generics{Type: []string{"Acme.Shop.Item", ""}, TypeParams: []string{"K", "V"}},
		ret: "Acme.Shop.Item", fmt: "V a, !2 b"},
	{name: "SZARRAY of SZARRAY", blob: []byte{0x00, 0x01, 0x01, 0x1d, 0x1d, 0x08},
		want: sig(0x00, void, wrap(ElemSZArray, wrap(ElemSZArray, i4))), params: []Param{{Name: "a"}},
		ret: "Void", fmt: "Int32[][] a"},
	{name: "ARRAY rank 2, no sizes or bounds", blob: []byte{0x00, 0x01, 0x01, 0x14, 0x08, 0x02, 0x00, 0x00},
		want:   sig(0x00, void, Type{Kind: ElemArray, Elem: &i4, Rank: 2}),
		params: []Param{{Name: "m"}}, ret: "Void", fmt: "Int32[,] m"},
	{name: "ARRAY rank 2, sizes and signed lower bounds",
		blob: []byte{0x00, 0x01, 0x01, 0x14, 0x0d, 0x02, 0x02, 0x03, 0x04, 0x02, 0x00, 0x7d},
		want: sig(0x00, void, func() Type {
			e := prim(ElemR8)
			return Type{Kind: ElemArray, Elem: &e, Rank: 2, Sizes: []uint32{3, 4}, LoBounds: []int32{0, -2}}
		}()),
		params: []Param{{Name: "m"}}, ret: "Void", fmt: "Double[,] m"},
	{name: "ARRAY rank 3 with one size, rank 1",
		blob: []byte{0x00, 0x02, 0x01, 0x14, 0x08, 0x03, 0x01, 0x05, 0x00, 0x14, 0x0e, 0x01, 0x00, 0x01, 0x02},
		want: sig(0x00, void, Type{Kind: ElemArray, Elem: &i4, Rank: 3, Sizes: []uint32{5}},
			Type{Kind: ElemArray, Elem: &str, Rank: 1, LoBounds: []int32{1}}),
		ret: "Void", fmt: "Int32[,,] arg0, String[*] arg1"},
	{name: "BYREF params: ref, out, in", blob: []byte{0x00, 0x03, 0x01, 0x10, 0x08, 0x10, 0x0e, 0x10, 0x11, tdMoney},
		want:   sig(0x00, void, wrap(ElemByRef, i4), wrap(ElemByRef, str), wrap(ElemByRef, valueType(tokMoney))),
		params: []Param{{Name: "a"}, {Name: "b", Out: true}, {Name: "c", In: true}},
		ret:    "Void", fmt: "ref Int32 a, out String b, in Acme.Shop.Money c"},
	{name: "BYREF with both in and out is ref", blob: []byte{0x00, 0x01, 0x01, 0x10, 0x08},
		want: sig(0x00, void, wrap(ElemByRef, i4)), params: []Param{{Name: "x", In: true, Out: true}},
		ret: "Void", fmt: "ref Int32 x"},
	{name: "BYREF return", blob: []byte{0x00, 0x00, 0x10, 0x08},
		want: sig(0x00, wrap(ElemByRef, i4)), ret: "Int32&", fmt: ""},
	{name: "TYPEDBYREF param and return", blob: []byte{0x00, 0x01, 0x16, 0x16},
		want: sig(0x00, prim(ElemTypedByRef), prim(ElemTypedByRef)), params: []Param{{Name: "t"}},
		ret: "TypedReference", fmt: "TypedReference t"},
	{name: "PTR", blob: []byte{0x00, 0x02, 0x0f, 0x01, 0x0f, 0x05, 0x0f, 0x0f, 0x08},
		want:   sig(0x00, wrap(ElemPtr, void), wrap(ElemPtr, prim(ElemU1)), wrap(ElemPtr, wrap(ElemPtr, i4))),
		params: []Param{{Name: "p"}, {Name: "pp"}}, ret: "Void*", fmt: "Byte* p, Int32** pp"},
	{name: "FNPTR param", blob: []byte{0x00, 0x01, 0x01, 0x1b, 0x00, 0x02, 0x08, 0x08, 0x0e},
		want:   sig(0x00, void, Type{Kind: ElemFnPtr, Method: &MethodSig{Ret: i4, Params: []Type{i4, str}, VarArgStart: -1}}),
		params: []Param{{Name: "f"}}, ret: "Void", fmt: "fnptr Int32(Int32, String) f"},
	{name: "unmanaged stdcall FNPTR returning FNPTR", blob: []byte{0x02, 0x00, 0x1b, 0x05, 0x01, 0x01, 0x08},
		want: MethodSig{CallConv: 2, VarArgStart: -1,
			Ret: Type{Kind: ElemFnPtr, Method: &MethodSig{CallConv: 5, Ret: void, Params: []Type{i4}, VarArgStart: -1}}},
		ret: "fnptr Void(Int32, ...)", fmt: ""},
	{name: "modreq(IsVolatile) Int32 and modopt return", blob: []byte{0x00, 0x01, 0x20, trConst, 0x08, 0x1f, trVol, 0x08},
		want: sig(0x00, withMods(i4, CustomMod{Token: tokConst}),
			withMods(i4, CustomMod{Required: true, Token: tokVol})),
		params: []Param{{Name: "v"}}, ret: "Int32", fmt: "Int32 v"},
	{name: "modreq(InAttribute) before BYREF, modifiers inside PTR",
		blob: []byte{0x00, 0x02, 0x01, 0x1f, trIn, 0x10, 0x11, tdMoney, 0x0f, 0x20, trConst, 0x1f, trVol, 0x08},
		want: sig(0x00, void,
			withMods(wrap(ElemByRef, valueType(tokMoney)), CustomMod{Required: true, Token: tokIn}),
			wrap(ElemPtr, withMods(i4, CustomMod{Token: tokConst}, CustomMod{Required: true, Token: tokVol}))),
		params: []Param{{Name: "c", In: true}, {Name: "p"}}, ret: "Void", fmt: "in Acme.Shop.Money c, Int32* p"},
	{name: "vararg definition", blob: []byte{0x05, 0x01, 0x01, 0x08},
		want: sig(0x05, void, i4), params: []Param{{Name: "a"}}, ret: "Void", fmt: "Int32 a, ..."},
	{name: "vararg definition, no fixed params", blob: []byte{0x05, 0x00, 0x01},
		want: sig(0x05, void), ret: "Void", fmt: "..."},
	{name: "vararg call site with SENTINEL", blob: []byte{0x05, 0x03, 0x01, 0x08, 0x41, 0x0e, 0x0a},
		want:   varargAt(sig(0x05, void, i4, str, prim(ElemI8)), 1),
		params: []Param{{Name: "a"}}, ret: "Void", fmt: "Int32 a, ..., String arg1, Int64 arg2"},
	{name: "VALUETYPE TypeRef and CLASS TypeDef", blob: []byte{0x00, 0x02, 0x12, tdItem, 0x11, trGuid, 0x12, tdLine},
		want:   sig(0x00, class(tokItem), valueType(tokGuid), class(tokLine)),
		params: []Param{{Name: "id"}, {Name: "line"}}, ret: "Acme.Shop.Item", fmt: "System.Guid id, Acme.Shop.Cart.Line line"},
	{name: "CLASS TypeRef to a primitive", blob: []byte{0x00, 0x01, 0x01, 0x11, trInt32},
		want: sig(0x00, void, valueType(tokInt32)), ret: "Void", fmt: "Int32 arg0"},
	{name: "nested generic instantiations",
		blob:   []byte{0x00, 0x01, 0x01, 0x15, 0x12, trDict, 0x02, 0x0e, 0x15, 0x12, trList, 0x01, 0x12, tdItem},
		want:   sig(0x00, void, inst(class(tokDict), str, inst(class(tokList), class(tokItem)))),
		params: []Param{{Name: "d"}},
		ret:    "Void", fmt: "System.Collections.Generic.Dictionary<String, System.Collections.Generic.List<Acme.Shop.Item>> d"},
	{name: "generic value type", blob: []byte{0x00, 0x00, 0x15, 0x11, trKVP, 0x02, 0x08, 0x1d, 0x0e},
		want: sig(0x00, inst(valueType(tokKVP), i4, wrap(ElemSZArray, str))),
		ret:  "System.Collections.Generic.KeyValuePair<Int32, String[]>", fmt: ""},
	{name: "TypeSpec token", blob: []byte{0x00, 0x02, 0x01, 0x12, tsList, 0x12, tsChain},
		want:   sig(0x00, void, class(tokTSList), class(0x1b000004)),
		params: []Param{{Name: "l"}, {Name: "ll"}},
		ret:    "Void", fmt: "System.Collections.Generic.List<Int32> l, System.Collections.Generic.List<System.Collections.Generic.List<Int32>> ll"},
	{name: "unresolvable tokens", blob: []byte{0x00, 0x02, 0x01, 0x12, 0x81, 0x8c, 0x12, tsBad},
		want: sig(0x00, void, class(0x02000063), class(0x1b000003)), ret: "Void", fmt: "?0x02000063 arg0, ?0x1b000003 arg1"},
	{name: "two-byte parameter count", blob: append([]byte{0x00, 0x80, 0x81, 0x01}, bytes.Repeat([]byte{0x08}, 0x81)...),
		want: sig(0x00, void, slicesRepeat(i4, 0x81)...), ret: "Void",
		fmt: strings.TrimSuffix(func() string {
			var b strings.Builder
			for i := range 0x81 {
				fmt.Fprintf(&b, "Int32 arg%d, ", i)
			}
			return b.String()
		}(), ", ")},
	{name: "trailing bytes ignored", blob: []byte{0x20, 0x01, 0x01, 0x08, 0xff, 0xff, 0x00},
		want: sig(0x20, void, i4), params: []Param{{Name: "x"}}, ret: "Void", fmt: "Int32 x"},
}

func slicesRepeat(t Type, n int) []Type {
	out := make([]Type, n)
	for i := range out {
		out[i] = t
	}
	return out
}

func TestParseMethodSig(t *testing.T) {
	for _, tt := range methodSigCases {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ParseMethodSig(tt.blob)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(m, tt.want) {
				t.Errorf("parsed\n %s\nwant\n %s", dump(m), dump(tt.want))
			}
			if got := FormatType(m.Ret, namer, tt.g); got != tt.ret {
				t.Errorf("return type %q, want %q", got, tt.ret)
			}
			if got := FormatParams(m, tt.params, namer, tt.g); got != tt.fmt {
				t.Errorf("params %q, want %q", got, tt.fmt)
			}
		})
	}
}

// dump prints parse results readably (pointers followed) for failure
// messages.
func dump(v any) string {
	var b strings.Builder
	var typ func(t Type)
	var method func(m MethodSig)
	typ = func(t Type) {
		b.WriteString(t.Kind.String())
		for _, m := range t.Mods {
			fmt.Fprintf(&b, " mod(%v %#x)", m.Required, m.Token)
		}
		if t.Token != 0 {
			fmt.Fprintf(&b, " %#x", t.Token)
		}
		if t.Kind == ElemVar || t.Kind == ElemMVar {
			fmt.Fprintf(&b, " %d", t.Index)
		}
		if t.Kind == ElemArray {
			fmt.Fprintf(&b, " rank %d sizes %v lo %v", t.Rank, t.Sizes, t.LoBounds)
		}
		if t.Elem != nil {
			b.WriteString(" (")
			typ(*t.Elem)
			b.WriteString(")")
		}
		if t.Args != nil {
			b.WriteString(" <")
			for _, a := range t.Args {
				typ(a)
				b.WriteString("; ")
			}
			b.WriteString(">")
		}
		if t.Method != nil {
			b.WriteString(" {")
			method(*t.Method)
			b.WriteString("}")
		}
	}
	method = func(m MethodSig) {
		fmt.Fprintf(&b, "conv %d this %v explicit %v generic %d vararg %d ret ", m.CallConv, m.HasThis, m.ExplicitThis, m.GenericParams, m.VarArgStart)
		typ(m.Ret)
		fmt.Fprintf(&b, " params(nil=%v) [", m.Params == nil)
		for _, p := range m.Params {
			typ(p)
			b.WriteString("; ")
		}
		b.WriteString("]")
	}
	switch v := v.(type) {
	case MethodSig:
		method(v)
	case Type:
		typ(v)
	case []Type:
		for _, t := range v {
			typ(t)
			b.WriteString("; ")
		}
	default:
		fmt.Fprintf(&b, "%+v", v)
	}
	return b.String()
}

// Every strict prefix of a valid blob must give an error or a valid parse
// of what is there, never a panic.
func TestParsePrefixes(t *testing.T) {
	check := func(name string, blob []byte, parse func([]byte) error) {
		t.Helper()
		for i := 0; i < len(blob); i++ {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s: prefix % x: panic %v", name, blob[:i], r)
					}
				}()
				if err := parse(blob[:i]); err != nil && !strings.HasPrefix(err.Error(), "naming: signature byte ") {
					t.Errorf("%s: prefix % x: error without position: %v", name, blob[:i], err)
				}
			}()
		}
	}
	for _, tt := range methodSigCases {
		check(tt.name, tt.blob, func(b []byte) error { _, err := ParseMethodSig(b); return err })
	}
	for _, tt := range fieldSigCases {
		check(tt.name, tt.blob, func(b []byte) error { _, err := ParseFieldSig(b); return err })
	}
	for _, tt := range typeSpecCases {
		check(tt.name, tt.blob, func(b []byte) error { _, err := ParseTypeSpec(b); return err })
	}
	for _, tt := range methodSpecCases {
		check(tt.name, tt.blob, func(b []byte) error { _, err := ParseMethodSpec(b); return err })
	}
	// Dropping the last byte of a blob with no trailing bytes must fail.
	for _, tt := range methodSigCases {
		if tt.name == "trailing bytes ignored" {
			continue
		}
		if _, err := ParseMethodSig(tt.blob[:len(tt.blob)-1]); err == nil {
			t.Errorf("%s: blob without its last byte parsed", tt.name)
		}
	}
}

func TestCompressedIntegers(t *testing.T) {
	unsigned := []struct {
		blob []byte
		want uint32
	}{
		{[]byte{0x00}, 0},
		{[]byte{0x03}, 3},
		{[]byte{0x7f}, 0x7f},
		{[]byte{0x80, 0x80}, 0x80},
		{[]byte{0xae, 0x57}, 0x2e57},
		{[]byte{0xbf, 0xff}, 0x3fff},
		{[]byte{0xc0, 0x00, 0x40, 0x00}, 0x4000},
		{[]byte{0xdf, 0xff, 0xff, 0xff}, 0x1fffffff},
		{[]byte{0x80, 0x05}, 5}, // not the shortest form, still decodable
	}
	for _, tt := range unsigned {
		r := &sigReader{b: tt.blob}
		got, err := r.uint("test value")
		if err != nil || got != tt.want || r.off != len(tt.blob) {
			t.Errorf("% x: got %#x, %v, consumed %d; want %#x", tt.blob, got, err, r.off, tt.want)
		}
	}
	signed := []struct {
		blob []byte
		want int32
	}{
		// The examples of II.23.2.
		{[]byte{0x06}, 3}, {[]byte{0x7b}, -3}, {[]byte{0x80, 0x80}, 64}, {[]byte{0x01}, -64},
		{[]byte{0xc0, 0x00, 0x40, 0x00}, 8192}, {[]byte{0x80, 0x01}, -8192},
		{[]byte{0xdf, 0xff, 0xff, 0xfe}, 268435455}, {[]byte{0xc0, 0x00, 0x00, 0x01}, -268435456},
		{[]byte{0x00}, 0}, {[]byte{0x7e}, 63}, {[]byte{0x7f}, -1},
	}
	for _, tt := range signed {
		r := &sigReader{b: tt.blob}
		got, err := r.int("test value")
		if err != nil || got != tt.want || r.off != len(tt.blob) {
			t.Errorf("signed % x: got %d, %v; want %d", tt.blob, got, err, tt.want)
		}
	}
	bad := []struct {
		blob []byte
		want string
	}{
		{nil, "byte 0: want test value, got end of signature"},
		{[]byte{0x80}, "byte 0: truncated compressed integer (test value)"},
		{[]byte{0xc0, 0x00, 0x00}, "byte 0: truncated compressed integer (test value)"},
		{[]byte{0xe0, 0x00, 0x00, 0x00}, "byte 0: invalid compressed integer lead byte 0xe0"},
		{[]byte{0xff}, "byte 0: invalid compressed integer lead byte 0xff"},
	}
	for _, tt := range bad {
		r := &sigReader{b: tt.blob}
		if _, err := r.uint("test value"); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("% x: err %v, want %q", tt.blob, err, tt.want)
		}
	}
}

func TestCodedTokens(t *testing.T) {
	tests := []struct {
		blob []byte
		want uint32
	}{
		{[]byte{0x08}, 0x02000002},                   // TypeDef
		{[]byte{0x15}, 0x01000005},                   // TypeRef
		{[]byte{0x06}, 0x1b000001},                   // TypeSpec
		{[]byte{0x81, 0x8c}, 0x02000063},             // 2-byte TypeDef
		{[]byte{0xc0, 0x12, 0x34, 0x55}, 0x01048d15}, // 4-byte TypeRef
		{[]byte{0xc3, 0xff, 0xff, 0xfe}, 0x1bffffff}, // largest row
		{[]byte{0x00}, 0x02000000},                   // nil TypeDef
	}
	for _, tt := range tests {
		r := &sigReader{b: tt.blob}
		got, err := r.token("type token")
		if err != nil || got != tt.want {
			t.Errorf("% x: %#x, %v; want %#x", tt.blob, got, err, tt.want)
		}
	}
	for _, blob := range [][]byte{{0x03}, {0x07}, {0xc4, 0x00, 0x00, 0x00}, {0xdf, 0xff, 0xff, 0xfc}} {
		if got, err := (&sigReader{b: blob}).token("type token"); err == nil {
			t.Errorf("% x: accepted as %#x", blob, got)
		}
	}
}

type typeCase struct {
	name string
	blob []byte
	want Type
	fmt  string
}

var fieldSigCases = []typeCase{
	{"Int32 field", []byte{0x06, 0x08}, i4, "Int32"},
	{"volatile field", []byte{0x06, 0x1f, trVol, 0x08}, withMods(i4, CustomMod{Required: true, Token: tokVol}), "Int32"},
	{"List<Item> field", []byte{0x06, 0x15, 0x12, trList, 0x01, 0x12, tdItem}, inst(class(tokList), class(tokItem)), "System.Collections.Generic.List<Acme.Shop.Item>"},
	{"ref field", []byte{0x06, 0x10, 0x13, 0x00}, wrap(ElemByRef, tvar(0)), "!0&"},
}

var typeSpecCases = []typeCase{
	{"List<Int32>", []byte{0x15, 0x12, trList, 0x01, 0x08}, inst(class(tokList), i4), "System.Collections.Generic.List<Int32>"},
	{"Int32[][]", []byte{0x1d, 0x1d, 0x08}, wrap(ElemSZArray, wrap(ElemSZArray, i4)), "Int32[][]"},
	{"Int32[,]", []byte{0x14, 0x08, 0x02, 0x00, 0x00}, Type{Kind: ElemArray, Elem: &i4, Rank: 2}, "Int32[,]"},
	{"VAR", []byte{0x13, 0x03}, tvar(3), "!3"},
	{"MVAR", []byte{0x1e, 0x80, 0x80}, mvar(128), "!!128"},
	{"PINNED", []byte{0x45, 0x0f, 0x08}, wrap(ElemPinned, wrap(ElemPtr, i4)), "Int32*"},
	{"modopt in generic argument", []byte{0x15, 0x11, trKVP, 0x02, 0x20, trConst, 0x08, 0x0e},
		inst(valueType(tokKVP), withMods(i4, CustomMod{Token: tokConst}), str), "System.Collections.Generic.KeyValuePair<Int32, String>"},
	{"fnptr", []byte{0x1b, 0x20, 0x00, 0x01}, Type{Kind: ElemFnPtr, Method: &MethodSig{HasThis: true, Ret: void, VarArgStart: -1}}, "fnptr Void()"},
}

func TestParseFieldSig(t *testing.T) {
	for _, tt := range fieldSigCases {
		t.Run(tt.name, func(t *testing.T) {
			ft, err := ParseFieldSig(tt.blob)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(ft, tt.want) {
				t.Errorf("parsed %s, want %s", dump(ft), dump(tt.want))
			}
			if got := FormatType(ft, namer, Generics{}); got != tt.fmt {
				t.Errorf("formatted %q, want %q", got, tt.fmt)
			}
		})
	}
}

func TestParseTypeSpec(t *testing.T) {
	for _, tt := range typeSpecCases {
		t.Run(tt.name, func(t *testing.T) {
			ts, err := ParseTypeSpec(tt.blob)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(ts, tt.want) {
				t.Errorf("parsed %s, want %s", dump(ts), dump(tt.want))
			}
			if got := FormatType(ts, namer, Generics{}); got != tt.fmt {
				t.Errorf("formatted %q, want %q", got, tt.fmt)
			}
		})
	}
}

var methodSpecCases = []struct {
	name string
	blob []byte
	want []Type
	fmt  []string
}{
	{"<Int32, Item>", []byte{0x0a, 0x02, 0x08, 0x12, tdItem}, types(i4, class(tokItem)), []string{"Int32", "Acme.Shop.Item"}},
	{"<List<T>>", []byte{0x0a, 0x01, 0x15, 0x12, trList, 0x01, 0x13, 0x00}, types(inst(class(tokList), tvar(0))), []string{"System.Collections.Generic.List<T>"}},
}

func TestParseMethodSpec(t *testing.T) {
	for _, tt := range methodSpecCases {
		t.Run(tt.name, func(t *testing.T) {
			args, err := ParseMethodSpec(tt.blob)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(args, tt.want) {
				t.Errorf("parsed %s, want %s", dump(args), dump(tt.want))
			}
			var got []string
			for _, a := range args {
				got = append(got, FormatType(a, namer, Generics{TypeParams: []string{"T"}}))
			}
			if !reflect.DeepEqual(got, tt.fmt) {
				t.Errorf("formatted %q, want %q", got, tt.fmt)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	method := func(b []byte) error { _, err := ParseMethodSig(b); return err }
	field := func(b []byte) error { _, err := ParseFieldSig(b); return err }
	typeSpec := func(b []byte) error { _, err := ParseTypeSpec(b); return err }
	methodSpec := func(b []byte) error { _, err := ParseMethodSpec(b); return err }
	tests := []struct {
		name  string
		parse func([]byte) error
		blob  []byte
		want  string // the whole message after "naming: signature byte "
	}{
		{"empty method sig", method, nil, "0: want calling convention, got end of signature"},
		{"empty field sig", field, []byte{}, "0: want FIELD calling convention (0x06), got end of signature"},
		{"empty typespec", typeSpec, nil, "0: want element type, got end of signature"},
		{"empty methodspec", methodSpec, nil, "0: want GENERICINST calling convention (0x0a), got end of signature"},
		{"no return type", method, []byte{0x00, 0x00}, "2: want element type, got end of signature"},
		{"bad lead byte", method, []byte{0x00, 0xe0}, "1: invalid compressed integer lead byte 0xe0 (parameter count)"},
		{"truncated 2-byte count", method, []byte{0x00, 0x80}, "1: truncated compressed integer (parameter count): lead byte 0x80 needs 2 bytes, have 1"},
		{"truncated 4-byte token", method, []byte{0x00, 0x00, 0x12, 0xc0, 0x00}, "3: truncated compressed integer (type token): lead byte 0xc0 needs 4 bytes, have 2"},
		{"unknown element type", method, []byte{0x00, 0x01, 0x01, 0x17}, "3: want element type, got unknown 0x17"},
		{"END as a type", typeSpec, []byte{0x1d, 0x00}, "1: want element type, got unknown 0x0"},
		{"INTERNAL", typeSpec, []byte{0x21, 0, 0, 0, 0, 0, 0, 0, 0}, "0: want element type, got runtime-internal INTERNAL (0x21)"},
		{"field sig as method sig", method, []byte{0x06, 0x08}, "0: want a method calling convention, got 0x6"},
		{"method sig as field sig", field, []byte{0x00, 0x00, 0x01}, "0: want FIELD calling convention (0x06), got 0x0"},
		{"not a methodspec", methodSpec, []byte{0x10, 0x01, 0x08}, "0: want GENERICINST calling convention (0x0a), got 0x10"},
		{"absurd param count", method, []byte{0x00, 0xd0, 0x00, 0x00, 0x00, 0x01, 0x08, 0x08, 0x08, 0x08}, "1: parameter count 268435456, but only 5 bytes follow"},
		{"absurd generic argument count", typeSpec, []byte{0x15, 0x12, trList, 0xdf, 0xff, 0xff, 0xff, 0x08}, "3: generic argument count 536870911, but only 1 bytes follow"},
		{"absurd methodspec count", methodSpec, []byte{0x0a, 0x7f, 0x08}, "1: generic argument count 127, but only 1 bytes follow"},
		{"too few params", method, []byte{0x00, 0x04, 0x01, 0x08, 0x08, 0x08}, "6: want element type, got end of signature"},
		{"depth bomb", method, append([]byte{0x00, 0x01, 0x01}, bytes.Repeat([]byte{0x1d}, 10000)...), "67: types nested deeper than 64"},
		{"typespec depth bomb", typeSpec, append(bytes.Repeat([]byte{0x15, 0x12, trList, 0x01}, 5000), 0x08), "253: types nested deeper than 64"},
		{"fnptr depth bomb", typeSpec, bytes.Repeat([]byte{0x1b, 0x00, 0x00}, 5000), "192: types nested deeper than 64"},
		{"generic inst of a primitive", method, []byte{0x00, 0x00, 0x15, 0x08, 0x01, 0x08}, "3: want CLASS or VALUETYPE after GENERICINST, got I4"},
		{"generic inst without arguments", typeSpec, []byte{0x15, 0x12, trList, 0x00}, "3: generic instantiation with no type arguments"},
		{"methodspec without arguments", methodSpec, []byte{0x0a, 0x00}, "1: method instantiation with no type arguments"},
		{"coded token tag 3", typeSpec, []byte{0x12, 0x07}, "1: invalid TypeDefOrRefOrSpec tag 3 (type token)"},
		{"coded token row too large", typeSpec, []byte{0x12, 0xc4, 0x00, 0x00, 0x00}, "1: type token row 0x1000000 does not fit a token"},
		{"bad custom modifier token", typeSpec, []byte{0x1f, 0x03, 0x08}, "1: invalid TypeDefOrRefOrSpec tag 3 (custom modifier type)"},
		{"modifier with nothing after", field, []byte{0x06, 0x20, trVol}, "3: want element type, got end of signature"},
		{"second sentinel", method, []byte{0x05, 0x02, 0x01, 0x41, 0x08, 0x41, 0x08}, "5: second SENTINEL in parameter list"},
		{"sentinel outside a parameter list", typeSpec, []byte{0x41, 0x08}, "0: want element type, got SENTINEL outside a vararg parameter list"},
		{"array rank 0", typeSpec, []byte{0x14, 0x08, 0x00, 0x00, 0x00}, "2: array rank 0, want 1 to 32"},
		{"array rank 33", typeSpec, []byte{0x14, 0x08, 0x21, 0x00, 0x00}, "2: array rank 33, want 1 to 32"},
		{"more sizes than rank", typeSpec, []byte{0x14, 0x08, 0x01, 0x02, 0x01, 0x01, 0x00}, "3: 2 array sizes for rank 1"},
		{"more bounds than rank", typeSpec, []byte{0x14, 0x08, 0x01, 0x00, 0x02, 0x01, 0x01}, "4: 2 array lower bounds for rank 1"},
		{"truncated lower bound", typeSpec, []byte{0x14, 0x08, 0x02, 0x00, 0x01, 0x80}, "5: truncated compressed integer (array lower bound): lead byte 0x80 needs 2 bytes, have 1"},
		{"generic parameter count missing", method, []byte{0x10}, "1: want generic parameter count, got end of signature"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.parse(tt.blob)
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			if want := "naming: signature byte " + tt.want; err.Error() != want {
				t.Errorf("error\n %q\nwant\n %q", err, want)
			}
		})
	}
}

// Counts are checked against the bytes left, and nested counts must not
// multiply into big allocations either: each of 60 nested generic
// instantiations below claims nearly the whole blob as its argument count.
func TestParseNoAllocationAmplification(t *testing.T) {
	const pad = 1 << 16
	var blob []byte
	for range 60 {
		blob = append(blob, 0x15, 0x12, trList, 0xc0, 0x00, 0xf0, 0x00) // 0xf000 arguments
	}
	blob = append(blob, make([]byte, pad)...) // 0x00 is not a type: the parse fails at the bottom
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := ParseTypeSpec(blob)
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Fatal("parsed")
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("allocated %d bytes for a %d-byte blob", n, len(blob))
	}
}
