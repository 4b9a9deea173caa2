package ccapture

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/clrotel/clrotel/capture"
)

// TestRingBurst: ring.h's producer against capture.Ring, with a drainer
// that lags behind by random amounts. Every record written is read back
// once, in order and intact (the burst pages the drainer gives back read
// as zeros afterwards, as MADV_DONTNEED leaves them), none is refused
// while the capacity holds it, the producer writes into burst space only
// when behind.
func TestRingBurst(t *testing.T) {
	const capacity, soft, page = 64 << 10, 8 << 10, 4096
	for seed := uint64(1); seed <= 40; seed++ {
		rng := rand.New(rand.NewPCG(seed, 34))
		r := NewRing(capacity, soft)
		data := r.Data()
		var visible uint64 // the head the drainer sees: the ring's head when it last looked
		ring, err := capture.NewRing(&visible, r.Tail(), data)
		if err != nil {
			t.Fatal(err)
		}
		released := 0
		ring.SpillAfter(soft, page, func(b []byte) {
			released += len(b)
			clear(b)
		})
		var written, read uint64
		burst, refused := 0, 0
		drain := func() {
			visible = *r.Head()
			if _, err := ring.Drain(func(rc capture.Record) {
				if uint64(rc.Time) != read {
					t.Fatalf("seed %d: read record %d, want %d", seed, rc.Time, read)
				}
				for _, b := range rc.Payload {
					if b != byte(read) {
						t.Fatalf("seed %d: record %d: payload byte %#x, want %#x", seed, read, b, byte(read))
					}
				}
				read++
			}); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
		}
		lag := 0 // records the drainer lets pass before it looks
		for i := 0; i < 20000; i++ {
			if lag <= 0 {
				drain()
				lag = rng.IntN(4)
				if rng.IntN(50) == 0 {
					lag = 200 + rng.IntN(400) // a stall: a burst outruns it
				}
			}
			lag--
			size := uint32(capture.HeaderSize + 8*rng.IntN(260))
			before := *r.Head() - *r.Tail()
			off := r.Put(size, 0, written)
			if off < 0 {
				refused++
				if before+uint64(size) <= capacity-soft {
					t.Fatalf("seed %d: a record of %d bytes refused with %d of %d bytes waiting", seed, size, before, capacity)
				}
				continue
			}
			if uint64(off)+uint64(size) > soft {
				burst++
				if before+uint64(size) <= soft/8 {
					t.Fatalf("seed %d: record at %d past the resident part with only %d bytes waiting", seed, off, before)
				}
			}
			written++
		}
		drain()
		if read != written {
			t.Fatalf("seed %d: %d records written, %d read", seed, written, read)
		}
		if burst == 0 || released == 0 {
			t.Fatalf("seed %d: the test never used burst space (%d records there, %d bytes given back)", seed, burst, released)
		}
		if seed == 1 {
			t.Logf("%d records: %d in burst space, %d refused, %d KiB given back", written, burst, refused, released>>10)
		}
		r.Free()
	}
}

// TestRingJump: after going back to the start early, a producer stopped by
// what the drainer has still to read before the pad jumps into the pad's
// space, 8 bytes past its header, and the drainer reads across both pads.
func TestRingJump(t *testing.T) {
	const capacity, soft = 64 << 10, 8 << 10
	r := NewRing(capacity, soft)
	defer r.Free()
	var visible uint64
	ring, _ := capture.NewRing(&visible, r.Tail(), r.Data())
	seq := uint64(0)
	put := func(size uint32) int64 {
		off := r.Put(size, 0, seq)
		if off >= 0 {
			seq++
		}
		return off
	}
	var read []uint64
	drain := func() {
		visible = *r.Head()
		if _, err := ring.Drain(func(rc capture.Record) { read = append(read, uint64(rc.Time)) }); err != nil {
			t.Fatal(err)
		}
	}
	// Fill the resident part and read it all: the next record that would
	// cross its end goes back to the start.
	for *r.Head() < soft-512 {
		put(256)
	}
	drain()
	put(256) // the last record before the resident part's end
	pad := *r.Head()
	if off := put(512); off != 0 {
		t.Fatalf("a record past the resident part with nothing waiting went to %d, want 0", off)
	}
	if used := r.Used(); used != 256+512 {
		t.Fatalf("the ring holds two records (768 bytes) and the pad between them; the hooks take it to hold %d", used)
	}
	unread := int64(pad&(capacity-1)) - 256
	// The drainer stalls: the start fills up to the unread record.
	var off int64
	for off = put(512); off >= 0 && off < unread; off = put(512) {
	}
	if want := int64(pad&(capacity-1)) + 8; off != want {
		t.Fatalf("the producer stopped at the unread record went to %d, want %d (8 bytes into the unread pad)", off, want)
	}
	if binary.LittleEndian.Uint16(r.Data()[pad&(capacity-1)+4:]) != uint16(capture.KindPad) {
		t.Fatalf("the unread pad's header was overwritten")
	}
	for put(2048) >= 0 {
	}
	drain()
	if used := r.Used(); used != 0 {
		t.Fatalf("drained, the hooks take the ring to hold %d bytes", used)
	}
	if ring.LastRead() >= capacity {
		t.Fatalf("the drain read %d bytes of records from a ring of %d: pads counted", ring.LastRead(), capacity)
	}
	for i, s := range read {
		if s != uint64(i) {
			t.Fatalf("record %d read as %d (of %d written)", i, s, seq)
		}
	}
	if uint64(len(read)) != seq {
		t.Fatalf("%d records written, %d read", seq, len(read))
	}
}
