package values

import (
	"bytes"
	"hash/maphash"

	"go.opentelemetry.io/otel/attribute"
)

// Versioned is a Classes whose answers change only when its generation
// does: renderings of the same bytes under the same generation are the
// same, so the Renderer may keep them (Renderer.Memo).
type Versioned interface {
	Generation() uint64
}

// Memo keeps the attributes of top-level values whose encoded bytes come
// back: a service's `this`, its repositories and options objects, the same
// request context fields in every call. A value's rendering is a function
// of its bytes, its slot, the classes' answers and the Renderer's settings,
// so the same bytes under the same Classes generation give the same
// attributes; the memo keeps them and replays them through the span's byte
// limit as rendering them would.
//
// A value is kept the second time its bytes are seen, so that values that
// never repeat (a request's own objects) cost a hash and no copy. The memo
// is bounded (memoEntries values, memoBytes of their bytes and text) and
// emptied whole when full or when the classes change.
//
// The last recentEntries values rendered are also kept, in buffers reused
// in turn: an object passed down a chain of calls (a request's context,
// its command, its options) is the same bytes at each call, and is
// rendered once for the chain rather than once per call, though it never
// comes back after its request.
type Memo struct {
	seed    maphash.Seed
	gen     uint64
	seen    map[uint64]struct{}
	entries map[uint64]*memoEntry
	size    int
	hits    uint64
	recent  [recentEntries]recentEntry
	next    int // the recent entry replaced next
}

type memoEntry struct {
	key   string
	enum  *Enum
	raw   []byte
	attrs []attribute.KeyValue
	// size: what attrs count against a span's byte limit, all together.
	size int
	// noPlan: the classes of the NoPlan values in it.
	noPlan []uint64
}

func (e *memoEntry) holds(s Slot, raw []byte) bool {
	return e.key == s.Key && e.enum == s.Enum && bytes.Equal(e.raw, raw)
}

// recentEntry is a memoEntry whose buffers are reused from value to value.
type recentEntry struct {
	memoEntry
	hash uint64
	used bool
}

const (
	// memoMinBytes: smaller values (numbers, short strings) render faster
	// than they hash and replay.
	memoMinBytes = 48
	memoEntries  = 2048
	memoSeen     = 16384
	memoBytes    = 8 << 20
	// recentEntries: a handler's chain of calls passes a few values each;
	// recentMaxBytes keeps the reused buffers small whatever
	// CLROTEL_VALUE_BYTES allows.
	recentEntries  = 8
	recentMaxBytes = 16 << 10
)

// NewMemo returns an empty memo.
func NewMemo() *Memo {
	return &Memo{seed: maphash.MakeSeed(), seen: map[uint64]struct{}{}, entries: map[uint64]*memoEntry{}}
}

// Hits is how many values were replayed from the memo.
func (m *Memo) Hits() uint64 { return m.hits }

// Len is how many values the memo holds.
func (m *Memo) Len() int { return len(m.entries) }

func (m *Memo) reset() {
	clear(m.seen)
	clear(m.entries)
	m.size = 0
	for i := range m.recent {
		m.recent[i].used = false
	}
}

func (m *Memo) hash(s Slot, raw []byte) uint64 {
	return maphash.Bytes(m.seed, raw) ^ maphash.String(m.seed, s.Key)*0x9e3779b97f4a7c15
}

// lookup returns the attributes kept for s's value raw and the classes
// without a plan in it, or whether the value is seen for the second time
// (and is to be kept).
func (m *Memo) lookup(h uint64, s Slot, raw []byte) (hit *memoEntry, keep bool) {
	if e := m.entries[h]; e != nil && e.holds(s, raw) {
		m.hits++
		return e, false
	}
	for i := range m.recent {
		if e := &m.recent[i]; e.used && e.hash == h && e.holds(s, raw) {
			m.hits++
			return &e.memoEntry, false
		}
	}
	if _, ok := m.seen[h]; ok {
		return nil, true
	}
	if len(m.seen) >= memoSeen {
		clear(m.seen)
	}
	m.seen[h] = struct{}{}
	return nil, false
}

// recentSlot is the recent entry a value seen for the first time is
// rendered into (its attrs' array reused), or nil when raw is too large.
func (m *Memo) recentSlot(raw []byte) *recentEntry {
	if len(raw) > recentMaxBytes {
		return nil
	}
	e := &m.recent[m.next]
	m.next = (m.next + 1) % recentEntries
	e.used = false // until remember
	return e
}

// remember makes e hold s's value raw, rendered as attrs.
func (e *recentEntry) remember(h uint64, s Slot, raw []byte, attrs []attribute.KeyValue, size int, noPlan []uint64) {
	e.hash, e.key, e.enum, e.attrs, e.size, e.noPlan, e.used = h, s.Key, s.Enum, attrs, size, noPlan, true
	e.raw = append(e.raw[:0], raw...)
}

// keep remembers raw's attrs, which count size bytes against a span's
// limit.
func (m *Memo) keep(h uint64, s Slot, raw []byte, attrs []attribute.KeyValue, size int, noPlan []uint64) {
	n := len(raw) + len(s.Key) + 8*len(noPlan) + size
	if len(m.entries) >= memoEntries || m.size+n > memoBytes {
		m.reset()
	}
	m.entries[h] = &memoEntry{key: s.Key, enum: s.Enum, raw: bytes.Clone(raw), attrs: attrs, size: size, noPlan: noPlan}
	m.size += n
}
