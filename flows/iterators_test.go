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
	it.Add(1, 0x02000005, 0x7f10)
	it.Add(2, 0x02000007, 0x7f20)
	// Another instantiation of the same generic iterator: the first stays.
	it.Add(1, 0x02000005, 0x7f30)
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
	if fn, ok := it.Method(1, 0x02000005); !ok || fn != 0x7f10 {
		t.Errorf("Method(1, 0x02000005) = %#x, %v, want the first added, 0x7f10", fn, ok)
	}
	if fn, ok := it.Method(2, 0x02000007); !ok || fn != 0x7f20 {
		t.Errorf("Method(2, 0x02000007) = %#x, %v, want 0x7f20", fn, ok)
	}
	if _, ok := it.Method(2, 0x02000005); ok {
		t.Error("Method of a TypeDef never added")
	}
	// Compiles run on many threads at once.
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			it.Add(3, uint32(i), uint64(i))
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
