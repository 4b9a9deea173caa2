package creader

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/clrotel/clrotel/values"
)

// Class IDs stand where real objects hold a MethodTable pointer: the reader
// checks that it points at readable memory, so each fake class is a block
// of memory of its own.
var (
	classMem                               Mem
	clsString, clsNode, clsInts, clsSecret uint64
	clsTree, clsTNode, clsTable, clsHeads  uint64
	clsCNode, clsOther, clsWrap            uint64
	clsFw, clsApp, clsShown                uint64
)

var limits = Limits{MaxBytes: 4096, MaxChars: 16, MaxElems: 4, MaxDepth: 3, MaxFields: 8}

func TestMain(m *testing.M) {
	Init(limits)
	for _, c := range []*uint64{&clsString, &clsNode, &clsInts, &clsSecret, &clsTree, &clsTNode, &clsTable, &clsHeads, &clsCNode, &clsOther, &clsWrap, &clsFw, &clsApp, &clsShown} {
		*c = Addr(classMem.Alloc(64))
	}
	Publish(clsString, ShapeString, 0, 0, nil)
	// Node { Node Next @8; Int32 Value @16 }
	Publish(clsNode, ShapeObject, 0, 0, []Field{{Kind: uint8(values.KindRef), Offset: 8}, {Kind: uint8(values.KindI4), Offset: 16}})
	Publish(clsInts, ShapeArray, uint8(values.KindI4), 4, nil)
	// Secret { String Password @8 (redacted); Int32 Id @16 }
	Publish(clsSecret, ShapeObject, 0, 0, []Field{{Kind: uint8(values.KindRef), Offset: 8, Redact: true}, {Kind: uint8(values.KindI4), Offset: 16}})
	ref, i4 := uint8(values.KindRef), uint8(values.KindI4)
	// Tree { TNode root @8 (walked, count @16); Int32 count @16 }
	Publish(clsTree, ShapeObject, 0, 0, []Field{{Kind: ref, Offset: 8, Walk: BoundTree, BoundOffset: 16}, {Kind: i4, Offset: 16}})
	// TNode { Int32 item @8; TNode left @16; TNode right @24 }
	PublishNode(clsTNode, ShapeObject, 0, 0, []Field{{Kind: i4, Offset: 8}, {Kind: ref, Offset: 16}, {Kind: ref, Offset: 24}}, Links{Left: 2, Right: 3})
	// Table { CNode[] buckets @8 (walked, no count) }; CNode { Int32 key @8; CNode next @16 }
	Publish(clsTable, ShapeObject, 0, 0, []Field{{Kind: ref, Offset: 8, Walk: BoundChains, BoundOffset: NoCount}})
	Publish(clsHeads, ShapeArray, ref, 8, nil)
	PublishNode(clsCNode, ShapeObject, 0, 0, []Field{{Kind: i4, Offset: 8}, {Kind: ref, Offset: 16}}, Links{Left: 2})
	PublishNode(clsOther, ShapeObject, 0, 0, []Field{{Kind: i4, Offset: 8}, {Kind: ref, Offset: 16}, {Kind: ref, Offset: 24}}, Links{Left: 2, Right: 3})
	// Wrap { Node inner @8: the collection's inner part, no level }
	Publish(clsWrap, ShapeObject, 0, 0, []Field{{Kind: ref, Offset: 8, Walk: BoundInner}})
	// Fw, App and Shown { object F @8; Int32 V @16 }: a framework class
	// with no rendering of its own, an app's class, one rendered by meaning.
	two := []Field{{Kind: ref, Offset: 8}, {Kind: i4, Offset: 16}}
	PublishObject(clsFw, ViewTerse, two)
	PublishObject(clsApp, ViewPlain, two)
	PublishObject(clsShown, ViewRendered, two)
	m.Run()
}

func str(m *Mem, s string, fakeLen uint32) uint64 {
	u := utf16.Encode([]rune(s))
	b := m.Alloc(12 + 2*len(u) + 2)
	binary.LittleEndian.PutUint64(b, clsString)
	l := uint32(len(u))
	if fakeLen != 0 {
		l = fakeLen
	}
	binary.LittleEndian.PutUint32(b[8:], l)
	for i, c := range u {
		binary.LittleEndian.PutUint16(b[12+2*i:], c)
	}
	return Addr(b)
}

