package typerender

import (
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/clrotel/clrotel/values"
)

// fakeCtx renders nested values simply: primitives as numbers, strings
// quoted.
type fakeCtx struct {
	classes map[uint64]values.ClassInfo
	depth   int
	nested  bool
	methods map[uint64]string
}

func (c fakeCtx) Text(v values.Value) string {
	switch v.Shape {
	case values.Prim:
		return strconv.FormatInt(v.Int(), 10)
	case values.String:
		return strconv.Quote(values.StringText(v))
	case values.Null:
		return "null"
	}
	return "?"
}
func (c fakeCtx) Class(id uint64) (values.ClassInfo, bool) { ci, ok := c.classes[id]; return ci, ok }
func (c fakeCtx) Nested() bool                             { return c.nested }
func (c fakeCtx) Depth() int                               { return c.depth }
func (c fakeCtx) Method(code uint64) (string, bool)        { m, ok := c.methods[code]; return m, ok }
func (c fakeCtx) SensitiveKey(k values.Value) bool {
	return k.Shape == values.String && values.StringText(k) == "password"
}

func prim(k values.Kind, bits uint64) values.Value {
	return values.Value{Shape: values.Prim, Kind: k, Bits: bits}
}
func i4(v int32) values.Value { return prim(values.KindI4, uint64(uint32(v))) }
func str(s string) values.Value {
	u := make([]uint16, len(s))
	for i := range s {
		u[i] = uint16(s[i])
	}
	return values.Value{Shape: values.String, Str: u, StrLen: uint32(len(u))}
}

func class(name string, fields ...string) values.ClassInfo {
	ci := values.ClassInfo{Name: name}
	for _, f := range fields {
		ci.Fields = append(ci.Fields, values.Field{Name: f})
	}
	return ci
}

func obj(fields ...values.Value) values.Value {
	return values.Value{Shape: values.Object, Fields: fields}
}

func TestScalars(t *testing.T) {
	entryCls := uint64(5)
	ctx := fakeCtx{classes: map[uint64]values.ClassInfo{
		entryCls: class("Entry", "hashCode", "next", "key", "value"),
	}}
	entry := func(next int32, k string, v int32) values.Value {
		return values.Value{Shape: values.Struct, Class: entryCls, Fields: []values.Value{i4(1), i4(next), str(k), i4(v)}}
	}
	arr := func(n uint32, e ...values.Value) values.Value {
		return values.Value{Shape: values.Array, Dims: []uint32{n}, Elems: e}
	}
	tests := []struct {
		name string
		ci   values.ClassInfo
		v    values.Value
		want string
	}{
		// 99.95: 9995 scaled by 2, .NET Core 3.1 layout then .NET 8's.
		{"decimal 3.1", class("System.Decimal", "flags", "hi", "lo", "mid"), obj(i4(2<<16), i4(0), i4(9995), i4(0)), "99.95"},
		{"decimal 8", class("System.Decimal", "_flags", "_hi32", "_lo64"),
			obj(i4(-0x80000000|3<<16), prim(values.KindU4, 0), prim(values.KindU8, 1)), "-0.001"},
		{"decimal big", class("System.Decimal", "_flags", "_hi32", "_lo64"),
			obj(i4(0), prim(values.KindU4, 1), prim(values.KindU8, 0)), "18446744073709551616"},
		{"datetime utc", class("System.DateTime", "_dateData"), obj(prim(values.KindU8, 1<<62|638679492000000000)), "2024-11-23T09:00:00.0000000Z"},
		{"timespan", class("System.TimeSpan", "_ticks"), obj(prim(values.KindI8, 15*60*10_000_000+5)), "00:15:00.0000005"},
		{"guid", class("System.Guid", "_a", "_b", "_c", "_d", "_e", "_f", "_g", "_h", "_i", "_j", "_k"),
			obj(i4(0x3f2504e0), prim(values.KindI2, 0x4f89), prim(values.KindI2, 0x11d3), prim(values.KindU1, 0x9a), prim(values.KindU1, 0x0c),
				prim(values.KindU1, 3), prim(values.KindU1, 5), prim(values.KindU1, 0xe8), prim(values.KindU1, 0x2c), prim(values.KindU1, 0x33), prim(values.KindU1, 1)),
			"3f2504e0-4f89-11d3-9a0c-0305e82c3301"},
		{"version", class("System.Version", "_Major", "_Minor", "_Build", "_Revision"), obj(i4(1), i4(2), i4(-1), i4(-1)), "1.2"},
		{"list", class("System.Collections.Generic.List<Int32>", "_items", "_size", "_version"),
			obj(arr(4, i4(1), i4(2)), i4(2), i4(9)), "[1, 2]"},
		{"list cut", class("System.Collections.Generic.List<Int32>", "_items", "_size", "_version"),
			obj(arr(40, i4(1), i4(2)), i4(30), i4(9)), "[1, 2, …](30)"},
		{"dictionary after removals", class("System.Collections.Generic.Dictionary<String, Int32>", "_buckets", "_entries", "_count", "_freeList", "_freeCount"),
			obj(values.Value{Shape: values.Null}, arr(7, entry(-1, "a", 1), entry(-3, "", 0), entry(0, "c", 3)), i4(3), i4(1), i4(1)),
			`{"a": 1, "c": 3}`},
		{"dictionary sensitive", class("System.Collections.Generic.Dictionary<String, Int32>", "_entries", "_count", "_freeCount"),
			obj(arr(3, entry(-1, "password", 1)), i4(1), i4(0)), `{"password": ***}`},
		{"tuple", class("System.ValueTuple<Int32, String>", "Item1", "Item2"), obj(i4(1), str("a")), `(1, "a")`},
		{"immutable array", class("System.Collections.Immutable.ImmutableArray<Int32>", "array"), obj(arr(2, i4(4), i4(5))), "[4, 5]"},
		{"queue wraps", class("System.Collections.Generic.Queue<Int32>", "_array", "_head", "_tail", "_size"),
			obj(arr(4, i4(3), i4(0), i4(1), i4(2)), i4(2), i4(1), i4(3)), "[1, 2, 3]"},
		{"stack cut", class("System.Collections.Generic.Stack<Int32>", "_array", "_size"),
			obj(arr(8, i4(1), i4(2)), i4(5)), "[…, 2, 1](5)"},
	}
	for _, tt := range tests {
		got, ok := New().Render(tt.ci, tt.v, ctx)
		if !ok || got.Text != tt.want {
			t.Errorf("%s: %q, %v; want %q", tt.name, got.Text, ok, tt.want)
		}
	}
}

