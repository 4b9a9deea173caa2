package naming

import "testing"

// nestedNamer is namer with the nesting chains of a few tokens.
type nestedNamer struct {
	fakeNamer
	parts map[uint32][]string // raw metadata names, outermost first
}

func (n nestedNamer) NestedParts(tok uint32) ([]string, []int, bool) {
	raw, ok := n.parts[tok]
	if !ok {
		return nil, nil, false
	}
	var names []string
	var arities []int
	for _, r := range raw {
		name, a := splitArity(r)
		names, arities = append(names, name), append(arities, a)
	}
	return names, arities, true
}

const (
	tokRepo  = 0x02000010 // Acme.Repo`1
	tokInner = 0x02000011 // Acme.Outer+Inner
	tokCage  = 0x02000012 // Acme.Cage`1+Door`1
)

var nestNamer = nestedNamer{fakeNamer: namer, parts: map[uint32][]string{
	tokList:  {"System.Collections.Generic.List`1"},
	tokDict:  {"System.Collections.Generic.Dictionary`2"},
	tokItem:  {"Acme.Shop.Item"},
	tokRepo:  {"Acme.Repo`1"},
	tokInner: {"Acme.Outer", "Inner"},
	tokCage:  {"Acme.Cage`1", "Door`1"},
}}

// The metadata form is what upstream's no-code targets write
// (clr_helpers.cpp GetSigTypeTokName): each case is a type as its tests
// and docs spell it.
func TestFormatMetadata(t *testing.T) {
	tests := []struct {
		name string
		t    Type
		n    TypeNamer
		want string
	}{
		{"void", void, nil, "System.Void"},
		{"primitive", i4, nil, "System.Int32"},
		{"string", str, nil, "System.String"},
		{"object", prim(ElemObject), nil, "System.Object"},
		{"class", class(tokItem), nestNamer, "Acme.Shop.Item"},
		{"class without nesting known", class(tokItem), namer, "Acme.Shop.Item"},
		{"nested", class(tokInner), nestNamer, "Acme.Outer+Inner"},
		{"type parameter", tvar(0), nil, "!0"},
		{"method type parameter", mvar(1), nil, "!!1"},
		{"generic instance", inst(class(tokList), i4), nestNamer, "System.Collections.Generic.List`1[System.Int32]"},
		{"two arguments, no space", inst(class(tokDict), str, mvar(0)), nestNamer, "System.Collections.Generic.Dictionary`2[System.String,!!0]"},
		{"nested generic", inst(class(tokCage), tvar(0), str), nestNamer, "Acme.Cage`1+Door`1[!0,System.String]"},
		{"array", wrap(ElemSZArray, str), nil, "System.String[]"},
		{"array of a type parameter", wrap(ElemSZArray, tvar(0)), nil, "!0[]"},
		{"by-ref", wrap(ElemByRef, i4), nil, "System.Int32&"},
		{"pointer", wrap(ElemPtr, prim(ElemU1)), nil, "System.Byte*"},
		{"typespec", class(tokTSList), nestNamer, "System.Collections.Generic.List`1[System.Int32]"},
		{"unnamed token", class(0x02000099), nestNamer, "?0x2000099"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FormatMetadata(tt.t, tt.n); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestMetadataTypeName(t *testing.T) {
	for tok, want := range map[uint32]string{tokRepo: "Acme.Repo`1", tokInner: "Acme.Outer+Inner", tokCage: "Acme.Cage`1+Door`1", tokItem: "Acme.Shop.Item"} {
		if got := MetadataTypeName(nestNamer, tok); got != want {
			t.Errorf("%#x: got %q, want %q", tok, got, want)
		}
	}
}