func node(m *Mem, next uint64, v int32) []byte {
	b := m.Alloc(24)
	binary.LittleEndian.PutUint64(b, clsNode)
	binary.LittleEndian.PutUint64(b[8:], next)
	binary.LittleEndian.PutUint32(b[16:], uint32(v))
	return b
}

func decodeAll(t *testing.T, stream []byte) []values.Value {
	t.Helper()
	d := values.NewDecoder(stream)
	var out []values.Value
	for d.More() {
		v, err := d.Next()
		if err != nil {
			t.Fatalf("stream % x: %v", stream, err)
		}
		out = append(out, v)
	}
	return out
}

func TestReader(t *testing.T) {
	var m Mem
	defer m.Free()
	ref := uint8(values.KindRef)

	t.Run("primitives and strings", func(t *testing.T) {
		vals := decodeAll(t, Capture([]uint8{uint8(values.KindI4), uint8(values.KindR8), ref, ref},
			[]uint64{0xffffffd6, 0x4002000000000000, str(&m, "hé😀", 0), 0}, 4096))
		if len(vals) != 4 || vals[0].Int() != -42 || vals[1].Float() != 2.25 || vals[3].Shape != values.Null {
			t.Fatalf("%+v", vals)
		}
		if s := string(utf16.Decode(vals[2].Str)); s != "hé😀" {
			t.Fatalf("string %q", s)
		}
	})
	t.Run("string length is bounded, not trusted", func(t *testing.T) {
		// A string claiming 2^31-1 characters: only MaxChars are copied.
		vals := decodeAll(t, Capture([]uint8{ref}, []uint64{str(&m, strings.Repeat("a", 40), 1<<31-1)}, 4096))
		if vals[0].StrLen != 1<<31-1 || len(vals[0].Str) != int(limits.MaxChars) {
			t.Fatalf("len %d, copied %d", vals[0].StrLen, len(vals[0].Str))
		}
	})
	t.Run("cycle and depth", func(t *testing.T) {
		a := node(&m, 0, 1)
		binary.LittleEndian.PutUint64(a[8:], Addr(a)) // a.Next = a
		vals := decodeAll(t, Capture([]uint8{ref}, []uint64{Addr(a)}, 4096))
		if vals[0].Shape != values.Object || vals[0].Fields[0].Shape != values.Cycle {
			t.Fatalf("%+v", vals[0])
		}
		// A chain deeper than MaxDepth stops with a depth marker.
		var next uint64
		for i := 0; i < 10; i++ {
			next = Addr(node(&m, next, int32(i)))
		}
		v := decodeAll(t, Capture([]uint8{ref}, []uint64{next}, 4096))[0]
		depth := 0
		for v.Shape == values.Object {
			v = v.Fields[0]
			depth++
		}
		if depth != int(limits.MaxDepth) || v.Shape != values.DepthLimit {
			t.Fatalf("stopped after %d levels at %v", depth, v.Shape)
		}
	})
	t.Run("huge array is bounded", func(t *testing.T) {
		b := m.Alloc(16 + 4*8)
		binary.LittleEndian.PutUint64(b, clsInts)
		binary.LittleEndian.PutUint32(b[8:], 1<<31-1) // claims 2^31-1 elements
		for i := 0; i < 8; i++ {
			binary.LittleEndian.PutUint32(b[16+4*i:], uint32(i*10))
		}
		v := decodeAll(t, Capture([]uint8{ref}, []uint64{Addr(b)}, 4096))[0]
		if v.Shape != values.Array || v.Dims[0] != 1<<31-1 || len(v.Elems) != int(limits.MaxElems) || v.Elems[3].Int() != 30 {
			t.Fatalf("%+v", v)
		}
	})
	t.Run("hostile pointers read as unreadable, no crash", func(t *testing.T) {
		bad := UnmappedPage()
		// A field that points into an unmapped page, an argument that does,
		// a pointer into page zero, and an object whose class word is junk.
		n := node(&m, bad, 5)
		junk := m.Alloc(16)
		binary.LittleEndian.PutUint64(junk, 0x10)
		vals := decodeAll(t, Capture([]uint8{ref, ref, ref, ref}, []uint64{Addr(n), bad + 8, 0x18, Addr(junk)}, 4096))
		if len(vals) != 4 {
			t.Fatalf("%d values", len(vals))
		}
		if vals[0].Fields[0].Shape != values.Unreadable || vals[0].Fields[1].Int() != 5 {
			t.Errorf("node with bad Next: %+v", vals[0])
		}
		for i, v := range vals[1:] {
			if v.Shape != values.Unreadable {
				t.Errorf("value %d: %v, want unreadable", i+1, v.Shape)
			}
		}
	})
	t.Run("forged type pointers fault inside the runtime, recovered", func(t *testing.T) {
		bad := UnmappedPage()
		// The object's type pointer is readable, but the runtime follows
		// it to an unmapped page: the guarded call is abandoned.
		mt := m.Alloc(64)
		binary.LittleEndian.PutUint64(mt, bad)
		forged := m.Alloc(24)
		binary.LittleEndian.PutUint64(forged, Addr(mt))
		// Readable type pointers without a plan: one in a loaded module
		// goes to Go to be planned, one outside every module does not.
		known, junk := m.Alloc(64), m.Alloc(64)
		binary.LittleEndian.PutUint64(known[8:], FakeModule)
		binary.LittleEndian.PutUint64(junk[8:], 0x41414141)
		objKnown, objJunk := m.Alloc(24), m.Alloc(24)
		binary.LittleEndian.PutUint64(objKnown, Addr(known))
		binary.LittleEndian.PutUint64(objJunk, Addr(junk))
		n := node(&m, Addr(forged), 9)
		before := GuardFaults()
		vals := decodeAll(t, Capture([]uint8{ref, ref, ref, ref}, []uint64{Addr(forged), Addr(n), Addr(objKnown), Addr(objJunk)}, 4096))
		if got := GuardFaults() - before; got != 2 {
			t.Errorf("%d guarded faults, want 2", got)
		}
		if len(vals) != 4 || vals[0].Shape != values.Unreadable || vals[1].Fields[0].Shape != values.Unreadable || vals[1].Fields[1].Int() != 9 {
			t.Fatalf("%+v", vals)
		}
		if vals[2].Shape != values.NoPlan || vals[2].Class != Addr(known) {
			t.Errorf("class in a loaded module: %+v, want no plan yet", vals[2])
		}
		if vals[3].Shape != values.Unreadable {
			t.Errorf("class outside every module: %v, want unreadable", vals[3].Shape)
		}
		// The thread's signal mask survived: the guard is reusable.
		if v := decodeAll(t, Capture([]uint8{ref}, []uint64{Addr(forged)}, 4096)); v[0].Shape != values.Unreadable || GuardFaults()-before != 3 {
			t.Fatalf("second fault: %+v", v)
		}
	})
	t.Run("redacted field is not read", func(t *testing.T) {
		b := m.Alloc(24)
		binary.LittleEndian.PutUint64(b, clsSecret)
		binary.LittleEndian.PutUint64(b[8:], str(&m, "hunter2", 0))
		binary.LittleEndian.PutUint32(b[16:], 7)
		stream := Capture([]uint8{ref}, []uint64{Addr(b)}, 4096)
		if strings.Contains(string(stream), "h\x00u\x00n\x00") {
			t.Fatal("the secret is in the stream")
		}
		v := decodeAll(t, stream)[0]
		if v.Fields[0].Shape != values.Redacted || v.Fields[1].Int() != 7 {
			t.Fatalf("%+v", v)
		}
	})
	t.Run("byte budget ends the stream cleanly", func(t *testing.T) {
		s := str(&m, strings.Repeat("z", 16), 0)
		stream := Capture([]uint8{ref, ref, ref, ref, ref, ref}, []uint64{s, s, s, s, s, s}, 80)
		if len(stream) > 80 {
			t.Fatalf("%d bytes over a budget of 80", len(stream))
		}
		vals := decodeAll(t, stream)
		if last := vals[len(vals)-1]; last.Shape != values.Truncated {
			t.Fatalf("last value %v, want truncated", last.Shape)
		}
	})
}

