package values

import "testing"

func TestFlagsText(t *testing.T) {
	e := &Enum{Name: "Access", Flags: true, Values: map[uint64]string{0: "None", 1: "Read", 2: "Write", 3: "ReadWrite", 4: "Execute"}}
	tests := []struct {
		bits uint64
		want string
	}{
		{0, "None"}, {1, "Read"}, {3, "ReadWrite"}, {5, "Read, Execute"}, {7, "ReadWrite, Execute"}, {8, "8"},
	}
	for _, tt := range tests {
		if got := enumText(e, Value{Shape: Prim, Kind: KindI4, Bits: tt.bits}); got != tt.want {
			t.Errorf("%d: %q, want %q", tt.bits, got, tt.want)
		}
	}
	e.Flags = false
	if got := enumText(e, Value{Shape: Prim, Kind: KindI4, Bits: 5}); got != "5" {
		t.Errorf("not [Flags]: %q", got)
	}
}
