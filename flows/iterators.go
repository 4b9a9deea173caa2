package flows

import "sync"

// Iterators are the enumerator types of the traced iterator methods
// (Roles.Iterator), per module: their methods are steps of one span per
// enumeration (the iterator method, which makes the enumerator, compiles
// first). Safe for concurrent use; bounded by the traced iterator
// methods.
type Iterators struct {
	mu  sync.Mutex
	set map[iteratorKey]bool
}

type iteratorKey struct {
	module uint64
	td     uint32
}

// Add remembers td of module as a traced iterator's enumerator.
func (it *Iterators) Add(module uint64, td uint32) {
	it.mu.Lock()
	defer it.mu.Unlock()
	if it.set == nil {
		it.set = map[iteratorKey]bool{}
	}
	it.set[iteratorKey{module, td}] = true
}

// Has reports whether td of module was added (Module.IteratorTracked).
func (it *Iterators) Has(module uint64, td uint32) bool {
	it.mu.Lock()
	defer it.mu.Unlock()
	return it.set[iteratorKey{module, td}]
}
