package planning

import (
	"reflect"
	"testing"

	"github.com/clrotel/clrotel/values"
)

func TestClassPlans(t *testing.T) {
	pointPlan := &Class{ID: cidPoint, Shape: ShapeStruct, ElemSize: 8, Fields: []Value{
		{Kind: values.KindI4, Offset: 0}, {Kind: values.KindI4, Offset: 4}}}
	tests := []struct {
		name string
		cid  uint64
		// obj is the published plan; strct a value type's inline one.
		obj, strct *Class
		info       values.ClassInfo
	}{{
		name: "class: backing fields by property name, secrets redacted, own and static fields left out",
		cid:  cidItem,
		obj: &Class{ID: cidItem, Shape: ShapeObject, View: ViewPlain, Fields: []Value{
			{Kind: values.KindRef, Offset: 8}, {Kind: values.KindR8, Offset: 16}, {Kind: values.KindRef, Offset: 24, Redact: true}}},
		info: values.ClassInfo{Name: "Acme.Item", Fields: []values.Field{{Name: "Name"}, {Name: "Price"}, {Name: "Password"}}},
	}, {
		name: "derived class: the parent's fields first",
		cid:  cidSpecial,
		obj: &Class{ID: cidSpecial, Shape: ShapeObject, View: ViewPlain, Fields: []Value{
			{Kind: values.KindRef, Offset: 8}, {Kind: values.KindR8, Offset: 16}, {Kind: values.KindRef, Offset: 24, Redact: true},
			{Kind: values.KindI4, Offset: 40}}},
		info: values.ClassInfo{Name: "Acme.Special", Fields: []values.Field{{Name: "Name"}, {Name: "Price"}, {Name: "Password"}, {Name: "Extra"}}},
	}, {
		name:  "struct: inline layout and box",
		cid:   cidPoint,
		strct: pointPlan,
		obj:   &Class{ID: cidPoint, Shape: ShapeBoxed, BoxOffset: 8, Elem: pointPlan},
		info:  values.ClassInfo{Name: "Acme.Point", Fields: []values.Field{{Name: "X"}, {Name: "Y"}}},
	}, {
		name: "nested structs: inline at their offsets",
		cid:  cidLine,
		strct: &Class{ID: cidLine, Shape: ShapeStruct, ElemSize: 16, Fields: []Value{
			{Kind: values.KindStruct, Class: pointPlan}, {Kind: values.KindStruct, Offset: 8, Class: pointPlan}}},
		info: values.ClassInfo{Name: "Acme.Line", Fields: []values.Field{{Name: "A"}, {Name: "B"}}},
	}, {
		name: "generic struct instantiated: its type arguments' kinds",
		cid:  cidPairIntDouble,
		strct: &Class{ID: cidPairIntDouble, Shape: ShapeStruct, ElemSize: 16, Fields: []Value{
			{Kind: values.KindI4}, {Kind: values.KindR8, Offset: 8}}},
		info: values.ClassInfo{Name: "Acme.Pair<Int32, Double>", Fields: []values.Field{{Name: "First"}, {Name: "Second"}}},
	}, {
		name: "generic class over __Canon: a reference",
		cid:  cidHolderCanon,
		obj:  &Class{ID: cidHolderCanon, Shape: ShapeObject, View: ViewPlain, Fields: []Value{{Kind: values.KindRef, Offset: 8}}},
		info: values.ClassInfo{Name: "Acme.Holder<System.__Canon>", Fields: []values.Field{{Name: "Value"}}},
	}, {
		name: "nullable",
		cid:  cidNullableInt,
		strct: &Class{ID: cidNullableInt, Shape: ShapeStruct, ElemSize: 8, Fields: []Value{
			{Kind: values.KindBool}, {Kind: values.KindI4, Offset: 4}}},
		info: values.ClassInfo{Name: "System.Nullable<Int32>", Nullable: true, Fields: []values.Field{{Name: "hasValue"}, {Name: "value"}}},
	}, {
		name:  "primitive box",
		cid:   cidInt32,
		strct: &Class{ID: cidInt32, Shape: ShapeStruct, ElemSize: 4, Fields: []Value{{Kind: values.KindI4}}},
		info:  values.ClassInfo{Name: "Int32", Primitive: true, Fields: []values.Field{{Name: "m_value"}}},
	}, {
		name: "string",
		cid:  cidString,
		obj:  &Class{ID: cidString, Shape: ShapeString},
		info: values.ClassInfo{Name: "String"},
	}, {
		name: "list: the items array bounded by the count",
		cid:  cidList,
		obj: &Class{ID: cidList, Shape: ShapeObject, Fields: []Value{
			{Kind: values.KindRef, Offset: 8, Bounded: BoundCollection, BoundOffset: 16}, {Kind: values.KindI4, Offset: 16}, {Kind: values.KindI4, Offset: 20}}},
		info: values.ClassInfo{Name: "System.Collections.Generic.List<Int32>", Fields: []values.Field{{Name: "_items"}, {Name: "_size"}, {Name: "_version"}}},
	}, {
		name: "array of primitives",
		cid:  cidIntArray,
		obj:  &Class{ID: cidIntArray, Shape: ShapeArray, ElemKind: values.KindI4, ElemSize: 4, Rank: 1},
		info: values.ClassInfo{Name: "Int32[]", Elem: "Int32"},
	}, {
		name: "array of references",
		cid:  cidStringArray,
		obj:  &Class{ID: cidStringArray, Shape: ShapeArray, ElemKind: values.KindRef, ElemSize: 8, Rank: 1},
		info: values.ClassInfo{Name: "String[]", Elem: "String"},
	}, {
		name: "array of structs: their plan and size",
		cid:  cidPointArray,
		obj:  &Class{ID: cidPointArray, Shape: ShapeArray, ElemKind: values.KindStruct, ElemSize: 8, Rank: 1, Elem: pointPlan},
		info: values.ClassInfo{Name: "Acme.Point[]", Elem: "Acme.Point"},
	}, {
		name: "multi-dimensional array, element class unknown: named by element type",
		cid:  cidIntMatrix,
		obj:  &Class{ID: cidIntMatrix, Shape: ShapeArray, ElemKind: values.KindI4, ElemSize: 4, Rank: 2},
		info: values.ClassInfo{Name: "Int32[,]", Elem: "Int32"},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pl, sink, _ := newTest(newShop(t), Options{})
			if err := pl.Plan(tc.cid); err != nil {
				t.Fatal(err)
			}
			e := pl.classes[tc.cid]
			if tc.obj == nil && tc.strct != nil {
				tc.obj = &Class{ID: tc.cid, Shape: ShapeBoxed, BoxOffset: 8, Elem: tc.strct}
			}
			if !reflect.DeepEqual(e.obj, tc.obj) {
				t.Errorf("object plan\n got %+v\nwant %+v", e.obj, tc.obj)
			}
			if !reflect.DeepEqual(e.strct, tc.strct) {
				t.Errorf("struct plan\n got %+v\nwant %+v", e.strct, tc.strct)
			}
			if tc.obj != nil && sink.published[tc.cid] != e.obj {
				t.Errorf("object plan not published")
			}
			info, ok := pl.Class(tc.cid)
			if !ok || !reflect.DeepEqual(info, tc.info) {
				t.Errorf("info\n got %+v\nwant %+v", info, tc.info)
			}
		})
	}
}

