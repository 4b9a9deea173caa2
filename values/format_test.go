package values

import (
	"os"
	"regexp"
	"strconv"
	"testing"
)

// TestStreamFormatMatchesC: the primitive kinds and stream tags are the
// numbers profiler/values.h gives them, and every kind and tag it defines
// is one this package decodes.
func TestStreamFormatMatchesC(t *testing.T) {
	src, err := os.ReadFile("../profiler/values.h")
	if err != nil {
		t.Fatal(err)
	}
	c := map[string]uint64{}
	for _, m := range regexp.MustCompile(`\b(V[KT]_[A-Z0-9_]+)\s*=\s*([^,\s/]+)`).FindAllStringSubmatch(string(src), -1) {
		v, err := strconv.ParseUint(m[2], 0, 64)
		if err != nil {
			t.Fatalf("values.h: %s = %s: not a plain number, which this test reads", m[1], m[2])
		}
		c[m[1]] = v
	}
	goValues := map[string]uint64{
		"VK_SKIP": uint64(KindSkip), "VK_BOOL": uint64(KindBool), "VK_CHAR": uint64(KindChar),
		"VK_I1": uint64(KindI1), "VK_U1": uint64(KindU1), "VK_I2": uint64(KindI2), "VK_U2": uint64(KindU2),
		"VK_I4": uint64(KindI4), "VK_U4": uint64(KindU4), "VK_I8": uint64(KindI8), "VK_U8": uint64(KindU8),
		"VK_R4": uint64(KindR4), "VK_R8": uint64(KindR8), "VK_I": uint64(KindI), "VK_U": uint64(KindU),
		"VK_REF": uint64(KindRef), "VK_STRUCT": uint64(KindStruct), "VK_PTR": uint64(KindPtr),
		"VK_BYREF": uint64(KindByRef), "VK_TYPEARG": uint64(KindTypeArg),

		"VT_NULL": tagNull, "VT_PRIM": tagPrim, "VT_STRING": tagString, "VT_OBJECT": tagObject,
		"VT_STRUCT": tagStruct, "VT_ARRAY": tagArray, "VT_NOPLAN": tagNoPlan, "VT_CYCLE": tagCycle,
		"VT_DEPTH": tagDepth, "VT_UNREADABLE": tagUnreadable, "VT_TRUNC": tagTrunc, "VT_PTR": tagPtr,
		"VT_SKIP": tagSkip, "VT_REDACTED": tagRedacted, "VT_BOXED": tagBoxed,
		"VT_SIZED": tagSized,
	}
	for name, want := range goValues {
		got, ok := c[name]
		switch {
		case !ok:
			t.Errorf("values.h defines no %s", name)
		case got != want:
			t.Errorf("%s = %d in values.h, %d here", name, got, want)
		}
	}
	for name, v := range c {
		if _, ok := goValues[name]; !ok {
			t.Errorf("values.h defines %s = %d: give it its counterpart here", name, v)
		}
	}
}