func TestFallback(t *testing.T) {
	// A layout without the expected fields is left to the generic rendering.
	for _, ci := range []values.ClassInfo{
		class("System.Decimal", "something"),
		class("System.Collections.Generic.List<Int32>", "_storage", "_length"),
		class("Acme.Order", "Id"),
	} {
		if r, ok := New().Render(ci, obj(i4(1), i4(2)), fakeCtx{}); ok {
			t.Errorf("%s rendered as %q", ci.Name, r.Text)
		}
	}
}

func TestCompactInThis(t *testing.T) {
	ci := class("System.Collections.Generic.List<Int32>", "_items", "_size")
	r, ok := New().Render(ci, obj(values.Value{Shape: values.DepthLimit}, i4(12)), fakeCtx{depth: 1, nested: true})
	if !ok || r.Text != "[12]" {
		t.Errorf("%q %v", r.Text, ok)
	}
}

func TestBounds(t *testing.T) {
	tests := []struct {
		class  string
		fields []string
		want   []Bound
	}{
		{"System.Collections.Generic.List<Int32>", []string{"_items", "_size", "_version"}, []Bound{{Array: "_items", Count: "_size"}}},
		{"System.Collections.Generic.HashSet<String>", []string{"_buckets", "_slots", "_count", "_lastIndex"}, []Bound{{Array: "_slots", Count: "_lastIndex"}}},
		{"System.Collections.Generic.HashSet<String>", []string{"_buckets", "_entries", "_count", "_freeCount"}, []Bound{{Array: "_entries", Count: "_count"}}},
		{"System.Collections.Generic.List<Int32>", []string{"_items"}, nil},
		{"Acme.List<Int32>", []string{"_items", "_size"}, nil},
	}
	for _, tt := range tests {
		if got := Bounds(tt.class, tt.fields); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Bounds(%s, %v) = %v, want %v", tt.class, tt.fields, got, tt.want)
		}
	}
}

