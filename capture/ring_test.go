package capture

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"testing"
	"unsafe"
)

// testWriter is a Go model of the C producer in profiler/hooks.c, used to
// feed the reader synthetic rings.
type testWriter struct {
	head, tail uint64
	data       []byte
	pads       map[uint64]int // pad sizes written, counted
}

func (w *testWriter) put(kind Kind, flags uint16, ts int64, payload []byte) bool {
	size := uint64(HeaderSize + (len(payload)+7)&^7)
	n := uint64(len(w.data))
	off := w.head & (n - 1)
	if n-off < size {
		if w.head+(n-off)+size-w.tail > n {
			return false
		}
		binary.LittleEndian.PutUint32(w.data[off:], uint32(n-off))
		binary.LittleEndian.PutUint16(w.data[off+4:], uint16(KindPad))
		if w.pads == nil {
			w.pads = map[uint64]int{}
		}
		w.pads[n-off]++
		w.head += n - off
		off = 0
	}
	if w.head+size-w.tail > n {
		return false
	}
	binary.LittleEndian.PutUint32(w.data[off:], uint32(size))
	binary.LittleEndian.PutUint16(w.data[off+4:], uint16(kind))
	binary.LittleEndian.PutUint16(w.data[off+6:], flags)
	binary.LittleEndian.PutUint64(w.data[off+8:], uint64(ts))
	copy(w.data[off+HeaderSize:], payload)
	w.head += size
	return true
}

func exitPayload(fn uint32) []byte {
	p := make([]byte, 8)
	binary.LittleEndian.PutUint32(p, fn)
	return p
}

func TestRingDrainWrapsWithPad(t *testing.T) {
	w := &testWriter{data: make([]byte, 256)}
	r, err := NewRing(&w.head, &w.tail, w.data)
	if err != nil {
		t.Fatal(err)
	}
	var got []uint32
	next := uint32(0)
	for round := 0; round < 50; round++ {
		for i := 0; i < 3; i++ {
			if !w.put(KindLeave, 0, int64(next), exitPayload(next)) {
				t.Fatalf("round %d: ring full", round)
			}
			next++
		}
		if _, err := r.Drain(func(rec Record) {
			x, err := DecodeExit(rec)
			if err != nil {
				t.Fatal(err)
			}
			if rec.Time != int64(x.Func) {
				t.Fatalf("time %d for func %d", rec.Time, x.Func)
			}
			got = append(got, x.Func)
		}); err != nil {
			t.Fatal(err)
		}
	}
	for i, fn := range got {
		if fn != uint32(i) {
			t.Fatalf("record %d is func %d", i, fn)
		}
	}
	if len(got) != 150 {
		t.Fatalf("got %d records, want 150", len(got))
	}
}

// Records of mixed sizes leave every multiple of 8 before the end of the
// ring, down to an 8-byte pad (a pad header with no room for a record
// header): the reader must take all of them as padding.
func TestRingDrainSmallPads(t *testing.T) {
	w := &testWriter{data: make([]byte, 256)}
	r, err := NewRing(&w.head, &w.tail, w.data)
	if err != nil {
		t.Fatal(err)
	}
	next, want := uint32(0), uint32(0)
	for round := 0; round < 200; round++ {
		for i := 0; i < 2; i++ {
			payload := make([]byte, 8+8*int(next%3)) // records of 24, 32, 40 bytes
			binary.LittleEndian.PutUint32(payload, next)
			if !w.put(KindLeave, 0, int64(next), payload) {
				t.Fatalf("round %d: ring full", round)
			}
			next++
		}
		if _, err := r.Drain(func(rec Record) {
			x, err := DecodeExit(rec)
			if err != nil || x.Func != want {
				t.Fatalf("record %d: %+v, %v", want, x, err)
			}
			want++
		}); err != nil {
			t.Fatalf("after %d records (pads written %v): %v", want, w.pads, err)
		}
	}
	if want != next || w.pads[8] == 0 {
		t.Fatalf("drained %d of %d; pads written %v (want some of 8 bytes)", want, next, w.pads)
	}
}

func TestRingFullRefuses(t *testing.T) {
	w := &testWriter{data: make([]byte, 64)}
	if !w.put(KindLeave, 0, 1, exitPayload(1)) || !w.put(KindLeave, 0, 2, exitPayload(2)) {
		t.Fatal("two 24-byte records must fit in 64 bytes")
	}
	if w.put(KindLeave, 0, 3, exitPayload(3)) {
		t.Fatal("third record must not fit")
	}
}

func TestRingCorruptRecordResyncs(t *testing.T) {
	tests := []struct {
		name string
		size uint32
	}{
		{"zero size", 0},
		{"unaligned", 20},
		{"past head", 128},
		{"past end", 4096},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &testWriter{data: make([]byte, 256)}
			w.put(KindLeave, 0, 1, exitPayload(1))
			binary.LittleEndian.PutUint32(w.data[0:], tt.size)
			r, _ := NewRing(&w.head, &w.tail, w.data)
			if _, err := r.Drain(func(Record) {}); err == nil {
				t.Fatal("want an error")
			}
			if w.tail != w.head {
				t.Fatalf("tail %d, head %d: reader must skip to head", w.tail, w.head)
			}
		})
	}
}