func tnode(m *Mem, cls uint64, item int32, left, right uint64) uint64 {
	b := m.Alloc(32)
	binary.LittleEndian.PutUint64(b, cls)
	binary.LittleEndian.PutUint32(b[8:], uint32(item))
	binary.LittleEndian.PutUint64(b[16:], left)
	binary.LittleEndian.PutUint64(b[24:], right)
	return Addr(b)
}

func owner(m *Mem, cls, ref uint64, count int32) uint64 {
	b := m.Alloc(24)
	binary.LittleEndian.PutUint64(b, cls)
	binary.LittleEndian.PutUint64(b[8:], ref)
	binary.LittleEndian.PutUint32(b[16:], uint32(count))
	return Addr(b)
}

// walked returns the items of a walked collection's nodes, its dims[0],
// and checks that each node's links are left out.
func walked(t *testing.T, v values.Value) ([]int64, uint32) {
	t.Helper()
	if v.Shape != values.Object || v.Fields[0].Shape != values.Array {
		t.Fatalf("not walked: %+v", v)
	}
	a := v.Fields[0]
	var items []int64
	for _, n := range a.Elems {
		if n.Shape != values.Object || n.Fields[0].Shape != values.Prim || n.Fields[1].Shape != values.Skipped {
			t.Fatalf("node %+v", n)
		}
		items = append(items, n.Fields[0].Int())
	}
	return items, a.Dims[0]
}

