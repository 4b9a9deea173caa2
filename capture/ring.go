package capture

import (
	"encoding/binary"
	"fmt"
	"sync/atomic"
)

// Ring is the consumer side of one single-producer, single-consumer ring of
// records. The producer (C code on a CLR thread) advances head after writing
// a record; the consumer advances tail after reading. Positions are byte
// counts that only grow; the offset in data is the position modulo
// len(data), which is a power of two. A record never wraps: the producer
// fills the end of the ring with a pad record instead.
type Ring struct {
	head *uint64 // written by the producer
	tail *uint64 // written by the consumer
	data []byte
	mask uint64

	// Burst space (SpillAfter): the part of data from soft on, and what
	// gives its drained pages back.
	soft    uint64
	page    uint64
	release func([]byte)

	read uint64 // bytes of records (pads left out) the last Drain read
}

// LastRead returns the bytes of records, pads left out, that the last
// Drain read: how much the ring held when the drainer came back to it (a
// pad that took the producer back to the start early spans burst space
// but holds nothing).
func (r *Ring) LastRead() uint64 { return r.read }

// SpillAfter says that data past its first soft bytes is burst space
// (profiler/ring.h): the producer writes there only when the drainer is
// behind. Drain hands release the whole pages of burst space that records
// it has just read fill, before it frees them for the producer, so no
// write can race with giving them back; release may return them to the
// kernel (madvise). A page that holds any part of a pad is kept: the
// producer may be writing into a pad's space (ring.h). page is the
// memory's page size, a power of two.
func (r *Ring) SpillAfter(soft uint64, page int, release func([]byte)) {
	r.soft, r.page, r.release = soft, uint64(page), release
}

// releaseRun hands release the whole pages of burst space within
// data[from:to], which records just read fill.
func (r *Ring) releaseRun(from, to uint64) {
	from = (max(from, r.soft) + r.page - 1) &^ (r.page - 1)
	to &^= r.page - 1
	if from < to {
		r.release(r.data[from:to])
	}
}

// NewRing wraps ring memory. head and tail must be 8-byte aligned and data's
// length a power of two of at least 64 bytes.
func NewRing(head, tail *uint64, data []byte) (*Ring, error) {
	n := uint64(len(data))
	if n < 64 || n&(n-1) != 0 {
		return nil, fmt.Errorf("capture: ring of %d bytes: size must be a power of two >= 64", n)
	}
	return &Ring{head: head, tail: tail, data: data, mask: n - 1}, nil
}

// Pending reports how many bytes are written and not yet consumed.
func (r *Ring) Pending() uint64 {
	return atomic.LoadUint64(r.head) - atomic.LoadUint64(r.tail)
}

// Drain calls fn for each record available now, in order, and releases
// their space afterwards. It returns how many records it passed to fn. A
// malformed record (which only a corrupted ring can hold) stops the drain,
// discards everything up to head and returns an error: the ring stays
// usable and the caller can resynchronise its state.
func (r *Ring) Drain(fn func(Record)) (int, error) {
	head := atomic.LoadUint64(r.head)
	tail := atomic.LoadUint64(r.tail)
	// The records just read, from runFrom to runTo in data, with no pad
	// between them.
	var runFrom, runTo uint64
	spill := r.release != nil
	n := 0
	r.read = 0
	for tail < head {
		off := tail & r.mask
		room := uint64(len(r.data)) - off
		if room < 8 {
			// Records are multiples of 8 bytes, so at least a pad header
			// (size and kind: 8 bytes) always fits before the end; a pad
			// may be exactly that, with no room for a record header.
			atomic.StoreUint64(r.tail, head)
			return n, fmt.Errorf("capture: ring corrupt: %d bytes before the end at position %d", room, tail)
		}
		size := uint64(binary.LittleEndian.Uint32(r.data[off:]))
		kind := Kind(binary.LittleEndian.Uint16(r.data[off+4:]))
		if size < 8 || size%8 != 0 || size > room || tail+size > head {
			atomic.StoreUint64(r.tail, head)
			return n, fmt.Errorf("capture: ring corrupt: record of %d bytes (kind %v) at position %d", size, kind, tail)
		}
		if kind != KindPad {
			if size < HeaderSize {
				atomic.StoreUint64(r.tail, head)
				return n, fmt.Errorf("capture: ring corrupt: %v record of %d bytes", kind, size)
			}
			rec := Record{
				Pos:     tail,
				Kind:    kind,
				Flags:   binary.LittleEndian.Uint16(r.data[off+6:]),
				Time:    int64(binary.LittleEndian.Uint64(r.data[off+8:])),
				Payload: r.data[off+HeaderSize : off+size],
			}
			fn(rec)
			n++
			r.read += size
			if spill && off != runTo {
				r.releaseRun(runFrom, runTo)
				runFrom = off
			}
			runTo = off + size
		} else if spill {
			r.releaseRun(runFrom, runTo)
			runFrom, runTo = 0, 0
		}
		tail += size
	}
	if spill {
		r.releaseRun(runFrom, runTo)
	}
	atomic.StoreUint64(r.tail, tail)
	return n, nil
}
