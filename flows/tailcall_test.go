package flows

import (
	"reflect"
	"testing"
)

// tiny wraps IL in a tiny method header.
func tiny(il ...byte) []byte { return append([]byte{byte(len(il)<<2 | 2)}, il...) }

func TestTailCallees(t *testing.T) {
	def := func(row byte) []byte { return []byte{row, 0, 0, 0x06} }
	ref := []byte{1, 0, 0, 0x0a}
	spec := []byte{2, 0, 0, 0x2b}
	field := []byte{3, 0, 0, 0x04}
	cat := func(parts ...[]byte) []byte {
		var b []byte
		for _, p := range parts {
			b = append(b, p...)
		}
		return b
	}
	tests := []struct {
		name string
		il   []byte
		want []uint32
	}{
		{"call; ret", cat([]byte{0x02, opCall}, def(5), []byte{opRet}), []uint32{0x06000005}},
		{"callvirt; nop; ret", cat([]byte{0x02, opCallvirt}, def(7), []byte{opNop, opRet}), []uint32{0x06000007}},
		{"tail. call; ret", cat([]byte{0xfe, 0x14, opCall}, def(9), []byte{opRet}), []uint32{0x06000009}},
		{"jmp", cat([]byte{opJmp}, def(3)), []uint32{0x06000003}},
		{"a call whose result is used", cat([]byte{opCall}, def(5), []byte{0x17, 0x58, opRet}), nil},
		{"a MemberRef", cat([]byte{opCall}, ref, []byte{opRet}), []uint32{0x0a000001}},
		{"a MethodSpec", cat([]byte{opCall}, spec, []byte{opRet}), []uint32{0x2b000002}},
		{"a MethodDef and a MemberRef", cat([]byte{opCall}, def(5), []byte{opRet, opCall}, ref, []byte{opRet}), []uint32{0x06000005, 0x0a000001}},
		// A callee it cannot name makes every callee unknown: the frame
		// does not wait.
		{"a MethodDef and a token of no method", cat([]byte{opCall}, def(5), []byte{opRet, opCall}, field, []byte{opRet}), nil},
		{"calli", cat([]byte{opCall}, def(5), []byte{opRet, opCalli}, def(1), []byte{opRet}), nil},
		{"two returns, the same callee once", cat([]byte{opCall}, def(5), []byte{opRet, opCall}, def(5), []byte{opRet, opCall}, def(6), []byte{opRet}),
			[]uint32{0x06000005, 0x06000006}},
		{"no call", []byte{0x16, opRet}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := TailCallees(tiny(tt.il...))
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("TailCallees = %#x, %v; want %#x", got, err, tt.want)
			}
		})
	}
	var many []byte
	for row := byte(1); row <= 6; row++ {
		many = append(append(append(many, opCall), def(row)...), opRet)
	}
	if got, err := TailCallees(tiny(many...)); len(got) != 0 || err != nil {
		t.Errorf("6 tail callees: %#x, %v; want none (more than %d)", got, err, MaxTailCallees)
	}
	if _, err := TailCallees(tiny(opCall, 1, 0)); err == nil {
		t.Error("a truncated call: no error")
	}
}
