package naming

import (
	"fmt"
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

var namer = fakeNamer{
	names: map[uint32]string{
		0x02000002: "Acme.Shop.Item",
		0x02000003: "Acme.Shop.Money",
		0x01000005: "System.Collections.Generic.List`1",
		0x01000006: "System.Collections.Generic.Dictionary`2",
		0x01000007: "System.Runtime.CompilerServices.IsVolatile",
	},
	specs: map[uint32][]byte{
		// List<Int32>
		0x1b000001: {0x15, 0x12, 0x15, 0x01, 0x08},
	},
}

// Coded TypeDefOrRefOrSpec: (row << 2) | tag; tag 0 TypeDef, 1 TypeRef, 2 TypeSpec.
const (
	tdItem  = 2<<2 | 0 // 0x08
	tdMoney = 3<<2 | 0 // 0x0c
	trList  = 5<<2 | 1 // 0x15
	trDict  = 6<<2 | 1 // 0x19
	trVol   = 7<<2 | 1 // 0x1d
	tsList  = 1<<2 | 2 // 0x06
)

func TestParseMethodSig(t *testing.T) {
	tests := []struct {
		name    string
		blob    []byte
		params  []Param
		g       Generics
		wantRet string
		want    string
		check   func(MethodSig) string
	}{
		{"static void M()", []byte{0x00, 0x00, 0x01}, nil, Generics{}, "Void", "", nil},
		{"instance Int32 M(String, Int32)", []byte{0x20, 0x02, 0x08, 0x0e, 0x08},
			[]Param{{Name: "s"}, {Name: "n"}}, Generics{}, "Int32", "String s, Int32 n",
			func(m MethodSig) string {
				if !m.HasThis {
					return "HasThis false"
				}
				return ""
			}},
		{"unnamed params", []byte{0x00, 0x02, 0x01, 0x0a, 0x0d}, nil, Generics{}, "Void", "Int64 arg0, Double arg1", nil},
		{"generic method T M<T>(T, List<T>)", []byte{0x10, 0x01, 0x02, 0x1e, 0x00, 0x1e, 0x00, 0x15, 0x12, trList, 0x01, 0x1e, 0x00},
			[]Param{{Name: "v"}, {Name: "l"}}, Generics{MethodParams: []string{"T"}}, "T", "T v, System.Collections.Generic.List<T> l",
			func(m MethodSig) string {
				if m.GenericParams != 1 {
					return fmt.Sprintf("GenericParams %d", m.GenericParams)
				}
				return ""
			}},
		{"generic method filled", []byte{0x10, 0x01, 0x01, 0x1e, 0x00, 0x1e, 0x00},
			[]Param{{Name: "v"}}, Generics{Method: []string{"Int32"}, MethodParams: []string{"T"}}, "Int32", "Int32 v", nil},
		{"VAR in generic type, no names", []byte{0x20, 0x01, 0x13, 0x00, 0x13, 0x01},
			nil, Generics{}, "!0", "!1 arg0", nil},
		{"VAR with actual type", []byte{0x20, 0x01, 0x13, 0x00, 0x13, 0x00},
			[]Param{{Name: "key"}}, Generics{Type: []string{"Acme.Shop.Item"}, TypeParams: []string{"T"}}, "Acme.Shop.Item", "Acme.Shop.Item key", nil},
		{"jagged array", []byte{0x00, 0x01, 0x01, 0x1d, 0x1d, 0x08}, []Param{{Name: "a"}}, Generics{}, "Void", "Int32[][] a", nil},
		{"rank-2 array without bounds", []byte{0x00, 0x01, 0x01, 0x14, 0x08, 0x02, 0x00, 0x00}, []Param{{Name: "m"}}, Generics{}, "Void", "Int32[,] m", nil},
		{"rank-3 array with sizes and negative bound", []byte{0x00, 0x01, 0x01, 0x14, 0x0d, 0x03, 0x02, 0x02, 0x03, 0x01, 0x7d}, []Param{{Name: "m"}}, Generics{}, "Void", "Double[,,] m",
			func(m MethodSig) string {
				a := m.Params[0]
				if a.Rank != 3 || len(a.Sizes) != 2 || a.Sizes[1] != 3 || len(a.LoBounds) != 1 || a.LoBounds[0] != -2 {
					return fmt.Sprintf("array %+v", a)
				}
				return ""
			}},
		{"ref, out and in", []byte{0x00, 0x03, 0x01, 0x10, 0x08, 0x10, 0x0e, 0x10, 0x11, tdMoney},
			[]Param{{Name: "a"}, {Name: "b", Out: true}, {Name: "c", In: true}}, Generics{}, "Void", "ref Int32 a, out String b, in Acme.Shop.Money c", nil},
		{"byref return", []byte{0x00, 0x00, 0x10, 0x08}, nil, Generics{}, "Int32&", "", nil},
		{"typedbyref and pointer", []byte{0x00, 0x02, 0x01, 0x16, 0x0f, 0x05}, []Param{{Name: "t"}, {Name: "p"}}, Generics{}, "Void", "TypedReference t, Byte* p", nil},
		{"function pointer", []byte{0x00, 0x01, 0x01, 0x1b, 0x00, 0x01, 0x08, 0x0e}, []Param{{Name: "f"}}, Generics{}, "Void", "fnptr Int32(String) f", nil},
		{"modreq volatile", []byte{0x00, 0x01, 0x01, 0x1f, trVol, 0x08}, []Param{{Name: "v"}}, Generics{}, "Void", "Int32 v",
			func(m MethodSig) string {
				if len(m.Params[0].Mods) != 1 || !m.Params[0].Mods[0].Required || m.Params[0].Mods[0].Token != 0x01000007 {
					return fmt.Sprintf("mods %+v", m.Params[0].Mods)
				}
				return ""
			}},
		{"vararg with sentinel", []byte{0x05, 0x02, 0x01, 0x08, 0x41, 0x0e}, []Param{{Name: "a"}}, Generics{}, "Void", "Int32 a, ..., String arg1",
			func(m MethodSig) string {
				if m.VarArgStart != 1 {
					return fmt.Sprintf("VarArgStart %d", m.VarArgStart)
				}
				return ""
			}},
		{"value type and class tokens", []byte{0x00, 0x02, 0x12, tdItem, 0x11, tdMoney, 0x1c}, []Param{{Name: "m"}, {Name: "o"}}, Generics{}, "Acme.Shop.Item", "Acme.Shop.Money m, Object o", nil},
		{"nested generic instantiation", []byte{0x00, 0x01, 0x01, 0x15, 0x12, trDict, 0x02, 0x0e, 0x15, 0x12, trList, 0x01, 0x12, tdItem},
			[]Param{{Name: "d"}}, Generics{}, "Void", "System.Collections.Generic.Dictionary<String, System.Collections.Generic.List<Acme.Shop.Item>> d", nil},
		{"typespec token", []byte{0x00, 0x01, 0x01, 0x12, tsList}, []Param{{Name: "l"}}, Generics{}, "Void", "System.Collections.Generic.List<Int32> l", nil},
		{"two-byte param count", append([]byte{0x00, 0x80, 0x81, 0x01}, repeat(0x08, 0x81)...), nil, Generics{}, "Void", "", func(m MethodSig) string {
			if len(m.Params) != 0x81 {
				return fmt.Sprintf("%d params", len(m.Params))
			}
			return ""
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ParseMethodSig(tt.blob)
			if err != nil {
				t.Fatal(err)
			}
			if got := FormatType(m.Ret, namer, tt.g); got != tt.wantRet {
				t.Errorf("return %q, want %q", got, tt.wantRet)
			}
			if tt.want != "" || len(m.Params) == 0 {
				if got := FormatParams(m, tt.params, namer, tt.g); got != tt.want {
					t.Errorf("params %q, want %q", got, tt.want)
				}
			}
			if tt.check != nil {
				if msg := tt.check(m); msg != "" {
					t.Error(msg)
				}
			}
			// Every strict prefix is either an error or a valid shorter parse,
			// never a panic.
			for i := 0; i < len(tt.blob); i++ {
				_, _ = ParseMethodSig(tt.blob[:i])
			}
		})
	}
}

func repeat(b byte, n int) []byte { return []byte(strings.Repeat(string([]byte{b}), n)) }

func TestCompressedIntegers(t *testing.T) {
	tests := []struct {
		blob []byte
		want uint32
	}{
		{[]byte{0x00}, 0}, {[]byte{0x7f}, 0x7f}, {[]byte{0x80, 0x80}, 0x80}, {[]byte{0xbf, 0xff}, 0x3fff},
		{[]byte{0xc0, 0x00, 0x40, 0x00}, 0x4000}, {[]byte{0xdf, 0xff, 0xff, 0xff}, 0x1fffffff},
	}
	for _, tt := range tests {
		r := &sigReader{b: tt.blob}
		got, err := r.uint()
		if err != nil || got != tt.want || r.off != len(tt.blob) {
			t.Errorf("% x: got %#x (%v), consumed %d", tt.blob, got, err, r.off)
		}
	}
	signed := []struct {
		blob []byte
		want int32
	}{
		{[]byte{0x06}, 3}, {[]byte{0x7b}, -3}, {[]byte{0x80, 0x80}, 64}, {[]byte{0x01}, -64},
		{[]byte{0xc0, 0x00, 0x40, 0x00}, 8192}, {[]byte{0x80, 0x01}, -8192},
		{[]byte{0xdf, 0xff, 0xff, 0xfe}, 268435455}, {[]byte{0xc0, 0x00, 0x00, 0x01}, -268435456},
	}
	for _, tt := range signed {
		r := &sigReader{b: tt.blob}
		got, err := r.int()
		if err != nil || got != tt.want {
			t.Errorf("signed % x: got %d (%v), want %d", tt.blob, got, err, tt.want)
		}
	}
}

func TestCodedTokens(t *testing.T) {
	for _, tt := range []struct {
		b    byte
		want uint32
	}{{0x08, 0x02000002}, {0x15, 0x01000005}, {0x06, 0x1b000001}} {
		r := &sigReader{b: []byte{tt.b}}
		got, err := r.token()
		if err != nil || got != tt.want {
			t.Errorf("%#x: %#x, %v", tt.b, got, err)
		}
	}
	if _, err := (&sigReader{b: []byte{0x03}}).token(); err == nil {
		t.Error("tag 3 accepted")
	}
}

func TestParseErrors(t *testing.T) {
	bomb := append([]byte{0x00, 0x01, 0x01}, repeat(0x1d, 10000)...)
	tests := []struct {
		name string
		blob []byte
		want string
	}{
		{"empty", nil, "unexpected end"},
		{"bad lead byte", []byte{0x00, 0xe0}, "lead byte"},
		{"truncated 2-byte count", []byte{0x00, 0x80}, "truncated"},
		{"unknown element type", []byte{0x00, 0x01, 0x01, 0x17}, "unexpected element type"},
		{"field sig as method", []byte{0x06, 0x08}, "not a method"},
		{"absurd param count", []byte{0x00, 0xdf, 0xff, 0xff, 0xff, 0x01}, "only"},
		{"depth bomb", bomb, "nested deeper"},
		{"generic inst of primitive", []byte{0x00, 0x00, 0x15, 0x08, 0x01, 0x08}, "generic instantiation"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseMethodSig(tt.blob)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one containing %q", err, tt.want)
			}
			if !strings.HasPrefix(err.Error(), "naming: signature byte ") {
				t.Errorf("error without position: %v", err)
			}
		})
	}
}