func TestEnums(t *testing.T) {
	tests := []struct {
		cid  uint64
		kind values.Kind
		enum *values.Enum
	}{
		{cidColor, values.KindI4, &values.Enum{Name: "Acme.Color", Values: map[uint64]string{0: "Red", 1: "Green", 2: "Blue"}}},
		{cidPerm, values.KindU1, &values.Enum{Name: "Acme.Perm", Flags: true, Values: map[uint64]string{1: "Read", 2: "Write"}}},
	}
	for _, tc := range tests {
		pl, _, _ := newTest(newShop(t), Options{})
		pl.mu.Lock()
		s := pl.slotOf(tc.cid, 0)
		pl.mu.Unlock()
		if s.kind != tc.kind || !reflect.DeepEqual(s.enum, tc.enum) {
			t.Errorf("%d: slot %v %+v, want %v %+v", tc.cid, s.kind, s.enum, tc.kind, tc.enum)
		}
	}
}

// A class is planned once, whoever asks; a plan the sink cannot take is
// said once, and the class still renders by its fields.
func TestClassPlannedOnce(t *testing.T) {
	f := newShop(t)
	pl, sink, log := newTest(f, Options{})
	sink.full = true
	for range 3 {
		if err := pl.Plan(cidItem); err != nil {
			t.Fatal(err)
		}
	}
	if len(log.warnings) != 1 || !log.has("class plan table full: values of Acme.Item are not read") {
		t.Errorf("warnings %q", log.warnings)
	}
	if !pl.Planned(cidItem) || pl.Len() != 1 {
		t.Errorf("planned %v, %d classes", pl.Planned(cidItem), pl.Len())
	}
}

