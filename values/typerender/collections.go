package typerender

import (
	"strconv"
	"strings"
	"sync"

	"github.com/clrotel/clrotel/values"
	"go.opentelemetry.io/otel/attribute"
)

// Bound says that a collection uses its array field Array only up to the
// count in its Int32 field Count: the value writer copies no element past
// it (List<T>'s unused capacity, a Dictionary's never-used entries).
type Bound struct {
	Array, Count string
	// Text marks characters (a StringBuilder chunk): always copied, where
	// a collection's elements nested deep (or in `this`) are not, as they
	// render as the count there.
	Text bool
	// Walk, when set, says that Array holds not an array but nodes the
	// value writer walks (at most CLROTEL_MAX_ELEMENTS of them, in order):
	// a binary tree's root, or an array of hash chains. Count may then be
	// "" (the owner keeps no count: the root's subtree count is used, see
	// Links).
	Walk Walk
}

// Walk is how a collection's nodes are walked.
type Walk uint8

const (
	WalkNone   Walk = iota
	WalkTree        // a binary tree's root, walked in order (left, node, right)
	WalkChains      // an array of hash chains' heads, each chain followed
	// WalkInner: Array is an object that is the collection's own inner
	// part (SortedDictionary's tree, _set; ConcurrentDictionary's _tables):
	// it counts as no nesting level, so that the values show as deep as a
	// Dictionary's, and its count is read where the collection's would be.
	WalkInner
)

// bounds lists, per class (generic arguments left out, nested classes by
// their full path), the candidate pairs; the first whose fields the
// runtime's layout has is used. They differ between runtimes: HashSet<T>
// kept _slots up to _lastIndex on .NET Core 3.1 and keeps _entries up to
// _count since .NET 5.
var bounds = map[string][]Bound{
	"System.Collections.Generic.List":       {{Array: "_items", Count: "_size"}},
	"System.Collections.Generic.Dictionary": {{Array: "_entries", Count: "_count"}},
	"System.Collections.Generic.HashSet":    {{Array: "_entries", Count: "_count"}, {Array: "_slots", Count: "_lastIndex"}},
	"System.Collections.Generic.Stack":      {{Array: "_array", Count: "_size"}},
	"System.Text.StringBuilder":             {{Array: "m_ChunkChars", Count: "m_ChunkLength", Text: true}},
	// Red-black trees (SortedDictionary<K, V> keeps a TreeSet of its
	// pairs) and ImmutableList<T>'s AVL tree, which counts in its nodes.
	"System.Collections.Generic.SortedSet":        {{Array: "root", Count: "count", Walk: WalkTree}, {Array: "_root", Count: "_count", Walk: WalkTree}},
	"System.Collections.Generic.TreeSet":          {{Array: "root", Count: "count", Walk: WalkTree}, {Array: "_root", Count: "_count", Walk: WalkTree}},
	"System.Collections.Immutable.ImmutableList":  {{Array: "_root", Walk: WalkTree}},
	"System.Collections.Generic.SortedDictionary": {{Array: "_set", Walk: WalkInner}},
	// Its Tables (buckets, locks and counts per lock) is its inner part too.
	"System.Collections.Concurrent.ConcurrentDictionary": {{Array: "_tables", Walk: WalkInner}, {Array: "m_tables", Walk: WalkInner}},
	// Node[] on 3.1, VolatileNode[] (a struct holding the Node) on .NET 8.
	"System.Collections.Concurrent.ConcurrentDictionary.Tables": {{Array: "_buckets", Walk: WalkChains}, {Array: "m_buckets", Walk: WalkChains}},
}

// Bounds returns the bounded array fields of class (its full name, as
// values.ClassInfo has it) given the names of its instance fields, or nil.
func Bounds(class string, fieldNames []string) []Bound {
	has := func(n string) bool {
		for _, f := range fieldNames {
			if f == n {
				return true
			}
		}
		return false
	}
	for _, b := range bounds[stripArgs(class)] {
		if has(b.Array) && (has(b.Count) || b.Walk != WalkNone && b.Count == "") {
			return []Bound{b}
		}
	}
	return nil
}