func TestDateTimeLocal(t *testing.T) {
	kolkata := time.FixedZone("IST", 330*60)
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	ci := class("System.DateTime", "_dateData")
	local := func(ticks uint64) values.Value { return obj(prim(values.KindU8, 2<<62|ticks)) }
	tests := []struct {
		loc  *time.Location
		v    values.Value
		want string
	}{
		{kolkata, local(638679492000000000), "2024-11-23T09:00:00.0000000+05:30"},
		// The offset is the zone's at that date: winter and summer in Paris.
		{paris, local(638679492000000000), "2024-11-23T09:00:00.0000000+01:00"},
		{paris, local(638679492000000000 - 150*864000000000), "2024-06-26T09:00:00.0000000+02:00"},
		{time.FixedZone("W", -(3*60+30)*60), local(638679492000000000), "2024-11-23T09:00:00.0000000-03:30"},
		// The Local kind's second encoding (bit 63 and 62: ambiguous DST hour).
		{kolkata, obj(prim(values.KindU8, 3<<62|638679492000000000)), "2024-11-23T09:00:00.0000000+05:30"},
	}
	for _, tt := range tests {
		got, ok := (&Renderer{Location: tt.loc}).Render(ci, tt.v, fakeCtx{})
		if !ok || got.Text != tt.want {
			t.Errorf("%v: %q, %v; want %q", tt.loc, got.Text, ok, tt.want)
		}
		if len(got.Subs) != 1 || got.Subs[0].Value.AsString() != "Local" {
			t.Errorf("%v: subs %v", tt.loc, got.Subs)
		}
	}
}

func TestDelegates(t *testing.T) {
	const svcCls = 10
	ctx := fakeCtx{
		classes: map[uint64]values.ClassInfo{svcCls: class("Acme.Service")},
		methods: map[uint64]string{0x1000: "Acme.Service.Count(Int32 extra)", 0x2000: "Acme.Pricing.Discount(Decimal d)"},
	}
	ci := class("System.Func<Int32, Int32>", "_target", "_methodBase", "_methodPtr", "_methodPtrAux", "_invocationList", "_invocationCount")
	null := values.Value{Shape: values.Null}
	ptr := func(a uint64) values.Value { return prim(values.KindI, a) }
	target := values.Value{Shape: values.Object, Class: svcCls}
	self := values.Value{Shape: values.Cycle}
	tests := []struct {
		name, want, method string
		v                  values.Value
	}{
		{"instance", "System.Func<Int32, Int32>(Acme.Service.Count(Int32 extra), target Acme.Service)", "Acme.Service.Count(Int32 extra)",
			obj(target, null, ptr(0x1000), ptr(0), null, ptr(0))},
		// A static method: the shuffle thunk in _methodPtr, the method in _methodPtrAux.
		{"static", "System.Func<Int32, Int32>(Acme.Pricing.Discount(Decimal d))", "Acme.Pricing.Discount(Decimal d)",
			obj(self, null, ptr(0x9999), ptr(0x2000), null, ptr(0))},
		// Code the context cannot name: the target's class only.
		{"unknown code", "System.Func<Int32, Int32>(target Acme.Service)", "",
			obj(target, null, ptr(0x5555), ptr(0), null, ptr(0))},
		{"unknown static", "System.Func<Int32, Int32>(static)", "",
			obj(self, null, ptr(0x5555), ptr(0x6666), null, ptr(0))},
	}
	for _, tt := range tests {
		got, ok := New().Render(ci, tt.v, ctx)
		if !ok || got.Text != tt.want {
			t.Errorf("%s: %q, %v; want %q", tt.name, got.Text, ok, tt.want)
		}
		var method string
		for _, s := range got.Subs {
			if s.Suffix == ".method" {
				method = s.Value.AsString()
			}
		}
		if method != tt.method {
			t.Errorf("%s: .method %q, want %q", tt.name, method, tt.method)
		}
	}
}