func TestFieldTypeSpecMethodSpec(t *testing.T) {
	ft, err := ParseFieldSig([]byte{0x06, 0x1f, trVol, 0x08})
	if err != nil || FormatType(ft, namer, Generics{}) != "Int32" || len(ft.Mods) != 1 {
		t.Errorf("field: %+v %v", ft, err)
	}
	if _, err := ParseFieldSig([]byte{0x00, 0x08}); err == nil {
		t.Error("method sig accepted as field")
	}
	ts, err := ParseTypeSpec(namer.specs[0x1b000001])
	if err != nil || FormatType(ts, namer, Generics{}) != "System.Collections.Generic.List<Int32>" {
		t.Errorf("typespec: %v %v", FormatType(ts, namer, Generics{}), err)
	}
	args, err := ParseMethodSpec([]byte{0x0a, 0x02, 0x08, 0x12, tdItem})
	if err != nil || len(args) != 2 || FormatType(args[1], namer, Generics{}) != "Acme.Shop.Item" {
		t.Errorf("methodspec: %+v %v", args, err)
	}
}

func TestStripArity(t *testing.T) {
	for in, want := range map[string]string{
		"List`1": "List", "Dictionary`2": "Dictionary", "Outer`1.Inner`2": "Outer.Inner",
		"Plain": "Plain", "Odd`": "Odd`", "A`12b": "Ab",
	} {
		if got := StripArity(in); got != want {
			t.Errorf("StripArity(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFormatMethodName(t *testing.T) {
	if got := FormatMethodName("Acme.Repo<Acme.Item>", "Find", []string{"Int32"}); got != "Acme.Repo<Acme.Item>.Find<Int32>" {
		t.Error(got)
	}
	if got := FormatMethodName("Acme.Cart", "Add", nil); got != "Acme.Cart.Add" {
		t.Error(got)
	}
}
