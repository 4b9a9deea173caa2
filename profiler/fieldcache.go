package main

import (
	"sync"
)

// addedFieldCache remembers, per type of one module, the fields async.c
// added to it (addedFields' answer). They are defined as the module loads,
// before any of its types is loaded and so before any of its methods
// compiles: the answer never changes, and asking again cost every compiled
// method two enumerations of its class's fields (a fifth of clrotel's
// JIT-time work on mcs.exe).
type addedFieldCache struct {
	mu sync.Mutex
	m  map[addedKey][]uint32
}

type addedKey struct {
	td   uint32
	kind int
}

// addedFields is addedFields(m.imp, td, kind), cached.
func (m metadata) addedFields(td uint32, kind int) ([]uint32, error) {
	ask := func() ([]uint32, error) { return addedFields(m.imp, td, kind) }
	c := m.added
	if c == nil {
		return ask()
	}
	k := addedKey{td, kind}
	c.mu.Lock()
	toks, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return toks, nil
	}
	toks, err := ask()
	if err != nil {
		return nil, err // asked again next time
	}
	c.mu.Lock()
	if c.m == nil {
		c.m = map[addedKey][]uint32{}
	}
	c.m[k] = toks
	c.mu.Unlock()
	return toks, nil
}
