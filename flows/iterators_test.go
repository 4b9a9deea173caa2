package flows

import (
	"sync"
	"testing"
)

func TestIterators(t *testing.T) {
	var it Iterators
	if it.Has(1, 0x02000005) {
		t.Fatal("empty set has an enumerator")
	}
	it.Add(1, 0x02000005)
	it.Add(2, 0x02000007)
	for _, c := range []struct {
		module uint64
		td     uint32
		want   bool
	}{
		{1, 0x02000005, true},
		{2, 0x02000007, true},
		{2, 0x02000005, false}, // the same TypeDef in another module
		{1, 0x02000007, false},
	} {
		if got := it.Has(c.module, c.td); got != c.want {
			t.Errorf("Has(%d, %#x) = %v, want %v", c.module, c.td, got, c.want)
		}
	}
	// Compiles run on many threads at once.
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			it.Add(3, uint32(i))
			it.Has(3, uint32(i))
		}()
	}
	wg.Wait()
	for i := range 8 {
		if !it.Has(3, uint32(i)) {
			t.Errorf("concurrent Add of %d lost", i)
		}
	}
}
