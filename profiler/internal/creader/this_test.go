package creader

import "testing"

// The hooks read `this` from the word the runtime's stub saved once the
// runtime's own answers agreed with it, and never when one did not.
func TestThisDirect(t *testing.T) {
	t.Cleanup(ResetThis)
	tests := []struct {
		name string
		// Calls before the last, each with its saved word and the
		// runtime's answer; then the last call's.
		rdi, self  uint64
		calls      int
		lastRDI    uint64
		lastSelf   uint64
		want       uint64
		wantDirect int
	}{
		{name: "checking", rdi: 0x1000, self: 0x1000, calls: 10, lastRDI: 0x2000, lastSelf: 0x2000, want: 0x2000, wantDirect: 0},
		// Agreed 64 times: the saved word is taken, the runtime not asked
		// (its answer differs from the word here to tell which was read).
		{name: "direct", rdi: 0x1000, self: 0x1000, calls: 64, lastRDI: 0x3000, lastSelf: 0x4000, want: 0x3000, wantDirect: 1},
		// One disagreement (another layout): the runtime's answer, for good.
		{name: "off", rdi: 0x1000, self: 0x5000, calls: 1, lastRDI: 0x3000, lastSelf: 0x3000, want: 0x3000, wantDirect: -1},
		{name: "off after agreeing", rdi: 0x1000, self: 0x1000, calls: 63, lastRDI: 0x6000, lastSelf: 0x7000, want: 0x7000, wantDirect: -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ResetThis()
			for i := 0; i < tc.calls; i++ {
				if got, _ := This(tc.rdi, tc.self); got != tc.self {
					t.Fatalf("call %d: this = %#x, want the runtime's %#x", i, got, tc.self)
				}
			}
			got, direct := This(tc.lastRDI, tc.lastSelf)
			if got != tc.want || direct != tc.wantDirect {
				t.Errorf("this = %#x (direct %d), want %#x (direct %d)", got, direct, tc.want, tc.wantDirect)
			}
		})
	}
}

// Argument 1 is read from the saved rsi on the same terms, judged apart
// from `this`: a call whose rsi does not hold it (a struct argument) turns
// its direct read off, not that of `this`.
func TestArg1Direct(t *testing.T) {
	t.Cleanup(ResetThis)
	tests := []struct {
		name             string
		rsi, arg         uint64
		calls            int
		lastRSI, lastArg uint64
		want             uint64
		wantDirect       int
	}{
		{name: "checking", rsi: 0x1000, arg: 0x1000, calls: 10, lastRSI: 0, lastArg: 0, want: 0, wantDirect: 0},
		{name: "direct", rsi: 0x1000, arg: 0x1000, calls: 64, lastRSI: 0, lastArg: 0x4000, want: 0, wantDirect: 1},
		{name: "off", rsi: 0x1000, arg: 0x5000, calls: 1, lastRSI: 0x3000, lastArg: 0, want: 0, wantDirect: -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ResetThis()
			for i := 0; i < tc.calls; i++ {
				if got, ok, _ := Arg1(tc.rsi, tc.arg); !ok || got != tc.arg {
					t.Fatalf("call %d: argument 1 = %#x (%v), want the runtime's %#x", i, got, ok, tc.arg)
				}
			}
			got, ok, direct := Arg1(tc.lastRSI, tc.lastArg)
			if !ok || got != tc.want || direct != tc.wantDirect {
				t.Errorf("argument 1 = %#x (%v, direct %d), want %#x (direct %d)", got, ok, direct, tc.want, tc.wantDirect)
			}
			if this := This; tc.wantDirect == -1 {
				if _, d := this(0x10, 0x10); d == -1 {
					t.Errorf("argument 1's disagreement turned off the direct read of this")
				}
			}
		})
	}
}
