package creader

import (
	"bytes"
	"testing"
)

// Every length the copy takes a path of its own for reads what is there,
// and returns false, without crashing, where nothing is mapped: on the
// page itself and across its start.
func TestSafeCopy(t *testing.T) {
	var m Mem
	defer m.Free()
	src := m.Alloc(64)
	for i := range src {
		src[i] = byte(i + 1)
	}
	bad := UnmappedPage()
	if bad == 0 {
		t.Fatal("no unmapped page")
	}
	for _, n := range []int{0, 1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 33, 64} {
		got, ok := SafeCopy(Addr(src), n)
		if !ok || !bytes.Equal(got, src[:n]) {
			t.Errorf("copy of %d bytes: %v, %v; want %v", n, got, ok, src[:n])
		}
		if n == 0 {
			continue
		}
		if _, ok := SafeCopy(bad+8, n); ok {
			t.Errorf("copy of %d bytes from an unmapped page succeeded", n)
		}
	}
}