func TestDecodeEnter(t *testing.T) {
	p := make([]byte, 8+16+8+16)
	binary.LittleEndian.PutUint32(p, 7)
	binary.LittleEndian.PutUint32(p[4:], 2)
	for i := 0; i < 16; i++ {
		p[8+i] = byte(i + 1)
	}
	binary.LittleEndian.PutUint64(p[24:], 0xC1A55)
	binary.LittleEndian.PutUint64(p[32:], 11)
	binary.LittleEndian.PutUint64(p[40:], 22)
	e, err := DecodeEnter(Record{Kind: KindEnter, Flags: FlagRoot | FlagGeneric, Payload: p})
	if err != nil {
		t.Fatal(err)
	}
	if e.Func != 7 || e.TraceID[0] != 1 || e.TraceID[15] != 16 || e.Class != 0xC1A55 || len(e.TypeArgs) != 2 || e.TypeArgs[1] != 22 {
		t.Fatalf("decoded %+v", e)
	}
	for cut := 0; cut < len(p); cut++ {
		if _, err := DecodeEnter(Record{Kind: KindEnter, Flags: FlagRoot | FlagGeneric, Payload: p[:cut]}); err == nil {
			t.Fatalf("payload cut at %d decoded without error", cut)
		}
	}
}

func TestNewRingRejectsBadSize(t *testing.T) {
	var h, tl uint64
	for _, n := range []int{0, 32, 100, 1000} {
		if _, err := NewRing(&h, &tl, make([]byte, n)); err == nil {
			t.Errorf("size %d accepted", n)
		}
	}
}

func TestDecodeExitFold(t *testing.T) {
	payload := make([]byte, 8+FoldSize+4)
	binary.LittleEndian.PutUint32(payload, 7)       // function
	binary.LittleEndian.PutUint32(payload[8:], 12)  // folded calls
	binary.LittleEndian.PutUint32(payload[12:], 1)  // one top entry
	binary.LittleEndian.PutUint64(payload[16:], 99) // ns
	binary.LittleEndian.PutUint32(payload[24:], 3)  // top: function 3
	binary.LittleEndian.PutUint32(payload[28:], 12) // its calls
	binary.LittleEndian.PutUint64(payload[32:], 99) // its ns
	copy(payload[8+FoldSize:], []byte{1, 2, 3, 4})
	cases := []struct {
		name   string
		flags  uint16
		want   Fold
		values []byte
		err    bool
	}{
		{"fold and values", FlagFolded | FlagValues, Fold{Calls: 12, Ns: 99, Top: []FoldEntry{{3, 12, 99}}}, []byte{1, 2, 3, 4}, false},
		{"values only", FlagValues, Fold{}, payload[8:], false},
		{"fold part cut", FlagFolded, Fold{}, nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := payload
			if c.err {
				p = payload[:20]
			}
			x, err := DecodeExit(Record{Kind: KindLeave, Flags: c.flags, Payload: p})
			if (err != nil) != c.err {
				t.Fatalf("err = %v", err)
			}
			if c.err {
				return
			}
			if x.Func != 7 || !reflect.DeepEqual(x.Fold, c.want) || !bytes.Equal(x.Values, c.values) {
				t.Errorf("got %+v", x)
			}
		})
	}
}

// With burst space, Drain gives back the whole pages of burst space that
// the records it read fill, before it moves the tail; never a page of the
// resident part, nor one that holds any part of a pad (the producer may
// be writing into a pad's space: profiler/ring.h).
func TestRingReleasesBurstPagesRead(t *testing.T) {
	const page, soft = 64, 128
	tests := []struct {
		name  string
		write func(w *testWriter)
		want  [][2]int // released ranges, as offsets
		pads  int      // bytes of pads written
	}{
		{"resident only", func(w *testWriter) {
			for i := 0; i < 4; i++ {
				w.put(KindEnter, 0, int64(i), make([]byte, 16))
			}
		}, nil, 0},
		{"records across the burst space", func(w *testWriter) {
			for i := 0; i < 12; i++ { // 12 records of 32 bytes: offsets 0 to 384
				w.put(KindEnter, 0, int64(i), make([]byte, 16))
			}
		}, [][2]int{{128, 384}}, 0},
		{"a pad splits the run", func(w *testWriter) {
			for i := 0; i < 6; i++ { // up to 192
				w.put(KindEnter, 0, int64(i), make([]byte, 16))
			}
			binary.LittleEndian.PutUint32(w.data[w.head:], 72) // a pad over 192-264
			binary.LittleEndian.PutUint16(w.data[w.head+4:], uint16(KindPad))
			w.head += 72
			for i := 0; i < 6; i++ { // 264 to 456
				w.put(KindEnter, 0, int64(i), make([]byte, 16))
			}
		}, [][2]int{{128, 192}, {320, 448}}, 72},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &testWriter{data: make([]byte, 512)}
			r, err := NewRing(&w.head, &w.tail, w.data)
			if err != nil {
				t.Fatal(err)
			}
			var got [][2]int
			r.SpillAfter(soft, page, func(b []byte) {
				if w.tail != 0 {
					t.Errorf("pages given back after the tail moved")
				}
				off := int(uintptr(unsafe.Pointer(&b[0])) - uintptr(unsafe.Pointer(&w.data[0])))
				got = append(got, [2]int{off, off + len(b)})
			})
			tt.write(w)
			if _, err := r.Drain(func(Record) {}); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("released %v, want %v", got, tt.want)
			}
			if want := w.head; r.LastRead() != want-uint64(tt.pads) {
				t.Errorf("LastRead %d, want %d (%d bytes drained from the start, %d of them pads)", r.LastRead(), want-uint64(tt.pads), want, tt.pads)
			}
		})
	}
}
