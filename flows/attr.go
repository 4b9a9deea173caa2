package flows

import (
	"fmt"
	"strings"
)

// TypeArgument reads the System.Type argument of a custom attribute's blob
// (AsyncStateMachineAttribute(typeof(SM))): the prolog 0x0001, then a
// SerString (a compressed length, UTF-8). An assembly-qualified name gives
// its type part; nested types are joined with '+'.
func TypeArgument(b []byte) (string, error) {
	if len(b) < 3 || b[0] != 1 || b[1] != 0 {
		return "", fmt.Errorf("attribute blob of %d bytes without the prolog", len(b))
	}
	b = b[2:]
	var n, used int
	switch {
	case b[0] == 0xFF:
		return "", fmt.Errorf("null type argument")
	case b[0]&0x80 == 0:
		n, used = int(b[0]), 1
	case b[0]&0xC0 == 0x80 && len(b) >= 2:
		n, used = int(b[0]&0x3F)<<8|int(b[1]), 2
	case b[0]&0xE0 == 0xC0 && len(b) >= 4:
		n, used = int(b[0]&0x1F)<<24|int(b[1])<<16|int(b[2])<<8|int(b[3]), 4
	default:
		return "", fmt.Errorf("bad string length in attribute blob")
	}
	if len(b) < used+n {
		return "", fmt.Errorf("type name of %d bytes in %d", n, len(b)-used)
	}
	name := string(b[used : used+n])
	if i := strings.IndexByte(name, ','); i >= 0 {
		name = name[:i]
	}
	return name, nil
}