// Links says which fields of a walked collection's node class link to
// other nodes: a tree's Left and Right, a chain's Next (in Left); Count, if
// set, is an Int32 subtree count (a node counting 0 is an empty sentinel).
type Links struct {
	Left, Right, Count string
}

// links lists the node classes walked, by their fields' display names (an
// auto-property's backing field by the property's name).
var links = map[string][]Links{
	"System.Collections.Generic.SortedSet.Node":               {{Left: "Left", Right: "Right"}},
	"System.Collections.Immutable.ImmutableList.Node":         {{Left: "_left", Right: "_right", Count: "_count"}},
	"System.Collections.Concurrent.ConcurrentDictionary.Node": {{Left: "_next"}, {Left: "m_next"}},
}

// NodeLinks returns how class's nodes link, given its fields' display
// names, or false when it is not a node class walked (or its fields are
// not the expected ones: the collection then renders generically).
func NodeLinks(class string, fieldNames []string) (Links, bool) {
	has := func(n string) bool {
		for _, f := range fieldNames {
			if f == n {
				return true
			}
		}
		return n == ""
	}
	for _, l := range links[stripArgs(class)] {
		if has(l.Left) && has(l.Right) && has(l.Count) {
			return l, true
		}
	}
	return Links{}, false
}

// stripArgs is a class name without its generic arguments, nested classes
// kept: System.Collections.Generic.SortedSet<Int32>.Node ->
// System.Collections.Generic.SortedSet.Node.
func stripArgs(name string) string {
	if strings.IndexByte(name, '<') < 0 {
		return name
	}
	var b strings.Builder
	depth := 0
	for _, r := range name {
		switch {
		case r == '<':
			depth++
		case r == '>':
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// list is what a collection renderer found: the elements to show, in
// order, the real count, and whether elements past those shown exist.
type list struct {
	elems []values.Value
	count int64
	more  bool
}

// render writes a collection: [1, 2, 3]; past what was captured, "…" and
// the count: [1, 2, …](1000). Nested where collections show compactly
// (inside `this`), only the count: [3].
//
// A count below 0 is not known (a walk cut short with no count kept): no
// ".count" then, and "…" closes the list.
func (l list) render(c values.Context, open, close string, item func(values.Value) string) values.Rendering {
	if l.count < 0 {
		l.more = true
	}
	countText := strconv.FormatInt(l.count, 10)
	subs := []values.Sub{sub(".count", attribute.Int64Value(l.count))}
	if l.count < 0 {
		countText, subs = "?", nil
	}
	if c.Nested() && c.Depth() > 0 {
		return values.Rendering{Text: "[" + countText + "]", Subs: subs}
	}
	var b strings.Builder
	b.WriteString(open)
	for i, e := range l.elems {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(item(e))
	}
	more := l.more || int64(len(l.elems)) < l.count
	if more {
		if len(l.elems) > 0 {
			b.WriteString(", ")
		}
		b.WriteString(values.TextMore)
	}
	b.WriteString(close)
	if more && l.count >= 0 {
		b.WriteString("(" + countText + ")")
	}
	return values.Rendering{Text: b.String(), Subs: subs}
}

// array returns an array field's captured elements (false when it was not
// captured as an array).
func array(f fields, names ...string) (values.Value, bool) {
	a, ok := f.get(names...)
	if !ok || a.Shape != values.Array || len(a.Dims) != 1 {
		return values.Value{}, false
	}
	return a, true
}

// elems are the captured elements of a, without a trailing cut marker.
func elems(a values.Value) ([]values.Value, bool) {
	e := a.Elems
	if n := len(e); n > 0 && e[n-1].Shape == values.Truncated {
		return e[:n-1], true
	}
	return e, false
}

// renderList: List<T> as its first _size elements.
func renderList(f fields, c values.Context) (values.Rendering, bool) {
	size, ok := f.prim("_size")
	if !ok || size < 0 {
		return values.Rendering{}, false
	}
	l := list{count: size}
	if items, ok := array(f, "_items"); ok {
		e, cut := elems(items)
		l.elems, l.more = e[:min(int64(len(e)), size)], cut
	} else {
		l.more = size > 0
	}
	return l.render(c, "[", "]", c.Text), true
}

// renderStack: Stack<T> top first. When not every element was captured,
// those shown are the bottom ones: "…" comes first then.
func renderStack(f fields, c values.Context) (values.Rendering, bool) {
	size, ok := f.prim("_size")
	if !ok || size < 0 {
		return values.Rendering{}, false
	}
	arr, ok := array(f, "_array")
	var e []values.Value
	if ok {
		e, _ = elems(arr)
		e = e[:min(int64(len(e)), size)]
	}
	rev := make([]values.Value, len(e))
	for i, v := range e {
		rev[len(e)-1-i] = v
	}
	l := list{elems: rev, count: size}
	r := l.render(c, "[", "]", c.Text)
	if int64(len(e)) < size && !(c.Nested() && c.Depth() > 0) {
		// The top is what is missing: put the marker at the front.
		var b strings.Builder
		b.WriteString("[" + values.TextMore)
		for _, v := range rev {
			b.WriteString(", " + c.Text(v))
		}
		b.WriteString("](" + strconv.FormatInt(size, 10) + ")")
		r.Text = b.String()
	}
	return r, true
}

// renderQueue: Queue<T> from _head, wrapping around its array; elements
// past those captured end the list with "…".
func renderQueue(f fields, c values.Context) (values.Rendering, bool) {
	size, ok1 := f.prim("_size")
	head, ok2 := f.prim("_head")
	arr, ok3 := array(f, "_array")
	if !ok1 || !ok2 || size < 0 || head < 0 {
		return values.Rendering{}, false
	}
	l := list{count: size}
	if ok3 {
		e, _ := elems(arr)
		n := int64(arr.Dims[0])
		for i := int64(0); i < size && n > 0; i++ {
			j := (head + i) % n
			if j >= int64(len(e)) {
				break
			}
			l.elems = append(l.elems, e[j])
		}
	}
	return l.render(c, "[", "]", c.Text), true
}

// valuePool keeps the scratch slices hashed collects entries in: a hash
// table's entries are rendered at once, and their copies then dropped.
var valuePool = sync.Pool{New: func() any { return new(valueBuf) }}

type valueBuf struct{ s []values.Value }

func getBuf() *valueBuf { return valuePool.Get().(*valueBuf) }

// putBuf gives b back to the pool, emptied.
func putBuf(b *valueBuf) {
	clear(b.s[:cap(b.s)]) // what it held may be collected
	b.s = b.s[:0]
	valuePool.Put(b)
}

// entryLayout is where a hash table's entry class keeps the fields entry
// reads (-1: it has none), found once per class rather than per entry.
type entryLayout struct {
	class                uint64
	known                bool
	next, hash, key, val int
}

func newEntryLayout(c values.Context, class uint64, keyNames, valNames []string) entryLayout {
	l := entryLayout{class: class, next: -1, hash: -1, key: -1, val: -1}
	ci, ok := c.Class(class)
	if !ok {
		return l
	}
	f := fields{ci: ci}
	l.known = true
	l.next, l.hash, l.key = f.index("next", "Next", "_next"), f.index("hashCode", "HashCode", "_hashCode"), f.index(keyNames...)
	if valNames != nil {
		l.val = f.index(valNames...)
	}
	return l
}

// entry reads a hash table entry v (a Struct of l's class): its key (or
// value, for a set), its value, and whether it is live. Removed entries
// have next <= -2 on .NET Core 3.0 and later (the free list is encoded
// below -1); on 3.1's HashSet<T> and older tables a removed entry's hash
// code is -1, which a live entry's (a non-negative Int32 there) never is.
func entry(l entryLayout, v values.Value, hasVal bool) (k, val values.Value, live, ok bool) {
	if !l.known {
		return k, val, false, false
	}
	next, ok := fieldAt(v, l.next)
	if !ok || next.Shape != values.Prim {
		return k, val, false, false
	}
	live = next.Int() >= -1
	if h, ok := fieldAt(v, l.hash); ok && h.Shape == values.Prim && h.Kind == values.KindI4 && h.Int() < 0 {
		live = false
	}
	if k, ok = fieldAt(v, l.key); !ok {
		return k, val, false, false
	}
	if hasVal {
		if val, ok = fieldAt(v, l.val); !ok {
			return k, val, false, false
		}
	}
	return k, val, live, true
}

// hashed collects the live entries of a hash table's entry array, bounded
// by the captured elements.
// ks and vs are appended to kb's and vb's slices (vb: nil when valNames
// is), which hold them until the caller gives them back (putBuf).
func hashed(c values.Context, arr values.Value, used int64, keyNames, valNames []string, kb, vb *valueBuf) (ks, vs []values.Value, more, ok bool) {
	e, cut := elems(arr)
	e = e[:min(int64(len(e)), used)]
	defer func() {
		if cap(ks) > 0 {
			kb.s = ks[:0]
		}
		if vb != nil && cap(vs) > 0 {
			vb.s = vs[:0]
		}
	}()
	ks = kb.s[:0]
	if vb != nil {
		vs = vb.s[:0]
	}
	var l entryLayout
	for i := range e {
		x := &e[i]
		if x.Shape != values.Struct {
			// Not read (the depth limit, no plan yet): the count still shows.
			return ks, vs, true, true
		}
		if i == 0 || x.Class != l.class {
			l = newEntryLayout(c, x.Class, keyNames, valNames)
		}
		k, v, live, ok := entry(l, *x, valNames != nil)
		if !ok {
			return nil, nil, false, false
		}
		if live {
			ks, vs = append(ks, k), append(vs, v)
		}
	}
	return ks, vs, cut || int64(len(e)) < used, true
}

// renderDictionary: Dictionary<K, V> as {key: value} over its live
// entries; the count is _count less _freeCount.
func renderDictionary(f fields, c values.Context) (values.Rendering, bool) {
	used, ok1 := f.prim("_count", "count")
	free, ok2 := f.prim("_freeCount", "freeCount")
	if !ok1 || !ok2 || used < 0 || free < 0 || free > used {
		return values.Rendering{}, false
	}
	l := list{count: used - free}
	var ks, vs []values.Value
	if arr, ok := array(f, "_entries", "entries"); ok {
		var good bool
		kb, vb := getBuf(), getBuf()
		defer putBuf(kb)
		defer putBuf(vb)
		if ks, vs, l.more, good = hashed(c, arr, used, []string{"key", "Key"}, []string{"value", "Value"}, kb, vb); !good {
			return values.Rendering{}, false
		}
	} else {
		l.more = used > free
	}
	l.elems = ks
	i := 0
	return l.render(c, "{", "}", func(k values.Value) string {
		v := vs[i]
		i++
		if c.SensitiveKey(k) {
			return c.Text(k) + ": " + values.TextRedacted
		}
		return c.Text(k) + ": " + c.Text(v)
	}), true
}

// renderHashSet: HashSet<T> as its live elements. .NET 5+ keeps _entries
// up to _count with _freeCount removed; 3.1 kept _slots up to _lastIndex
// with _count live.
func renderHashSet(f fields, c values.Context) (values.Rendering, bool) {
	var arr values.Value
	var used, count int64
	if a, ok := array(f, "_entries"); ok {
		n, ok1 := f.prim("_count")
		free, ok2 := f.prim("_freeCount")
		if !ok1 || !ok2 {
			return values.Rendering{}, false
		}
		arr, used, count = a, n, n-free
	} else if a, ok := array(f, "_slots"); ok {
		last, ok1 := f.prim("_lastIndex")
		n, ok2 := f.prim("_count")
		if !ok1 || !ok2 {
			return values.Rendering{}, false
		}
		arr, used, count = a, last, n
	} else {
		n, ok := f.prim("_count")
		if !ok {
			return values.Rendering{}, false
		}
		return list{count: n, more: n > 0}.render(c, "{", "}", c.Text), true
	}
	kb := getBuf()
	defer putBuf(kb)
	ks, _, more, ok := hashed(c, arr, used, []string{"value", "Value"}, nil, kb, nil)
	if !ok || count < 0 {
		return values.Rendering{}, false
	}
	return list{elems: ks, count: count, more: more}.render(c, "{", "}", c.Text), true
}

// renderReadOnlyCollection: the list it wraps.
func renderReadOnlyCollection(f fields, _ values.Context) (values.Rendering, bool) {
	l, ok := f.get("list", "_list")
	if !ok {
		return values.Rendering{}, false
	}
	return values.Rendering{As: &l}, true
}

// renderArraySegment: the _count elements from _offset.
func renderArraySegment(f fields, c values.Context) (values.Rendering, bool) {
	off, ok1 := f.prim("_offset")
	n, ok2 := f.prim("_count")
	if !ok1 || !ok2 || off < 0 || n < 0 {
		return values.Rendering{}, false
	}
	l := list{count: n}
	if arr, ok := array(f, "_array"); ok {
		e, _ := elems(arr)
		for i := off; i < off+n && i < int64(len(e)); i++ {
			l.elems = append(l.elems, e[i])
		}
	}
	return l.render(c, "[", "]", c.Text), true
}

// renderImmutableArray: ImmutableArray<T> as the elements of the array it
// wraps; a default (uninitialized) one as "default".
func renderImmutableArray(f fields, c values.Context) (values.Rendering, bool) {
	a, ok := f.get("array")
	if !ok {
		return values.Rendering{}, false
	}
	if a.Shape == values.Null {
		return values.Rendering{Text: "default"}, true
	}
	if a.Shape != values.Array || len(a.Dims) != 1 {
		return values.Rendering{}, false
	}
	e, cut := elems(a)
	return list{elems: e, count: int64(a.Dims[0]), more: cut}.render(c, "[", "]", c.Text), true
}

// unknownCount is a walk's dims[0] when the hook could not tell the count.
const unknownCount = 0xFFFFFFFF

// walk reads the nodes of a walked collection (a tree or hash chains the
// value writer walked: an array of node objects, links left out): each
// node's fields, in order, and whether nodes past those exist. total is
// the count the writer found (-1: not known). A value not walked (a node
// class not planned yet, the depth limit) gives no node, more set.
func walk(c values.Context, v values.Value) (nodes []fields, total int64, more, ok bool) {
	switch v.Shape {
	case values.Null:
		return nil, 0, false, true
	case values.Array:
	default:
		return nil, -1, true, true
	}
	if len(v.Dims) != 1 {
		return nil, 0, false, false
	}
	total = int64(v.Dims[0])
	if v.Dims[0] == unknownCount {
		total = -1
	}
	e, cut := elems(v)
	for _, x := range e {
		nf, ok := of(c, x)
		if !ok {
			return nodes, total, true, true
		}
		nodes = append(nodes, nf)
	}
	return nodes, total, cut || total < 0 || int64(len(nodes)) < total, true
}

// pairs renders key-value entries as {key: value}, hiding the value of a
// sensitive key.
func pairs(c values.Context, l list, vals []values.Value) values.Rendering {
	i := 0
	return l.render(c, "{", "}", func(k values.Value) string {
		v := vals[i]
		i++
		if c.SensitiveKey(k) {
			return c.Text(k) + ": " + values.TextRedacted
		}
		return c.Text(k) + ": " + c.Text(v)
	})
}

// sortedItems reads a SortedSet's (or a SortedDictionary's _set's) items
// in order, from its red-black tree (walked by the value writer).
func sortedItems(set fields, c values.Context) (l list, ok bool) {
	count, ok1 := set.prim("count", "_count")
	root, ok2 := set.get("root", "_root")
	if !ok1 || !ok2 || count < 0 {
		return l, false
	}
	nodes, _, more, ok := walk(c, root)
	if !ok {
		return l, false
	}
	l = list{count: count, more: more}
	for _, n := range nodes {
		item, ok := n.get("Item", "item")
		if !ok {
			return l, false
		}
		l.elems = append(l.elems, item)
	}
	return l, true
}

// renderSortedSet: SortedSet<T> as its elements in order, {1, 2, 3}.
func renderSortedSet(f fields, c values.Context) (values.Rendering, bool) {
	l, ok := sortedItems(f, c)
	if !ok {
		return values.Rendering{}, false
	}
	return l.render(c, "{", "}", c.Text), true
}

// renderSortedDictionary: SortedDictionary<K, V> as {key: value} in key
// order, from the tree of KeyValuePairs its _set keeps.
func renderSortedDictionary(f fields, c values.Context) (values.Rendering, bool) {
	set, ok := f.get("_set")
	if !ok {
		return values.Rendering{}, false
	}
	sf, ok := of(c, set)
	if !ok {
		if set.Shape == values.DepthLimit || set.Shape == values.NoPlan {
			return list{count: -1}.render(c, "{", "}", c.Text), true
		}
		return values.Rendering{}, false
	}
	items, ok := sortedItems(sf, c)
	if !ok {
		return values.Rendering{}, false
	}
	l := list{count: items.count, more: items.more}
	var vals []values.Value
	for _, item := range items.elems {
		kv, ok := of(c, item)
		if !ok {
			return values.Rendering{}, false
		}
		k, ok1 := kv.get("key", "Key")
		v, ok2 := kv.get("value", "Value")
		if !ok1 || !ok2 {
			return values.Rendering{}, false
		}
		l.elems, vals = append(l.elems, k), append(vals, v)
	}
	return pairs(c, l, vals), true
}

// renderImmutableList: ImmutableList<T> as a list, [1, 2, 3], from its AVL
// tree; the count is the root's.
func renderImmutableList(f fields, c values.Context) (values.Rendering, bool) {
	root, ok := f.get("_root")
	if !ok {
		return values.Rendering{}, false
	}
	nodes, total, more, ok := walk(c, root)
	if !ok {
		return values.Rendering{}, false
	}
	l := list{count: total, more: more}
	for _, n := range nodes {
		item, ok := n.get("_key")
		if !ok {
			return values.Rendering{}, false
		}
		l.elems = append(l.elems, item)
	}
	return l.render(c, "[", "]", c.Text), true
}

// renderConcurrentDictionary: {key: value} over the nodes chained from
// _tables._buckets (walked by the value writer, in bucket order: a
// ConcurrentDictionary has no other); the count is the sum of
// _tables._countPerLock.
func renderConcurrentDictionary(f fields, c values.Context) (values.Rendering, bool) {
	tables, ok := f.get("_tables", "m_tables")
	if !ok {
		return values.Rendering{}, false
	}
	tf, ok := of(c, tables)
	if !ok {
		return values.Rendering{}, false
	}
	count := int64(-1)
	if counts, ok := array(tf, "_countPerLock", "m_countPerLock"); ok {
		if e, cut := elems(counts); !cut && len(e) == int(counts.Dims[0]) {
			count = 0
			for _, x := range e {
				if x.Shape != values.Prim {
					count = -1
					break
				}
				count += x.Int()
			}
		}
	}
	buckets, ok := tf.get("_buckets", "m_buckets")
	if !ok {
		return values.Rendering{}, false
	}
	nodes, total, more, ok := walk(c, buckets)
	if !ok {
		return values.Rendering{}, false
	}
	if buckets.Shape != values.Array && buckets.Shape != values.Null {
		more = count != 0
	}
	if count < 0 {
		count = total
	}
	l := list{count: count, more: more || count > int64(len(nodes))}
	var vals []values.Value
	for _, n := range nodes {
		k, ok1 := n.get("_key", "m_key")
		v, ok2 := n.get("_value", "m_value")
		if !ok1 || !ok2 {
			return values.Rendering{}, false
		}
		l.elems, vals = append(l.elems, k), append(vals, v)
	}
	return pairs(c, l, vals), true
}