func TestWalkedCollections(t *testing.T) {
	const setNode, kvCls, kvNode, listNode, cdNode, tables, treeSet = 20, 21, 22, 23, 24, 25, 26
	ctx := fakeCtx{classes: map[uint64]values.ClassInfo{
		setNode:  class("System.Collections.Generic.SortedSet<Int32>.Node", "Item", "Left", "Right", "Color"),
		kvCls:    class("System.Collections.Generic.KeyValuePair<String, Int32>", "key", "value"),
		kvNode:   class("System.Collections.Generic.SortedSet<KeyValuePair<String, Int32>>.Node", "Item", "Left", "Right", "Color"),
		listNode: class("System.Collections.Immutable.ImmutableList<Int32>.Node", "_key", "_frozen", "_height", "_count", "_left", "_right"),
		cdNode:   class("System.Collections.Concurrent.ConcurrentDictionary<Int32, Int32>.Node", "_key", "_value", "_next", "_hashcode"),
		tables:   class("System.Collections.Concurrent.ConcurrentDictionary<Int32, Int32>.Tables", "_comparer", "_buckets", "_locks", "_countPerLock"),
		treeSet:  class("System.Collections.Generic.TreeSet<KeyValuePair<String, Int32>>", "root", "comparer", "count", "version"),
	}}
	skip := values.Value{Shape: values.Skipped}
	null := values.Value{Shape: values.Null}
	walkOf := func(cls uint64, total uint32, nodes ...values.Value) values.Value {
		for i := range nodes {
			nodes[i].Class = cls
		}
		return values.Value{Shape: values.Array, Class: cls, Dims: []uint32{total}, Elems: nodes}
	}
	setN := func(v int32) values.Value { return obj(i4(v), skip, skip, i4(0)) }
	kv := func(k string, v int32) values.Value {
		return obj(values.Value{Shape: values.Struct, Class: kvCls, Fields: []values.Value{str(k), i4(v)}}, skip, skip, i4(0))
	}
	listN := func(v int32) values.Value { return obj(i4(v), i4(1), i4(1), i4(1), skip, skip) }
	cdN := func(k, v int32) values.Value { return obj(i4(k), i4(v), skip, i4(k)) }
	ints := func(xs ...int32) values.Value {
		a := values.Value{Shape: values.Array, Dims: []uint32{uint32(len(xs))}}
		for _, x := range xs {
			a.Elems = append(a.Elems, i4(x))
		}
		return a
	}
	tree := func(v values.Value) values.Value {
		return values.Value{Shape: values.Object, Fields: []values.Value{v}}
	}
	set := class("System.Collections.Generic.SortedSet<Int32>", "root", "comparer", "count", "version")
	tests := []struct {
		name string
		ci   values.ClassInfo
		v    values.Value
		want string
	}{
		{"sorted set", set, obj(walkOf(setNode, 3, setN(1), setN(2), setN(3)), null, i4(3), i4(0)), "{1, 2, 3}"},
		{"sorted set cut", set, obj(walkOf(setNode, 30, setN(1), setN(2)), null, i4(30), i4(0)), "{1, 2, …}(30)"},
		{"sorted set empty", set, obj(null, null, i4(0), i4(0)), "{}"},
		// Nodes not planned yet: the count only.
		{"sorted set unplanned", set, obj(values.Value{Shape: values.NoPlan, Class: setNode}, null, i4(5), i4(0)), "{…}(5)"},
		{"sorted dictionary", class("System.Collections.Generic.SortedDictionary<String, Int32>", "_keys", "_values", "_set"),
			obj(null, null, treeOf(treeSet, walkOf(kvNode, 2, kv("a", 1), kv("password", 2)), 2)), `{"a": 1, "password": ***}`},
		{"immutable list", class("System.Collections.Immutable.ImmutableList<Int32>", "_root"),
			tree(walkOf(listNode, 20, listN(4), listN(5))), "[4, 5, …](20)"},
		{"immutable list unknown count", class("System.Collections.Immutable.ImmutableList<Int32>", "_root"),
			tree(walkOf(listNode, unknownCount, listN(4))), "[4, …]"},
		{"concurrent", class("System.Collections.Concurrent.ConcurrentDictionary<Int32, Int32>", "_tables", "_budget"),
			obj(values.Value{Shape: values.Object, Class: tables, Fields: []values.Value{null, walkOf(cdNode, unknownCount, cdN(1, 10), cdN(2, 20)), null, ints(1, 2)}}, i4(0)),
			"{1: 10, 2: 20, …}(3)"},
		{"concurrent complete", class("System.Collections.Concurrent.ConcurrentDictionary<Int32, Int32>", "_tables", "_budget"),
			obj(values.Value{Shape: values.Object, Class: tables, Fields: []values.Value{null, walkOf(cdNode, 2, cdN(1, 10), cdN(2, 20)), null, ints(2, 0)}}, i4(0)),
			"{1: 10, 2: 20}"},
	}
	for _, tt := range tests {
		got, ok := New().Render(tt.ci, tt.v, ctx)
		if !ok || got.Text != tt.want {
			t.Errorf("%s: %q, %v; want %q", tt.name, got.Text, ok, tt.want)
		}
	}
}

