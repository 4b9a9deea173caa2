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