func TestWalks(t *testing.T) {
	var m Mem
	defer m.Free()
	ref := uint8(values.KindRef)
	capture := func(obj uint64) values.Value {
		return decodeAll(t, Capture([]uint8{ref}, []uint64{obj}, 4096))[0]
	}
	t.Run("tree in order, bounded, real count", func(t *testing.T) {
		// 4 at the root; 2 (1, 3) left; 6 (5, 7) right.
		leaf := func(v int32) uint64 { return tnode(&m, clsTNode, v, 0, 0) }
		root := tnode(&m, clsTNode, 4, tnode(&m, clsTNode, 2, leaf(1), leaf(3)), tnode(&m, clsTNode, 6, leaf(5), leaf(7)))
		items, n := walked(t, capture(owner(&m, clsTree, root, 7)))
		if fmt.Sprint(items) != "[1 2 3 4]" || n != 7 {
			t.Fatalf("items %v of %d", items, n)
		}
		small := tnode(&m, clsTNode, 2, leaf(1), 0)
		if items, n := walked(t, capture(owner(&m, clsTree, small, 2))); fmt.Sprint(items) != "[1 2]" || n != 2 {
			t.Fatalf("items %v of %d", items, n)
		}
		if v := capture(owner(&m, clsTree, 0, 0)); v.Fields[0].Shape != values.Null {
			t.Fatalf("empty tree %+v", v)
		}
	})
	t.Run("hostile trees stop, no crash, no hang", func(t *testing.T) {
		// A node that is its own left child: the walk's stack fills and it stops.
		b := m.Alloc(32)
		binary.LittleEndian.PutUint64(b, clsTNode)
		binary.LittleEndian.PutUint64(b[16:], Addr(b))
		if items, n := walked(t, capture(owner(&m, clsTree, Addr(b), 3))); len(items) != 0 || n != 3 {
			t.Fatalf("self-left: %v of %d", items, n)
		}
		// Its own right child: at most MaxElems nodes.
		c := m.Alloc(32)
		binary.LittleEndian.PutUint64(c, clsTNode)
		binary.LittleEndian.PutUint64(c[24:], Addr(c))
		if items, _ := walked(t, capture(owner(&m, clsTree, Addr(c), 1000))); len(items) != int(limits.MaxElems) {
			t.Fatalf("self-right: %v", items)
		}
		// A child in an unmapped page, a child of another class: the walk stops there.
		bad := tnode(&m, clsTNode, 2, tnode(&m, clsTNode, 1, UnmappedPage(), 0), 0)
		if items, _ := walked(t, capture(owner(&m, clsTree, bad, 2))); len(items) != 0 {
			t.Fatalf("unmapped child: %v", items)
		}
		other := tnode(&m, clsTNode, 2, 0, tnode(&m, clsOther, 3, 0, 0))
		if items, _ := walked(t, capture(owner(&m, clsTree, other, 2))); fmt.Sprint(items) != "[2]" {
			t.Fatalf("foreign child: %v", items)
		}
		// The root itself unreadable.
		if v := capture(owner(&m, clsTree, UnmappedPage(), 2)); v.Fields[0].Shape != values.Unreadable {
			t.Fatalf("unmapped root: %+v", v.Fields[0])
		}
	})
	t.Run("an inner part is no nesting level", func(t *testing.T) {
		var next uint64
		for i := 0; i < 10; i++ {
			next = Addr(node(&m, next, int32(i)))
		}
		v := capture(owner(&m, clsWrap, next, 0)).Fields[0]
		depth := 0
		for v.Shape == values.Object {
			v = v.Fields[0]
			depth++
		}
		if depth != int(limits.MaxDepth) || v.Shape != values.DepthLimit {
			t.Fatalf("stopped after %d levels at %v", depth, v.Shape)
		}
	})
	t.Run("hash chains in bucket order", func(t *testing.T) {
		cnode := func(key int32, next uint64) uint64 {
			b := m.Alloc(24)
			binary.LittleEndian.PutUint64(b, clsCNode)
			binary.LittleEndian.PutUint32(b[8:], uint32(key))
			binary.LittleEndian.PutUint64(b[16:], next)
			return Addr(b)
		}
		heads := func(hs ...uint64) uint64 {
			b := m.Alloc(16 + 8*len(hs))
			binary.LittleEndian.PutUint64(b, clsHeads)
			binary.LittleEndian.PutUint32(b[8:], uint32(len(hs)))
			for i, h := range hs {
				binary.LittleEndian.PutUint64(b[16+8*i:], h)
			}
			return Addr(b)
		}
		items, n := walked(t, capture(owner(&m, clsTable, heads(cnode(1, cnode(2, 0)), 0, cnode(3, 0)), 0)))
		if fmt.Sprint(items) != "[1 2 3]" || n != 3 {
			t.Fatalf("items %v of %d", items, n)
		}
		// More than MaxElems: the count is not known to the walk.
		items, n = walked(t, capture(owner(&m, clsTable, heads(cnode(1, cnode(2, cnode(3, 0))), cnode(4, cnode(5, 0))), 0)))
		if fmt.Sprint(items) != "[1 2 3 4]" || n != Unknown {
			t.Fatalf("items %v of %d", items, n)
		}
		// A chain that loops: bounded.
		b := m.Alloc(24)
		binary.LittleEndian.PutUint64(b, clsCNode)
		binary.LittleEndian.PutUint64(b[16:], Addr(b))
		if items, n := walked(t, capture(owner(&m, clsTable, heads(Addr(b)), 0))); len(items) != int(limits.MaxElems) || n != Unknown {
			t.Fatalf("loop: %v of %d", items, n)
		}
		if items, n := walked(t, capture(owner(&m, clsTable, heads(0, 0), 0))); len(items) != 0 || n != 0 {
			t.Fatalf("empty: %v of %d", items, n)
		}
	})
}