// treeOf is a TreeSet object (a SortedDictionary's _set) over root.
func treeOf(cls uint64, root values.Value, count int32) values.Value {
	return values.Value{Shape: values.Object, Class: cls, Fields: []values.Value{root, {Shape: values.Null}, i4(count), i4(0)}}
}

func TestWalkBounds(t *testing.T) {
	if got := Bounds("System.Collections.Generic.TreeSet<KeyValuePair<String, Int32>>", []string{"root", "comparer", "count", "version"}); len(got) != 1 || got[0].Walk != WalkTree || got[0].Count != "count" {
		t.Errorf("TreeSet: %+v", got)
	}
	if got := Bounds("System.Collections.Immutable.ImmutableList<Int32>", []string{"_root"}); len(got) != 1 || got[0].Walk != WalkTree || got[0].Count != "" {
		t.Errorf("ImmutableList: %+v", got)
	}
	if got := Bounds("System.Collections.Concurrent.ConcurrentDictionary<Int32, Int32>.Tables", []string{"_comparer", "_buckets", "_locks", "_countPerLock"}); len(got) != 1 || got[0].Walk != WalkChains {
		t.Errorf("Tables: %+v", got)
	}
	// The dictionary's Tables is its inner part, walked.
	if got := Bounds("System.Collections.Concurrent.ConcurrentDictionary<Int32, Int32>", []string{"_tables", "_budget"}); len(got) != 1 || got[0].Walk != WalkInner {
		t.Errorf("ConcurrentDictionary: %+v", got)
	}
	if l, ok := NodeLinks("System.Collections.Generic.SortedSet<KeyValuePair<String, Int32>>.Node", []string{"Item", "Left", "Right", "Color"}); !ok || l.Left != "Left" || l.Right != "Right" {
		t.Errorf("SortedSet node: %+v %v", l, ok)
	}
	if l, ok := NodeLinks("System.Collections.Immutable.ImmutableList<Int32>.Node", []string{"_key", "_frozen", "_height", "_count", "_left", "_right"}); !ok || l.Count != "_count" {
		t.Errorf("ImmutableList node: %+v %v", l, ok)
	}
	// A layout without the expected links: not walked.
	if _, ok := NodeLinks("System.Collections.Generic.SortedSet<Int32>.Node", []string{"Item", "Children"}); ok {
		t.Error("node without links walked")
	}
	for in, want := range map[string]string{
		"System.Collections.Generic.SortedSet<Int32>.Node":                         "System.Collections.Generic.SortedSet.Node",
		"System.Collections.Generic.Dictionary<String, List<Int32>>.KeyCollection": "System.Collections.Generic.Dictionary.KeyCollection",
		"Acme.Plain": "Acme.Plain",
	} {
		if got := stripArgs(in); got != want {
			t.Errorf("stripArgs(%s) = %s", in, got)
		}
	}
}

// TestCollectionClaim: a class Collection names renders, when it renders
// at all, with a ".count" (values.Renderer then skips its sub-attribute
// without rendering it), whatever its fields hold, negative counts too.
func TestCollectionClaim(t *testing.T) {
	arr := values.Value{Shape: values.Array, Dims: []uint32{2}, Elems: []values.Value{i4(1), i4(2)}}
	for _, tc := range []struct {
		ci     values.ClassInfo
		fields [][]values.Value
	}{
		{class("System.Collections.Generic.List<Int32>", "_items", "_size"), [][]values.Value{{arr, i4(2)}, {arr, i4(-1)}, {values.Value{Shape: values.DepthLimit}, i4(0)}}},
		{class("System.Collections.Generic.Stack<Int32>", "_array", "_size"), [][]values.Value{{arr, i4(2)}, {arr, i4(-3)}}},
		{class("System.Collections.Generic.Queue<Int32>", "_array", "_head", "_size"), [][]values.Value{{arr, i4(0), i4(2)}, {arr, i4(-1), i4(2)}}},
		{class("System.Collections.Generic.Dictionary<Int32, Int32>", "_entries", "_count", "_freeCount"), [][]values.Value{{values.Value{Shape: values.Null}, i4(3), i4(1)}, {values.Value{Shape: values.Null}, i4(1), i4(3)}, {values.Value{Shape: values.Null}, i4(-1), i4(0)}}},
	} {
		r := New()
		if !r.Collection(tc.ci) {
			t.Errorf("%s: not claimed", tc.ci.Name)
		}
		for _, fs := range tc.fields {
			for _, depth := range []int{0, 1} {
				got, ok := r.Render(tc.ci, obj(fs...), fakeCtx{depth: depth, nested: depth > 0})
				if !ok {
					continue
				}
				counted := false
				for _, s := range got.Subs {
					counted = counted || s.Suffix == ".count"
				}
				if !counted {
					t.Errorf("%s %v: rendered %q with no .count", tc.ci.Name, fs, got.Text)
				}
			}
		}
	}
	for _, name := range []string{"System.Collections.Generic.SortedSet<Int32>", "System.Decimal", "Acme.List<Int32>", "System.Collections.Generic.List"} {
		if New().Collection(values.ClassInfo{Name: name}) {
			t.Errorf("%s claimed", name)
		}
	}
}