// Bounded degradation: what cannot be planned is read as nothing.
func TestClassRefusals(t *testing.T) {
	f := newShop(t)
	// Value types nested deeper than maxPlanDepth: the innermost are not read.
	const deep = 200
	for i := 0; i <= maxPlanDepth+2; i++ {
		v := f.valueType(uint64(deep+i), uint32(0x02000100+i), "Acme.Deep", 8)
		if i > 0 {
			f.field(v, uint32(0x04000200+i), "Inner", sig(append([]byte{0x11}, compressed(uint32(0x100+i-1)<<2)...)...), 0)
		} else {
			f.field(v, 0x04000200, "Leaf", sig(0x08), 0)
		}
	}
	// A field whose signature does not parse, and one of a class that
	// does not resolve.
	bad := f.add(300, app, 0x02000030, "Acme.Bad", "Acme.Bad", cidObject)
	f.field(bad, 0x04000300, "Broken", []byte{0x06}, 8)
	f.field(bad, 0x04000301, "Missing", sig(0x11, tdef(0x02000031)), 16)
	f.field(bad, 0x04000302, "Ok", sig(0x08), 24)

	pl, _, _ := newTest(f, Options{})
	if err := pl.Plan(deep + maxPlanDepth + 2); err != nil {
		t.Fatal(err)
	}
	p := pl.classes[deep+maxPlanDepth+2].strct
	n := 0
	for p != nil && len(p.Fields) == 1 && p.Fields[0].Kind == values.KindStruct {
		p, n = p.Fields[0].Class, n+1
	}
	if n != maxPlanDepth || p == nil || p.Fields[0].Kind != values.KindSkip {
		t.Errorf("nested %d structs deep, then %+v", n, p)
	}

	if err := pl.Plan(300); err != nil {
		t.Fatal(err)
	}
	want := []Value{{Offset: 8}, {Offset: 16}, {Kind: values.KindI4, Offset: 24}}
	if got := pl.classes[300].obj.Fields; !reflect.DeepEqual(got, want) {
		t.Errorf("fields %+v, want %+v", got, want)
	}

	if err := pl.Plan(999); err == nil || pl.Planned(999) {
		t.Errorf("an unknown class: %v", err)
	}
	if _, ok := pl.Class(999); ok {
		t.Errorf("an unknown class renders")
	}
}

// From the planner's own thread, nothing that may load a type is asked:
// a generic value type field is then not read.
func TestPlanOffJITThreadLoadsNoType(t *testing.T) {
	f := newShop(t)
	c := f.add(400, app, 0x02000040, "Acme.Order", "Acme.Order", cidObject)
	f.field(c, 0x04000400, "Maybe", sig(0x15, 0x11, tref(refNullable), 1, 0x08), 8)
	f.field(c, 0x04000401, "Item", sig(0x12, tdef(tdItem)), 16)
	f.field(c, 0x04000402, "Points", sig(0x1d, 0x11, tdef(tdPoint)), 24)
	pl, _, _ := newTest(f, Options{})
	if err := pl.Plan(400); err != nil {
		t.Fatal(err)
	}
	if len(f.loads) != 0 {
		t.Errorf("asked %q", f.loads)
	}
	want := []Value{{Offset: 8}, {Kind: values.KindRef, Offset: 16}, {Kind: values.KindRef, Offset: 24}}
	if got := pl.classes[400].obj.Fields; !reflect.DeepEqual(got, want) {
		t.Errorf("fields %+v, want %+v", got, want)
	}
	if pl.Planned(cidItem) {
		t.Errorf("a declared class was planned ahead off the JIT thread")
	}
}

func TestClassInfoUnplanned(t *testing.T) {
	f := newShop(t)
	f.types[500] = &fakeType{cid: 500, name: "Acme.Item[]"}
	pl, _, _ := newTest(f, Options{})
	if info, ok := pl.Class(500); !ok || info.Name != "Acme.Item[]" || info.Elem != "Acme.Item" {
		t.Errorf("%+v %v", info, ok)
	}
}

func TestObjectView(t *testing.T) {
	tests := []struct {
		name   string
		fields []string
		want   View
	}{
		{"Acme.Shop.Order", []string{"Id", "Lines"}, ViewPlain},
		{"System.Net.HttpListener", []string{"_state", "_prefixes"}, ViewTerse},
		{"Object", nil, ViewTerse},
		{"Microsoft.Win32.SafeHandles.SafeFileHandle", []string{"handle"}, ViewTerse},
		{"System.Uri", []string{"_string", "_flags"}, ViewRendered},
		{"System.Collections.Generic.Dictionary<String, Int32>", []string{"_buckets", "_entries", "_count"}, ViewRendered},
		{"System.IO.FileNotFoundException", []string{"_message"}, ViewRendered},
		{"Acme.Shop.PaymentDeclinedException", []string{"_message"}, ViewRendered},
	}
	for _, tt := range tests {
		ci := values.ClassInfo{Name: tt.name}
		for _, f := range tt.fields {
			ci.Fields = append(ci.Fields, values.Field{Name: f})
		}
		if got := objectView(ci); got != tt.want {
			t.Errorf("objectView(%s) = %d, want %d", tt.name, got, tt.want)
		}
	}
}
