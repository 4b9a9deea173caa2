package creader

import (
	"bytes"
	"testing"

	"github.com/clrotel/clrotel/values"
)

// A method's argument places are learned from the runtime's answers: once
// LayoutChecks of them agreed, its calls are read where the stub saved the
// registers, without asking; what a layout cannot hold keeps asking.
func TestArgLayoutLearned(t *testing.T) {
	i4, ref, r8 := uint8(values.KindI4), uint8(values.KindRef), uint8(values.KindR8)
	regs := func(v uint64) map[int]uint64 {
		return map[int]uint64{OffRDI: v, OffRSI: v + 1, OffRDI + 16: v + 2, OffRAX - 8: 0, 0x38: 0x3ff8000000000000}
	}
	tests := []struct {
		name    string
		kinds   []uint8
		hasThis bool
		// The runtime's answer for call i (its words saved from v).
		at          func(i int) []int
		own         func(v uint64) []uint64
		wantTrusted bool
	}{
		{name: "integer registers", kinds: []uint8{i4, i4, i4}, at: func(int) []int { return []int{OffRDI, OffRSI, OffRDI + 16} }, wantTrusted: true},
		{name: "a double in xmm0", kinds: []uint8{r8, i4}, at: func(int) []int { return []int{0x38, OffRDI} }, wantTrusted: true},
		// An instance method's `this` is the runtime's copy of rdi.
		{name: "this", kinds: []uint8{ref, i4}, hasThis: true, at: func(int) []int { return []int{-1, OffRSI} },
			own: func(v uint64) []uint64 { return []uint64{v, 0} }, wantTrusted: true},
		// A copy the runtime makes while it answers (a struct passed in
		// registers) is no place to read from later.
		{name: "past the saved registers", kinds: []uint8{i4, i4}, at: func(int) []int { return []int{OffRDI, OffPast} }},
		{name: "a word of the runtime's own", kinds: []uint8{i4}, at: func(int) []int { return []int{-1} },
			own: func(v uint64) []uint64 { return []uint64{v} }},
		// A static method's argument 0 outside the registers is not `this`,
		// whatever its value.
		{name: "static arg 0 equal to rdi", kinds: []uint8{ref}, at: func(int) []int { return []int{-1} },
			own: func(v uint64) []uint64 { return []uint64{v} }},
		{name: "answers that differ", kinds: []uint8{i4, i4}, at: func(i int) []int {
			if i == 5 {
				return []int{OffRSI, OffRDI}
			}
			return []int{OffRDI, OffRSI}
		}},
		// A type parameter's value needs the frame, which only an answer
		// gives.
		{name: "needs the frame", kinds: []uint8{uint8(values.KindTypeArg)}, at: func(int) []int { return []int{OffRDI} }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := NewLayout()
			defer l.Free()
			for i := 0; i < LayoutChecks+4; i++ {
				v := uint64(0x1000 + 0x10*i)
				c := Call{Saved: regs(v), At: tc.at(i)}
				if tc.own != nil {
					c.Own = tc.own(v)
				}
				got, asked := EnterLearned(l, tc.kinds, tc.hasThis, c)
				// What the reader wrote is what it would have read through
				// the runtime's answer.
				l2 := NewLayout()
				want, _ := EnterLearned(l2, tc.kinds, tc.hasThis, c)
				l2.Free()
				if !bytes.Equal(got, want) {
					t.Fatalf("call %d: values %x, the runtime's answer reads %x", i, got, want)
				}
				trusted := tc.wantTrusted && i >= LayoutChecks
				if asked == trusted {
					t.Fatalf("call %d: runtime asked %v, want %v", i, asked, !trusted)
				}
			}
			if l.Trusted() != tc.wantTrusted {
				t.Errorf("trusted %v, want %v", l.Trusted(), tc.wantTrusted)
			}
		})
	}
}

// A return in rax is read there once enough answers placed it there; one
// in a copy of the runtime's keeps being asked for, and so does a float,
// which the runtime copies into the saved rax as it answers.
func TestReturnLayoutLearned(t *testing.T) {
	i8, r8 := uint8(values.KindI8), uint8(values.KindR8)
	for _, tc := range []struct {
		name        string
		kind        uint8
		at          int
		wantTrusted bool
	}{
		{"rax", i8, OffRAX, true}, {"xmm0", i8, 0x38, true}, {"a copy", i8, OffPast, false},
		{"the hidden argument", i8, OffRAX + 8, false}, {"a double", r8, OffRAX, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := NewLayout()
			defer l.Free()
			for i := 0; i < LayoutChecks+3; i++ {
				v := uint64(0x77 + i)
				saved := map[int]uint64{OffRAX: v, OffRAX + 8: v, 0x38: v, OffPast: v}
				got, asked := LeaveLearned(l, tc.kind, 8, saved, tc.at)
				l2 := NewLayout()
				want, _ := LeaveLearned(l2, tc.kind, 8, saved, tc.at)
				l2.Free()
				if !bytes.Equal(got, want) || !bytes.Contains(got, []byte{byte(v), 0, 0, 0, 0, 0, 0, 0}) {
					t.Fatalf("call %d: return %x, want %x (holding %#x)", i, got, want, v)
				}
				trusted := tc.wantTrusted && i >= LayoutChecks
				if asked == trusted {
					t.Fatalf("call %d: runtime asked %v, want %v", i, asked, !trusted)
				}
			}
		})
	}
}

// The exit report counts the layouts trusted and refused, each once.
func TestArgLayoutCounts(t *testing.T) {
	ResetLayoutCounts()
	t.Cleanup(ResetLayoutCounts)
	good, bad := NewLayout(), NewLayout()
	defer good.Free()
	defer bad.Free()
	for i := 0; i < 3*LayoutChecks; i++ {
		saved := map[int]uint64{OffRDI: 5}
		EnterLearned(good, []uint8{uint8(values.KindI4)}, false, Call{Saved: saved, At: []int{OffRDI}})
		EnterLearned(bad, []uint8{uint8(values.KindI4)}, false, Call{Saved: saved, At: []int{OffPast}})
	}
	if trusted, refused := LayoutCounts(); trusted != 1 || refused != 1 {
		t.Errorf("counts: %d trusted, %d refused; want 1 and 1", trusted, refused)
	}
}
