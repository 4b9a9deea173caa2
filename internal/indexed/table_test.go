package indexed

import (
	"fmt"
	"reflect"
	"sync"
	"testing"
)

func TestLookupOrAdd(t *testing.T) {
	var tab Table[uint64, string]
	add := func(key uint64, indexed bool) (string, uint32) {
		got := uint32(99) // mk not called
		v := tab.LookupOrAdd(key, func(i uint32) (string, bool) { got = i; return fmt.Sprint("f", key), indexed })
		return v, got
	}
	for _, step := range []struct {
		key       uint64
		indexed   bool
		want      string
		wantIndex uint32
		wantLen   int
	}{
		{10, true, "f10", 0, 1},
		{20, false, "f20", 1, 1}, // told the next index, takes none
		{30, true, "f30", 1, 2},
		{10, true, "f10", 99, 2}, // known: mk not called
	} {
		v, i := add(step.key, step.indexed)
		if v != step.want || i != step.wantIndex || tab.Len() != step.wantLen {
			t.Errorf("key %d: %q, index %d, len %d; want %q, %d, %d", step.key, v, i, tab.Len(), step.want, step.wantIndex, step.wantLen)
		}
	}
	if tab.At(0) != "f10" || tab.At(1) != "f30" || tab.At(2) != "" {
		t.Errorf("At: %q %q %q", tab.At(0), tab.At(1), tab.At(2))
	}
	var each []string
	tab.Each(func(i uint32, v string) { each = append(each, fmt.Sprint(i, v)) })
	tab.Locked(func(list []string) {
		if !reflect.DeepEqual(list, []string{"f10", "f30"}) {
			t.Errorf("Locked list %q", list)
		}
	})
	if !reflect.DeepEqual(each, []string{"0f10", "1f30"}) {
		t.Errorf("Each %q", each)
	}
}

// Values cross chunk boundaries and stay where they were put while readers
// read by index without a lock (run with -race).
func TestConcurrentReaders(t *testing.T) {
	var tab Table[int, *int]
	const n = 3*chunk + 7
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			tab.Each(func(i uint32, v *int) {
				if v == nil || *v != int(i) {
					t.Errorf("index %d holds %v", i, v)
				}
			})
		}
	}()
	for k := 0; k < n; k++ {
		tab.LookupOrAdd(k, func(i uint32) (*int, bool) { v := int(i); return &v, true })
	}
	close(stop)
	wg.Wait()
	if tab.Len() != n || *tab.At(n - 1) != n-1 {
		t.Errorf("len %d, last %v", tab.Len(), tab.At(n-1))
	}
}
