package main

import "C"

// cBool is b as the C layer's flags take it: 1 or 0.
func cBool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
