package values

// HasPAN reports whether s holds a payment card number: a run of 13 to 19
// digits, single spaces or dashes allowed between them, that passes the
// Luhn check. A longer run of digits is not one. It reads s once and
// allocates nothing.
func HasPAN(s []uint16) bool {
	var run [19]uint8
	n := 0       // digits in the current run (counted past 19, kept up to 19)
	sep := false // the previous unit was a separator inside a run
	for _, c := range s {
		if d := c - '0'; d <= 9 {
			if n < len(run) {
				run[n] = uint8(d)
			}
			n++
			sep = false
			continue
		}
		if n == 0 {
			continue // the common case: text without digits
		}
		if (c == ' ' || c == '-') && !sep {
			sep = true
			continue
		}
		if n >= 13 && n <= 19 && luhn(run[:n]) {
			return true
		}
		n, sep = 0, false
	}
	return n >= 13 && n <= 19 && luhn(run[:n])
}

// HasPANString is HasPAN for Go text.
func HasPANString(s string) bool {
	var buf [64]uint16
	u := buf[:0]
	for _, r := range s {
		if r > 0xffff {
			r = 'x'
		}
		u = append(u, uint16(r))
	}
	return HasPAN(u)
}

// luhn is the Luhn (mod 10) check.
func luhn(d []uint8) bool {
	sum := 0
	for i := len(d) - 1; i >= 0; i-- {
		v := int(d[i])
		if (len(d)-1-i)%2 == 1 {
			v *= 2
			if v > 9 {
				v -= 9
			}
		}
		sum += v
	}
	return sum%10 == 0
}
