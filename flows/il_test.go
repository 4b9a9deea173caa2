package flows

import (
	"reflect"
	"strings"
	"testing"
)

// fat wraps IL in a fat header (flags 0x3003: fat, 12 bytes, no sections).
func fat(il ...byte) []byte {
	n := len(il)
	return append([]byte{0x03, 0x30, 8, 0, byte(n), byte(n >> 8), 0, 0, 0, 0, 0, 0}, il...)
}

func TestNewObjTokens(t *testing.T) {
	for _, tc := range []struct {
		name    string
		body    []byte
		want    []uint32
		wantErr string
	}{
		{"an mcs iterator method (tiny header)", mcsIterator(0x0a000005), []uint32{0x0a000005, mcsIterCtor}, ""},
		{"operands of every size skipped, and two-byte opcodes (fat header)", fat(
			0x21, 1, 2, 3, 4, 0x73, 0, 0, 0, // ldc.i8 whose bytes hold a newobj
			0x45, 2, 0, 0, 0, 0, 0, 0, 0, 0x73, 0, 0, 0, // switch over two targets, one of them 0x73...
			0xfe, 0x0c, 0x73, 0, // ldloc 0x0073
			0xfe, 0x06, 1, 0, 0, 6, // ldftn
			0xfe, 0x16, 2, 0, 0, 2, // constrained.
			0x73, 0x07, 0x00, 0x00, 0x06, // newobj 0x06000007
			0xde, 0x00, 0xdd, 0, 0, 0, 0, // leave.s, leave
			0x20, 0x73, 0, 0, 0, // ldc.i4 0x73
			0x2a), []uint32{0x06000007}, ""},
		{"no newobj", []byte{2<<2 | 2, 0x00, 0x2a}, nil, ""},
		{"an unknown opcode", fat(0xfe, 0x08), nil, "unknown opcode 0xfe08"},
		{"an operand past the end", fat(0x73, 1, 2), nil, "truncated"},
		{"a switch with more targets than bytes", fat(0x45, 0xff, 0xff, 0xff, 0x0f), nil, "truncated"},
		{"a fat header longer than the body", []byte{0x03, 0x30, 8, 0, 99, 0, 0, 0, 0, 0, 0, 0, 0x2a}, nil, "truncated"},
		{"no header", []byte{0x01}, nil, "header format"},
		{"empty", nil, nil, "empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := NewObjTokens(tc.body)
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("error %v, want %q", err, tc.wantErr)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("NewObjTokens = %#x, want %#x", got, tc.want)
			}
		})
	}
}

func TestEnumerates(t *testing.T) {
	for in, want := range map[string]bool{
		"System.Collections.Generic.IEnumerable<Int32>":      true,
		"System.Collections.Generic.IEnumerator<Acme.Order>": true,
		"System.Collections.IEnumerable":                     true,
		"IEnumerator":                                        true,
		"IEnumerable<String>":                                true,
		"System.Collections.Generic.List<Int32>":             false,
		"Acme.IEnumerableish":                                false,
		"System.Collections.Generic.IAsyncEnumerable<Int32>": false,
		"Int32": false,
	} {
		if got := Enumerates(in); got != want {
			t.Errorf("Enumerates(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestGenericTypeDef(t *testing.T) {
	for _, tc := range []struct {
		name string
		sig  []byte
		want uint32
		ok   bool
	}{
		{"Repo`1+<Items>c__Iterator0<!0>: TypeDef 9", []byte{0x15, 0x12, 9 << 2, 1, 0x13, 0}, 0x02000009, true},
		{"a struct's, TypeDef 0x123 (two-byte index)", []byte{0x15, 0x11, 0x80 | 0x04, 0x8c, 1, 0x08}, 0x02000123, true},
		{"a four-byte index", []byte{0x15, 0x12, 0xc0, 0x01, 0x00, 0x00, 1, 0x08}, 0x02004000, true},
		{"a TypeRef's instantiation (another module)", []byte{0x15, 0x12, 9<<2 | 1, 1, 0x08}, 0, false},
		{"not an instantiation (an array)", []byte{0x1d, 0x08}, 0, false},
		{"truncated", []byte{0x15, 0x12}, 0, false},
		{"a truncated index", []byte{0x15, 0x12, 0x80}, 0, false},
		{"TypeDef 0", []byte{0x15, 0x12, 0, 1, 0x08}, 0, false},
	} {
		if got, ok := GenericTypeDef(tc.sig); got != tc.want || ok != tc.ok {
			t.Errorf("%s: %#x %v, want %#x %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}
