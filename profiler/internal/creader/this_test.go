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

// An iterator step's bool is read from the rax its Leave stub saved once
// the runtime's answers all pointed at that word, judged apart from the
// arguments: a runtime that points elsewhere turns only this read off.
func TestRetDirect(t *testing.T) {
	t.Cleanup(ResetThis)
	tests := []struct {
		name string
		// Calls before the last: the stub's rax, and whether the runtime
		// points at it (else at a word of its own holding the same bool).
		rax   uint64
		atRAX bool
		calls int
		// The last call: rax, where the runtime points, what its own word holds.
		lastRAX    uint64
		lastAtRAX  bool
		lastRet    uint64
		want       int
		wantDirect int
	}{
		{name: "checking", rax: 1, atRAX: true, calls: 10, lastRAX: 0, lastAtRAX: true, want: 0, wantDirect: 0},
		// Agreed 64 times: the saved rax is read, the runtime not asked
		// (it would point at its own word, holding the other answer).
		{name: "direct true", rax: 1, atRAX: true, calls: 64, lastRAX: 1, lastAtRAX: false, lastRet: 0, want: 1, wantDirect: 1},
		{name: "direct false", rax: 0, atRAX: true, calls: 64, lastRAX: 0x100, lastAtRAX: false, lastRet: 1, want: 0, wantDirect: 1},
		// Only the low byte is the bool.
		{name: "checking low byte", rax: 1, atRAX: true, calls: 3, lastRAX: 0xff00, lastAtRAX: true, want: 0, wantDirect: 0},
		// The runtime's value is elsewhere (another layout): its answer, for good.
		{name: "off", rax: 1, atRAX: false, calls: 1, lastRAX: 1, lastAtRAX: false, lastRet: 0, want: 0, wantDirect: -1},
		{name: "off after agreeing", rax: 1, atRAX: true, calls: 63, lastRAX: 1, lastAtRAX: false, lastRet: 0, want: 0, wantDirect: -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ResetThis()
			for i := 0; i < tc.calls; i++ {
				want := int(tc.rax & 0xff)
				if want > 1 {
					want = 1
				}
				if got, _ := Ret(tc.rax, tc.atRAX, tc.rax); got != want {
					t.Fatalf("call %d: returned %d, want the runtime's %d", i, got, want)
				}
			}
			got, direct := Ret(tc.lastRAX, tc.lastAtRAX, tc.lastRet)
			if got != tc.want || direct != tc.wantDirect {
				t.Errorf("returned %d (direct %d), want %d (direct %d)", got, direct, tc.want, tc.wantDirect)
			}
			if tc.wantDirect == -1 {
				if _, d := This(0x10, 0x10); d == -1 {
					t.Errorf("the return's disagreement turned off the direct read of this")
				}
			}
		})
	}
}