// TestObjectRendererKeptPerClass: one Renderer decides an unnamed class's
// renderer from its first object with fields, and gives the same answer to
// every later object; a class first seen without its fields (not known
// yet) is decided again when they come.
func TestObjectRendererKeptPerClass(t *testing.T) {
	ctx := fakeCtx{classes: map[uint64]values.ClassInfo{}, methods: map[uint64]string{}}
	name := "Acme.Handler"
	delegate := class(name, "_target", "_methodBase", "_methodPtr", "_methodPtrAux", "_invocationList", "_invocationCount")
	null := values.Value{Shape: values.Null}
	v := obj(values.Value{Shape: values.Cycle}, null, prim(values.KindI, 0x5555), prim(values.KindI, 0x6666), null, prim(values.KindI, 0))
	r := New()
	steps := []struct {
		ci   values.ClassInfo
		want bool
	}{
		{values.ClassInfo{Name: name}, false}, // fields not known yet
		{delegate, true},
		{delegate, true},
		{class("Acme.Plain", "a", "b", "c", "d", "e", "f"), false},
		{class("Acme.Plain", "a", "b", "c", "d", "e", "f"), false},
	}
	for i, s := range steps {
		if _, ok := r.Render(s.ci, v, ctx); ok != s.want {
			t.Errorf("step %d (%s, %d fields): rendered %v, want %v", i, s.ci.Name, len(s.ci.Fields), ok, s.want)
		}
	}
}

func TestHasRendering(t *testing.T) {
	tests := []struct {
		name   string
		fields []string
		want   bool
	}{
		{"System.Uri", []string{"_string"}, true},
		{"System.Collections.Generic.List<Acme.Item>", []string{"_items", "_size"}, true},
		// The name selects List's renderer even where the layout would make
		// it fall back: the planner then reads every field, as for any
		// rendered class.
		{"System.Collections.Generic.List<Int32>", []string{"_storage"}, true},
		{"System.Collections.Generic.List<Int32>.Enumerator", []string{"_list", "_index"}, false},
		{"System.Net.HttpListener", []string{"_state", "_prefixes"}, false},
		{"System.Net.HttpListenerContext", []string{"_listener", "_response"}, false},
		{"Acme.Shop.PaymentDeclinedException", []string{"_message"}, true},
		{"System.Text.UTF8Encoding", []string{"_codePage"}, true},
		{"System.Func<Int32>", []string{"_target", "_methodBase", "_methodPtr", "_methodPtrAux", "_invocationList", "_invocationCount"}, true},
		{"Acme.Shop.Item", []string{"Id", "Name"}, false},
	}
	ctx := fakeCtx{classes: map[uint64]values.ClassInfo{}, methods: map[uint64]string{}}
	for _, tt := range tests {
		ci := class(tt.name, tt.fields...)
		if got := HasRendering(ci); got != tt.want {
			t.Errorf("HasRendering(%s) = %v, want %v", tt.name, got, tt.want)
		}
		if got := New().Renders(ci); got != tt.want {
			t.Errorf("Renders(%s) = %v, want %v", tt.name, got, tt.want)
		}
		if tt.want {
			continue
		}
		// A class declined is declined for any object of it: the values
		// Renderer no longer asks.
		fields := make([]values.Value, len(tt.fields))
		for i := range fields {
			fields[i] = prim(values.KindI4, uint64(i))
		}
		for _, v := range []values.Value{obj(fields...), {Shape: values.Struct, Fields: fields}} {
			if _, ok := New().Render(ci, v, ctx); ok {
				t.Errorf("%s: not chosen, but an object of it was rendered", tt.name)
			}
		}
	}
}
