package folding

import "sync"

// GroupKey names a group of functions that fold together: an iterator's
// enumerator class (compiler-generated), by its module and TypeDef.
type GroupKey struct {
	Module uint64
	Type   uint32
}

// Groups are the functions that fold together, by the index the hooks know
// them by: an iterator method (each instantiation) and the methods of the
// enumerator its calls make. The fold rule judges an iterator by its
// enumerations, which end in the enumerator's Dispose (the judge: the
// hooks fold it); the others make no span of their own, or only a call
// that returns at once. When the judge folds, the rest fold with it, and
// may lose their hooks; the judge keeps its own, so that an enumeration
// open at that moment still ends. A function met after its group folded
// folds at once.
//
// Safe for concurrent use: functions are added from the threads that
// JIT-compile them, the judge's verdict read by the re-JIT loop.
type Groups struct {
	mu      sync.Mutex
	members map[GroupKey][]uint32
	state   map[GroupKey]groupState
}

type groupState uint8

const (
	groupOpen   groupState = iota
	groupFolded            // its members folded
	groupExempt            // a member may not fold (CLROTEL_FOLD_EXEMPT): none does
)

// Add notes function fn as a member of group k; exempt says fn may not
// fold (the group then never does, whichever member the rule judges). It
// reports whether the group has already folded (fn is then to fold now),
// and which members are to be exempt from folding now: every one when fn
// is the group's first exempt member, fn when the group already was.
func (g *Groups) Add(k GroupKey, fn uint32, exempt bool) (fold bool, exempts []uint32) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.init()
	g.members[k] = append(g.members[k], fn)
	switch st := g.state[k]; {
	case st == groupExempt:
		return false, []uint32{fn}
	case exempt && st == groupOpen:
		g.state[k] = groupExempt
		return false, append([]uint32(nil), g.members[k]...)
	}
	return g.state[k] == groupFolded, nil
}

// Fold is the judge's verdict on group k: it returns the members to fold,
// once (nil after the first call, or when a member is exempt).
func (g *Groups) Fold(k GroupKey) []uint32 {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.init()
	if g.state[k] != groupOpen {
		return nil
	}
	g.state[k] = groupFolded
	return append([]uint32(nil), g.members[k]...)
}

func (g *Groups) init() {
	if g.members == nil {
		g.members = map[GroupKey][]uint32{}
		g.state = map[GroupKey]groupState{}
	}
}
