package flows

// GenericTypeDef reads a TypeSpec's signature that instantiates a generic
// type (ECMA-335 II.23.2.14: GENERICINST, CLASS or VALUETYPE, a
// TypeDefOrRef coded index, the arguments) and returns the TypeDef it
// instantiates; false for any other signature, or a TypeRef (a type of
// another module). An iterator of a generic type or a generic iterator
// method constructs its enumerator through such a TypeSpec.
func GenericTypeDef(sig []byte) (uint32, bool) {
	if t := genericType(sig); t>>24 == tokTypeDef {
		return t, true
	}
	return 0, false
}

// compressed reads an ECMA-335 compressed unsigned integer (II.23.2).
func compressed(b []byte) (uint32, bool) {
	v, n := compressedN(b)
	return v, n > 0
}

// compressedN is compressed and how many bytes it takes (0: malformed).
func compressedN(b []byte) (uint32, int) {
	switch {
	case len(b) >= 1 && b[0]&0x80 == 0:
		return uint32(b[0]), 1
	case len(b) >= 2 && b[0]&0xc0 == 0x80:
		return uint32(b[0]&0x3f)<<8 | uint32(b[1]), 2
	case len(b) >= 4 && b[0]&0xe0 == 0xc0:
		return uint32(b[0]&0x1f)<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3]), 4
	}
	return 0, 0
}
