package flows

import "sync"

// Iterators are the enumerator types of the traced iterator methods
// (Roles.Iterator), per module: their methods are steps of one span per
// enumeration (the iterator method, which makes the enumerator, compiles
// first). Each remembers the iterator method that made it (the first
// function added for it: a generic iterator has one per instantiation
// compiled), whose span an enumeration its call did not begin (a second
// one, of an enumerator GetEnumerator makes) is named after. Safe for
// concurrent use; bounded by the traced iterator methods.
type Iterators struct {
	mu  sync.Mutex
	set map[iteratorKey]uint64
}

type iteratorKey struct {
	module uint64
	td     uint32
}

// Add remembers td of module as the enumerator of the traced iterator
// method fn (its FunctionID).
func (it *Iterators) Add(module uint64, td uint32, fn uint64) {
	it.mu.Lock()
	defer it.mu.Unlock()
	if it.set == nil {
		it.set = map[iteratorKey]uint64{}
	}
	k := iteratorKey{module, td}
	if _, ok := it.set[k]; !ok {
		it.set[k] = fn
	}
}

// Has reports whether td of module was added (Module.IteratorTracked).
func (it *Iterators) Has(module uint64, td uint32) bool {
	_, ok := it.Method(module, td)
	return ok
}

// Method returns the iterator method td of module was first added with.
func (it *Iterators) Method(module uint64, td uint32) (uint64, bool) {
	it.mu.Lock()
	defer it.mu.Unlock()
	fn, ok := it.set[iteratorKey{module, td}]
	return fn, ok
}
