package naming

import (
	"strings"
	"testing"
	"time"
)

func TestFormatType(t *testing.T) {
	arr := func(e Type, rank uint32) Type { return Type{Kind: ElemArray, Elem: &e, Rank: rank} }
	tests := []struct {
		name string
		t    Type
		n    TypeNamer
		g    Generics
		want string
	}{
		{"primitive without namer", i4, nil, Generics{}, "Int32"},
		{"token without namer", class(tokItem), nil, Generics{}, "?0x02000002"},
		{"typedbyref", prim(ElemTypedByRef), nil, Generics{}, "TypedReference"},
		{"arity stripped from namer names", class(tokList), fakeNamer{names: map[uint32]string{tokList: "Outer`1.List`1"}}, Generics{}, "Outer.List"},
		{"array of rank-2 arrays", wrap(ElemSZArray, arr(i4, 2)), nil, Generics{}, "Int32[,][]"},
		{"rank-3 array of arrays", arr(wrap(ElemSZArray, i4), 3), nil, Generics{}, "Int32[][,,]"},
		{"by-ref to pointer", wrap(ElemByRef, wrap(ElemPtr, prim(ElemChar))), nil, Generics{}, "Char*&"},
		{"pinned omitted", wrap(ElemPinned, str), nil, Generics{}, "String"},
		{"modifiers omitted", withMods(wrap(ElemSZArray, withMods(i4, CustomMod{Token: tokConst})), CustomMod{Required: true, Token: tokVol}), namer, Generics{}, "Int32[]"},
		{"missing element", Type{Kind: ElemSZArray}, nil, Generics{}, "?[]"},
		{"missing fnptr signature", Type{Kind: ElemFnPtr}, nil, Generics{}, "fnptr ?"},
		{"kind without a name", Type{Kind: ElemSentinel}, nil, Generics{}, "Sentinel"},
		{"unknown kind", Type{Kind: 0x17}, nil, Generics{}, "ElementType(0x17)"},
		{"VAR substituted inside generic", inst(class(tokDict), tvar(0), mvar(0)), namer,
			Generics{Type: []string{"Acme.Shop.Item"}, MethodParams: []string{"TOut"}},
			"System.Collections.Generic.Dictionary<Acme.Shop.Item, TOut>"},
		{"huge generic parameter index", tvar(0xffffffff), nil, Generics{Type: []string{"x"}, TypeParams: []string{"T"}}, "!4294967295"},
		{"vararg fnptr with sentinel", Type{Kind: ElemFnPtr, Method: &MethodSig{CallConv: ccVarArg, Ret: void, Params: []Type{i4, str}, VarArgStart: 1}}, nil, Generics{}, "fnptr Void(Int32, ..., String)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FormatType(tt.t, tt.n, tt.g); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// A TypeSpec that refers to itself twice would take 2^depth steps to
// expand; the formatter must stop early with a bounded name.
func TestFormatTypeSpecCycle(t *testing.T) {
	start := time.Now()
	got := FormatType(class(0x1b000002), namer, Generics{})
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
	if !strings.HasPrefix(got, "System.Collections.Generic.Dictionary<System.Collections.Generic.Dictionary<") || !strings.HasSuffix(got, "...") {
		t.Errorf("got %.200q", got)
	}
	if len(got) > maxFormatLen+1024 {
		t.Errorf("%d bytes", len(got))
	}
	// The same through FormatParams, for every parameter.
	m := sig(0x00, void, class(0x1b000002), class(0x1b000002))
	if got := FormatParams(m, nil, namer, Generics{}); len(got) > maxFormatLen+1024 || !strings.HasSuffix(got, "...") {
		t.Errorf("params: %d bytes, ending %q", len(got), got[max(0, len(got)-20):])
	}
}

func TestStripArity(t *testing.T) {
	tests := []struct{ in, want string }{
		{"List`1", "List"},
		{"Dictionary`2", "Dictionary"},
		{"System.Collections.Generic.List`1", "System.Collections.Generic.List"},
		{"Outer`2+Inner`1", "Outer+Inner"},
		{"Outer`1.Inner`2", "Outer.Inner"},
		{"Outer`1.Inner", "Outer.Inner"},
		{"Func`16", "Func"},
		{"List`1[[System.Int32]]", "List[[System.Int32]]"},
		{"Plain", "Plain"},
		{"", ""},
		{"Odd`", "Odd`"},
		{"Odd`x", "Odd`x"},
		{"A`12b", "A`12b"},
		{"``1", "`"},
	}
	for _, tt := range tests {
		if got := StripArity(tt.in); got != tt.want {
			t.Errorf("StripArity(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFormatMethodName(t *testing.T) {
	tests := []struct {
		owner, method string
		args          []string
		want          string
	}{
		{"Acme.Repo<Acme.Item>", "Find", []string{"Int32"}, "Acme.Repo<Acme.Item>.Find<Int32>"},
		{"Acme.Cart", "Add", nil, "Acme.Cart.Add"},
		{"Acme.Cart", "Map", []string{"T", "List<String>"}, "Acme.Cart.Map<T, List<String>>"},
		{"", "Main", nil, "Main"},
		{"Acme.Cart", ".ctor", []string{}, "Acme.Cart..ctor"},
	}
	for _, tt := range tests {
		if got := FormatMethodName(tt.owner, tt.method, tt.args); got != tt.want {
			t.Errorf("FormatMethodName(%q, %q, %q) = %q, want %q", tt.owner, tt.method, tt.args, got, tt.want)
		}
	}
}

func TestElementTypeString(t *testing.T) {
	tests := map[ElementType]string{
		ElemEnd: "End", ElemI4: "I4", ElemU: "U", ElemString: "String", ElemSZArray: "SZArray",
		ElemGenericInst: "GenericInst", ElemTypedByRef: "TypedByRef", ElemCModReqd: "CModReqd",
		ElemSentinel: "Sentinel", ElemPinned: "Pinned", 0x17: "ElementType(0x17)", 0xff: "ElementType(0xff)",
	}
	for k, want := range tests {
		if got := k.String(); got != want {
			t.Errorf("%#x: %q, want %q", byte(k), got, want)
		}
	}
}