// BenchmarkWalks: what the hook spends on a walked collection of
// MaxElems elements (a tree, hash chains) against an array of as many,
// Capture's own cost (cgo, a plan and a buffer allocated) included.
func BenchmarkWalks(b *testing.B) {
	var m Mem
	defer m.Free()
	ref := uint8(values.KindRef)
	// A balanced tree of 7 and chains of 7 nodes: 4 (MaxElems) shown.
	leaf := func(v int32) uint64 { return tnode(&m, clsTNode, v, 0, 0) }
	root := tnode(&m, clsTNode, 4, tnode(&m, clsTNode, 2, leaf(1), leaf(3)), tnode(&m, clsTNode, 6, leaf(5), leaf(7)))
	tree := owner(&m, clsTree, root, 7)
	heads := m.Alloc(16 + 8*7)
	binary.LittleEndian.PutUint64(heads, clsHeads)
	binary.LittleEndian.PutUint32(heads[8:], 7)
	for i := 0; i < 7; i++ {
		n := m.Alloc(24)
		binary.LittleEndian.PutUint64(n, clsCNode)
		binary.LittleEndian.PutUint32(n[8:], uint32(i))
		binary.LittleEndian.PutUint64(heads[16+8*i:], Addr(n))
	}
	table := owner(&m, clsTable, Addr(heads), 0)
	arr := m.Alloc(16 + 4*7)
	binary.LittleEndian.PutUint64(arr, clsInts)
	binary.LittleEndian.PutUint32(arr[8:], 7)
	for _, c := range []struct {
		name string
		obj  uint64
	}{{"array", Addr(arr)}, {"tree", tree}, {"chains", table}} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				Capture([]uint8{ref}, []uint64{c.obj}, 4096)
			}
		})
	}
}

