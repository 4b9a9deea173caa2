package clftable

import (
	"math/rand"
	"testing"
)

// Keys like the runtime's IDs: aligned pointers.
func key(i int) uint64 { return 0x7f0000100000 + uint64(i)*0x40 }

func TestPutGet(t *testing.T) {
	tb := New(64, 64)
	defer tb.Free()
	for i := 0; i < 40; i++ {
		if !tb.Put(key(i), uint64(i+10)) {
			t.Fatalf("put %d refused", i)
		}
	}
	for i := 0; i < 40; i++ {
		if got := tb.Get(key(i)); got != uint64(i+10) {
			t.Errorf("key %d: %d, want %d", i, got, i+10)
		}
	}
	if got := tb.Get(key(99)); got != 0 {
		t.Errorf("absent key: %d", got)
	}
	if !tb.Put(key(3), 77) || tb.Get(key(3)) != 77 {
		t.Errorf("replaced value: %d, want 77", tb.Get(key(3)))
	}
	for _, k := range []uint64{0, Gone} {
		if tb.Put(k, 5) || tb.Get(k) != 0 || tb.Find(k) >= 0 {
			t.Errorf("key %#x taken", k)
		}
	}
	if tb.Full() != 0 {
		t.Errorf("full %d with room left", tb.Full())
	}
}

// A claim says whether it took the slot; a claimed key reads 0 until its
// value is written.
func TestClaim(t *testing.T) {
	tb := New(16, 16)
	defer tb.Free()
	i, mine := tb.Claim(key(1))
	if i < 0 || !mine {
		t.Fatalf("first claim: %d %v", i, mine)
	}
	if j, mine := tb.Claim(key(1)); j != i || mine {
		t.Errorf("second claim: %d %v, want %d false", j, mine, i)
	}
	if tb.Find(key(1)) != i || tb.Get(key(1)) != 0 {
		t.Errorf("claimed key: slot %d value %d", tb.Find(key(1)), tb.Get(key(1)))
	}
}

// A key is looked for in its probes alone: past them an insert fails and
// is counted, and every key that went in is still found.
func TestBounded(t *testing.T) {
	for _, c := range []struct{ slots, probes int }{{16, 16}, {16, 4}, {64, 1}, {256, 64}} {
		tb := New(c.slots, c.probes)
		in, refused := map[uint64]bool{}, 0
		for i := 0; i < 3*c.slots; i++ {
			k := key(i)
			if tb.Put(k, k+1) {
				in[k] = true
			} else {
				refused++
			}
		}
		if len(in) > c.slots || refused == 0 {
			t.Errorf("%+v: %d in, %d refused", c, len(in), refused)
		}
		if int(tb.Full()) != refused {
			t.Errorf("%+v: full %d, %d refused", c, tb.Full(), refused)
		}
		for i := 0; i < 3*c.slots; i++ {
			k := key(i)
			if got := tb.Get(k); in[k] != (got == k+1) || (!in[k] && got != 0) {
				t.Errorf("%+v: key %d reads %d (in: %v)", c, i, got, in[k])
			}
		}
		// Each key sits within its probes of its home.
		for s, k := range tb.Keys() {
			if k != 0 && (s-tb.Home(k)+c.slots)%c.slots >= c.probes {
				t.Errorf("%+v: key %#x at %d, home %d", c, k, s, tb.Home(k))
			}
		}
		tb.Free()
	}
}

// A removed key reads 0 and its slot is never taken again, by it or by
// another; the keys probed past it are still found.
func TestRemove(t *testing.T) {
	tb := New(16, 16)
	defer tb.Free()
	for i := 0; i < 8; i++ {
		tb.Put(key(i), uint64(i+1))
	}
	was := tb.Find(key(2))
	tb.Remove(key(2))
	tb.Remove(key(50)) // absent: nothing happens
	if tb.Get(key(2)) != 0 || tb.Find(key(2)) >= 0 {
		t.Errorf("removed key still found")
	}
	if k := tb.Keys()[was]; k != Gone {
		t.Errorf("removed slot holds %#x", k)
	}
	for i := 0; i < 8; i++ {
		if want := uint64(i + 1); i != 2 && tb.Get(key(i)) != want {
			t.Errorf("key %d reads %d after a removal", i, tb.Get(key(i)))
		}
	}
	if !tb.Put(key(2), 9) || tb.Get(key(2)) != 9 || tb.Find(key(2)) == was {
		t.Errorf("re-added key: slot %d (was %d), value %d", tb.Find(key(2)), was, tb.Get(key(2)))
	}
	// 16 slots, 8 keys, 1 removed and re-added in a new slot: 7 more fit.
	n := 0
	for i := 100; i < 120; i++ {
		if tb.Put(key(i), 1) {
			n++
		}
	}
	if n != 7 || tb.Full() != 13 {
		t.Errorf("%d more fit, full %d; want 7 and 13", n, tb.Full())
	}
}

// Threads inserting overlapping keys at once: each key in one slot, each
// slot claimed by one thread, no value or data beside it seen before it
// was written, every refusal counted.
func TestConcurrentInserts(t *testing.T) {
	for _, c := range []struct {
		slots, probes, keys, threads int
	}{
		{1024, 64, 600, 8}, // room for all
		{256, 16, 600, 8},  // more keys than slots
		{16, 16, 40, 16},   // a small table, every slot contended
	} {
		tb := New(c.slots, c.probes)
		r := rand.New(rand.NewSource(int64(c.slots)))
		keys := make([][]uint64, c.threads)
		for i := range keys {
			for _, j := range r.Perm(c.keys) {
				keys[i] = append(keys[i], key(j))
			}
		}
		rs, err := tb.Race(keys)
		if err != nil {
			t.Fatal(err)
		}
		claimed, failed := 0, 0
		for _, x := range rs {
			claimed += x.Claimed
			failed += x.Failed
			if x.Wrong != 0 {
				t.Errorf("%+v: %d reads saw a value or data never written", c, x.Wrong)
			}
		}
		if int(tb.Full()) != failed {
			t.Errorf("%+v: full %d, %d refusals", c, tb.Full(), failed)
		}
		seen := map[uint64]int{}
		for _, k := range tb.Keys() {
			if k != 0 {
				seen[k]++
			}
		}
		for k, n := range seen {
			if n != 1 {
				t.Errorf("%+v: key %#x in %d slots", c, k, n)
			}
			if tb.Get(k) != k*3 {
				t.Errorf("%+v: key %#x reads %d", c, k, tb.Get(k))
			}
		}
		if claimed != len(seen) {
			t.Errorf("%+v: %d claims for %d keys in the table", c, claimed, len(seen))
		}
		if c.keys <= c.slots/2 && (len(seen) != c.keys || failed != 0) {
			t.Errorf("%+v: %d keys in, %d refusals, with room for all", c, len(seen), failed)
		}
		tb.Free()
	}
}
