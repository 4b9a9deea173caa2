package cmeta

import (
	"encoding/binary"
	"testing"
)

// A delegate's method pointer leads to its method through the runtime's
// precode stubs: jumps are followed (at most four addresses asked), and a
// stub of a method not compiled yet gives the MethodDesc it loads into r10
// when the runtime knows it as a method of a loaded module.
func TestCodeFunction(t *testing.T) {
	Reset("M", 1, 0)
	c := NewCode(256)
	defer c.Free()
	defer SetCode(0, 0)
	b := c.Bytes
	rel := func(at, end, to int) { binary.LittleEndian.PutUint32(b[at:], uint32(int32(to-end))) }
	const code = 200
	SetCode(c.Addr(code), 0xF00D)
	b[0] = 0xE9 // jmp rel32 -> code
	rel(1, 5, code)
	b[16], b[17] = 0xFF, 0x25 // jmp [rip+disp32] -> [64] = code
	rel(18, 22, 64)
	binary.LittleEndian.PutUint64(b[64:], c.Addr(code))
	b[32], b[33], b[34] = 0x4C, 0x8B, 0x15 // mov r10, [rip+disp32] -> [72]
	rel(35, 39, 72)
	binary.LittleEndian.PutUint64(b[72:], 0xABCD000)
	b[48], b[49] = 0x49, 0xBA // mov r10, imm64
	binary.LittleEndian.PutUint64(b[50:], 0xBEEF000)
	for at := 100; at < 120; at += 5 { // 100 -> 105 -> 110 -> 115 -> code
		b[at] = 0xE9
		next := at + 5
		if at == 115 {
			next = code
		}
		rel(at+1, at+5, next)
	}
	b[120] = 0x90 // nop: not a stub

	for _, tc := range []struct {
		name string
		at   int
		want uint64
		ok   bool
	}{
		{"compiled code", code, 0xF00D, true},
		{"jmp rel32", 0, 0xF00D, true},
		{"jmp [rip+disp32]", 16, 0xF00D, true},
		{"mov r10, [rip+disp32]", 32, 0xABCD000, true},
		{"mov r10, imm64", 48, 0xBEEF000, true},
		{"three jumps", 105, 0xF00D, true},
		{"four jumps: too far", 100, 0, false},
		{"not a stub", 120, 0, false},
	} {
		got, ok := CodeFunction(c.Addr(tc.at))
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: %#x, %v; want %#x, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
	if _, ok := CodeFunction(0); ok {
		t.Errorf("a null code pointer named a function")
	}
	// A MethodDesc of a module the runtime did not report is not taken.
	UnloadModule()
	if got, ok := CodeFunction(c.Addr(48)); ok {
		t.Errorf("mov r10 of an unknown module: %#x", got)
	}
	checkContract(t)
}
