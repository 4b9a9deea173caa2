package values

import "testing"

func TestHasPAN(t *testing.T) {
	tests := []struct {
		s    string
		want bool
	}{
		{"4111111111111111", true},
		{"4111 1111 1111 1111", true},
		{"5500-0000-0000-0004", true},
		{"paid with 4111 1111 1111 1111 today", true},
		{"4111111111111112", false},        // fails Luhn
		{"order 1234567890123", false},     // 13 digits, fails Luhn
		{"411111111111", false},            // 12 digits
		{"41111111111111111111111", false}, // longer than 19: not a card number
		{"4111  1111 1111 1111", false},    // double separator splits the run
		{"", false},
		{"hello", false},
		{"4111111111111111x", true},
		{"378282246310005", true}, // 15-digit Amex test number
	}
	for _, tt := range tests {
		if got := HasPANString(tt.s); got != tt.want {
			t.Errorf("HasPAN(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}

func BenchmarkHasPAN100(b *testing.B) {
	s := []uint16{}
	for i := 0; i < 100; i++ {
		s = append(s, uint16('a'+i%26))
	}
	for i := 0; i < b.N; i++ {
		HasPAN(s)
	}
}
