package indexed

import (
	"sync"
	"sync/atomic"
)

const (
	chunk     = 1024
	maxChunks = 1 << 12 // 4 Mi values: then values are kept without an index
)

// Capacity is the most values a Table indexes.
const Capacity = chunk * maxChunks

// Table maps keys to values, and the index it gives a value to the value.
// Lookups by index take no lock. The values sit in fixed chunks, never
// moved: adding one writes it into its chunk and then publishes the new
// count (a copied list made adding the n-th value cost n: 4,156 functions,
// mcs.exe's compile, spent a third of their naming time copying).
type Table[K comparable, V any] struct {
	mu     sync.Mutex
	byKey  map[K]V
	n      atomic.Uint32 // values published; entries below it are set
	chunks [maxChunks]atomic.Pointer[[chunk]V]
}

// Len is the number of values with an index.
func (t *Table[K, V]) Len() int { return int(t.n.Load()) }

// At returns the value of index i (the zero V for an index not given).
func (t *Table[K, V]) At(i uint32) V {
	if i >= t.n.Load() {
		var zero V
		return zero
	}
	return t.chunks[i/chunk].Load()[i%chunk]
}

// Each calls fn for every value with an index, in index order, up to the
// count when it started.
func (t *Table[K, V]) Each(fn func(i uint32, v V)) {
	n := t.n.Load()
	for i := uint32(0); i < n; i++ {
		fn(i, t.chunks[i/chunk].Load()[i%chunk])
	}
}

// Locked runs fn with the table locked: no value is added meanwhile. list
// holds the indexed values, list[i] of index i.
func (t *Table[K, V]) Locked(fn func(list []V)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	list := make([]V, 0, t.Len())
	t.Each(func(_ uint32, v V) { list = append(list, v) })
	fn(list)
}

// LookupOrAdd returns the value for key, making it with mk under the
// table's lock the first time. mk is told the index the value gets if it
// says it takes one (indexed); a value that takes none, or comes past
// Capacity, is kept without.
func (t *Table[K, V]) LookupOrAdd(key K, mk func(index uint32) (v V, indexed bool)) V {
	t.mu.Lock()
	defer t.mu.Unlock()
	if v, ok := t.byKey[key]; ok {
		return v
	}
	n := t.n.Load()
	v, indexed := mk(n)
	if t.byKey == nil {
		t.byKey = map[K]V{}
	}
	t.byKey[key] = v
	if !indexed || n/chunk >= maxChunks {
		return v
	}
	c := t.chunks[n/chunk].Load()
	if c == nil {
		c = new([chunk]V)
		t.chunks[n/chunk].Store(c)
	}
	c[n%chunk] = v
	t.n.Store(n + 1)
	return v
}