// TestTerseNotRead: a framework object with no rendering of its own, a
// field of an object shown field by field, is left unread (a depth marker
// with its class), as package values shows it as its type only; nowhere
// else.
func TestTerseNotRead(t *testing.T) {
	var m Mem
	defer m.Free()
	// path follows F from the captured value and returns the shapes met.
	path := func(v values.Value) []string {
		var out []string
		for {
			out = append(out, map[values.Shape]string{values.Object: "Object", values.Null: "Null", values.DepthLimit: "DepthLimit"}[v.Shape])
			if v.Shape != values.Object {
				return out
			}
			if v.Fields[1].Int() == 0 {
				t.Errorf("V not read at %d", len(out))
			}
			v = v.Fields[0]
		}
	}
	arr := m.Alloc(16 + 8)
	binary.LittleEndian.PutUint64(arr, clsHeads)
	binary.LittleEndian.PutUint32(arr[8:], 1)
	binary.LittleEndian.PutUint64(arr[16:], owner(&m, clsFw, owner(&m, clsFw, 0, 3), 2))
	tests := []struct {
		name string
		arg  uint64
		want string
	}{
		{"framework chain: the second level unread", owner(&m, clsFw, owner(&m, clsFw, owner(&m, clsFw, 0, 3), 2), 1), "Object DepthLimit"},
		{"under an app's object", owner(&m, clsApp, owner(&m, clsFw, owner(&m, clsFw, 0, 3), 2), 1), "Object DepthLimit"},
		{"under an app's objects", owner(&m, clsApp, owner(&m, clsApp, owner(&m, clsFw, 0, 3), 2), 1), "Object Object DepthLimit"},
		{"app's objects are read", owner(&m, clsApp, owner(&m, clsApp, owner(&m, clsApp, 0, 3), 2), 1), "Object Object Object Null"},
		{"a field of a rendered object is read", owner(&m, clsApp, owner(&m, clsShown, owner(&m, clsFw, 0, 3), 2), 1), "Object Object Object Null"},
	}
	for _, tt := range tests {
		v := decodeAll(t, Capture([]uint8{uint8(values.KindRef)}, []uint64{tt.arg}, 4096))[0]
		got := strings.Join(path(v), " ")
		if got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
	// An array's elements are not fields: read.
	v := decodeAll(t, Capture([]uint8{uint8(values.KindRef)}, []uint64{owner(&m, clsApp, Addr(arr), 1)}, 4096))[0]
	if e := v.Fields[0].Elems; len(e) != 1 || e[0].Shape != values.Object || e[0].Fields[0].Shape != values.DepthLimit {
		t.Errorf("array element: %+v", v.Fields[0])
	}
	// The unread object's class is kept: values shows its name.
	v = decodeAll(t, Capture([]uint8{uint8(values.KindRef)}, []uint64{owner(&m, clsFw, owner(&m, clsFw, owner(&m, clsFw, 0, 3), 2), 1)}, 4096))[0]
	if c := v.Fields[0]; c.Shape != values.DepthLimit || c.Class != clsFw {
		t.Errorf("unread object's class %#x, want %#x", c.Class, clsFw)
	}
}
