package naming

import (
	"reflect"
	"strings"
	"testing"
)

// selfNamer names every TypeDef and TypeRef, and answers every TypeSpec
// with the blob under test, so that fuzzed signatures can refer to
// themselves as hostile metadata could.
type selfNamer struct{ blob []byte }

func (n selfNamer) TypeName(tok uint32) (string, error) {
	if tok&1 != 0 {
		return "Acme.Generic`2", nil
	}
	return "Acme.Item", nil
}

func (n selfNamer) TypeSpec(uint32) ([]byte, error) { return n.blob, nil }

var fuzzGenerics = Generics{Type: []string{"Acme.Item"}, Method: []string{"", "Int32"}, TypeParams: []string{"T"}, MethodParams: []string{"M"}}

// The decoder reads metadata from any assembly a traced program loads:
// hostile or corrupt blobs must give an error, never a panic or a hang.
func FuzzParseMethodSig(f *testing.F) {
	for _, tt := range methodSigCases {
		f.Add(tt.blob)
	}
	f.Fuzz(func(t *testing.T, blob []byte) {
		m, err := ParseMethodSig(blob)
		if err != nil {
			return
		}
		if m.VarArgStart < -1 || m.VarArgStart >= len(m.Params) {
			t.Fatalf("VarArgStart %d with %d params", m.VarArgStart, len(m.Params))
		}
		// Trailing bytes are ignored.
		if m2, err := ParseMethodSig(append(blob[:len(blob):len(blob)], 0xff, 0x41)); err != nil || !reflect.DeepEqual(m, m2) {
			t.Fatalf("with trailing bytes: %v", err)
		}
		params := make([]Param, len(m.Params)/2)
		for i := range params {
			params[i] = Param{Name: "p", Out: i%2 == 0, In: i%3 == 0}
		}
		n := selfNamer{blob[1:]}
		_ = FormatType(m.Ret, n, fuzzGenerics)
		_ = FormatParams(m, params, n, fuzzGenerics)
		_ = FormatParams(m, nil, nil, Generics{})
	})
}

func FuzzParseTypeSpec(f *testing.F) {
	for _, tt := range typeSpecCases {
		f.Add(tt.blob)
	}
	for _, tt := range fieldSigCases {
		f.Add(tt.blob[1:])
	}
	for _, blob := range namer.specs {
		f.Add(blob)
	}
	f.Fuzz(func(t *testing.T, blob []byte) {
		if ts, err := ParseTypeSpec(blob); err == nil {
			_ = FormatType(ts, selfNamer{blob}, fuzzGenerics)
			_ = FormatType(ts, nil, Generics{})
		}
		if ft, err := ParseFieldSig(append([]byte{ccField}, blob...)); err == nil {
			_ = FormatType(ft, selfNamer{blob}, fuzzGenerics)
		}
		if args, err := ParseMethodSpec(append([]byte{ccGenericInst}, blob...)); err == nil {
			for _, a := range args {
				_ = FormatType(a, selfNamer{blob}, fuzzGenerics)
			}
		}
	})
}

// FuzzMatch: any pattern against any name answers without panicking, and
// a pattern without metacharacters matches exactly itself.
func FuzzMatch(f *testing.F) {
	f.Add("Acme.*", "Acme.Shop.Cart.Add")
	f.Add("*.Get?", "A.GetX")
	f.Add("**?*", "é")
	f.Fuzz(func(t *testing.T, pattern, name string) {
		got := Match(pattern, name)
		if !strings.ContainsAny(pattern, "*?") && got != (pattern == name) {
			t.Fatalf("Match(%q, %q) = %v", pattern, name, got)
		}
		if !Match("*", name) {
			t.Fatalf(`"*" does not match %q`, name)
		}
	})
}
