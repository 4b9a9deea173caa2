package planning

import (
	"github.com/clrotel/clrotel/values"
	"github.com/clrotel/clrotel/values/typerender"
)

// boundCollections marks the array fields a collection uses only up to a
// count field (typerender.Bounds decides which, by field name): the hooks
// copy no element past the count. A walked collection's field (a tree's
// root, an array of hash chains) is marked for the hooks to walk, with its
// count field if it has one.
func boundCollections(class string, rows []fieldRow, fields []Value) {
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = r.name
	}
	for _, b := range typerender.Bounds(class, names) {
		arr, cnt := -1, -1
		for i, r := range rows {
			switch {
			case r.name == b.Array && r.slot.kind == values.KindRef:
				arr = i
			case r.name == b.Count && r.slot.kind == values.KindI4:
				cnt = i
			}
		}
		switch {
		case arr < 0:
		case b.Walk == typerender.WalkInner:
			fields[arr].Bounded = BoundInner
		case b.Walk != typerender.WalkNone:
			fields[arr].Bounded = BoundTree
			if b.Walk == typerender.WalkChains {
				fields[arr].Bounded = BoundChains
			}
			fields[arr].BoundOffset = NoCount
			if cnt >= 0 {
				fields[arr].BoundOffset = rows[cnt].offset
			}
		case cnt >= 0:
			fields[arr].Bounded = BoundCollection
			if b.Text {
				fields[arr].Bounded = BoundText
			}
			fields[arr].BoundOffset = rows[cnt].offset
		}
	}
}

// nodeLinks marks, in the plan of a walked collection's node class
// (typerender.NodeLinks decides, by field name), the fields that link
// nodes and the subtree count: the hooks follow them.
func nodeLinks(plan *Class, info values.ClassInfo, rows []fieldRow) {
	names := make([]string, len(info.Fields))
	for i, f := range info.Fields {
		names[i] = f.Name
	}
	l, ok := typerender.NodeLinks(info.Name, names)
	if !ok {
		return
	}
	index := func(name string, kind values.Kind) uint8 {
		for i, f := range info.Fields {
			if name != "" && f.Name == name && i < len(rows) && rows[i].slot.kind == kind && i < 255 {
				return uint8(i + 1)
			}
		}
		return 0
	}
	left, right, count := index(l.Left, values.KindRef), index(l.Right, values.KindRef), index(l.Count, values.KindI4)
	if left == 0 || (l.Right != "" && right == 0) || (l.Count != "" && count == 0) {
		return // not the expected kinds: the collection renders generically
	}
	plan.Link[0], plan.Link[1], plan.NodeCount = left, right, count
}
