package planning

import (
	"reflect"
	"testing"

	"github.com/clrotel/clrotel/values"
)

// Collections the hooks read up to a count or walk: marked by field name
// (package typerender decides which), only when the fields have the
// expected kinds.
func TestCollectionPlans(t *testing.T) {
	f := newShop(t)
	node := f.add(800, core, 0x02000080, "System.Collections.Generic.SortedSet<Int32>.Node", "Node", cidObject)
	f.field(node, 0x04000800, "<Left>k__BackingField", sig(0x12, tdef(0x02000080)), 8)
	f.field(node, 0x04000801, "<Right>k__BackingField", sig(0x12, tdef(0x02000080)), 16)
	f.field(node, 0x04000802, "<Item>k__BackingField", sig(0x08), 24)
	set := f.add(801, core, 0x02000081, "System.Collections.Generic.SortedSet<Int32>", "System.Collections.Generic.SortedSet`1", cidObject)
	f.field(set, 0x04000810, "root", sig(0x12, tdef(0x02000080)), 8)
	f.field(set, 0x04000811, "count", sig(0x08), 16)
	sb := f.add(802, core, 0x02000082, "System.Text.StringBuilder", "System.Text.StringBuilder", cidObject)
	f.field(sb, 0x04000820, "m_ChunkChars", sig(0x1d, 0x03), 8)
	f.field(sb, 0x04000821, "m_ChunkLength", sig(0x08), 16)
	// Node fields of the wrong kind: not walked.
	odd := f.add(803, core, 0x02000083, "System.Collections.Generic.SortedSet<Int64>.Node", "Node", cidObject)
	f.field(odd, 0x04000830, "<Left>k__BackingField", sig(0x08), 8)
	f.field(odd, 0x04000831, "<Right>k__BackingField", sig(0x08), 12)
	// A count of the wrong kind: the array is read whole.
	list := f.add(804, core, 0x02000084, "System.Collections.Generic.List<Acme.Item>", "List", cidObject)
	f.field(list, 0x04000840, "_items", sig(0x1d, 0x1c), 8)
	f.field(list, 0x04000841, "_size", sig(0x0a), 16)

	tests := []struct {
		cid       uint64
		fields    []Value
		link      [2]uint8
		nodeCount uint8
	}{
		{800, []Value{{Kind: values.KindRef, Offset: 8}, {Kind: values.KindRef, Offset: 16}, {Kind: values.KindI4, Offset: 24}}, [2]uint8{1, 2}, 0},
		{801, []Value{{Kind: values.KindRef, Offset: 8, Bounded: BoundTree, BoundOffset: 16}, {Kind: values.KindI4, Offset: 16}}, [2]uint8{}, 0},
		{802, []Value{{Kind: values.KindRef, Offset: 8, Bounded: BoundText, BoundOffset: 16}, {Kind: values.KindI4, Offset: 16}}, [2]uint8{}, 0},
		{803, []Value{{Kind: values.KindI4, Offset: 8}, {Kind: values.KindI4, Offset: 12}}, [2]uint8{}, 0},
		{804, []Value{{Kind: values.KindRef, Offset: 8}, {Kind: values.KindI8, Offset: 16}}, [2]uint8{}, 0},
	}
	pl, _, _ := newTest(f, Options{})
	for _, tc := range tests {
		if err := pl.Plan(tc.cid); err != nil {
			t.Fatal(err)
		}
		p := pl.classes[tc.cid].obj
		if !reflect.DeepEqual(p.Fields, tc.fields) || p.Link != tc.link || p.NodeCount != tc.nodeCount {
			t.Errorf("%s:\n got %+v %v %d\nwant %+v %v %d", pl.classes[tc.cid].info.Name, p.Fields, p.Link, p.NodeCount, tc.fields, tc.link, tc.nodeCount)
		}
	}
}
