package cplan

import (
	"testing"

	"github.com/clrotel/clrotel/planning"
	"github.com/clrotel/clrotel/values"
)

// Go's plan constants are values.h's: a plan means the same on both sides.
func TestConstantsMatchValuesH(t *testing.T) {
	for _, c := range constants() {
		if c.goVal != c.cVal {
			t.Errorf("%s: Go %d, values.h %d", c.name, c.goVal, c.cVal)
		}
	}
}

func TestFunctionAsCReadsIt(t *testing.T) {
	point := &planning.Class{ID: 0x5000, Shape: planning.ShapeStruct, ElemSize: 8, Fields: []planning.Value{
		{Kind: values.KindI4}, {Kind: values.KindI4, Offset: 4, Redact: true}}}
	tests := []struct {
		name string
		f    *planning.Function
		want string
	}{{
		name: "empty",
		f:    &planning.Function{},
		want: "nargs=0 has_this=0 capture_ret=0 this_exact=0 nstatics=0 " +
			"this={kind=0 redact=0 elem_kind=0 method_var=0 offset=0 bounded=0 bound_offset=0} " +
			"ret={kind=0 redact=0 elem_kind=0 method_var=0 offset=0 bounded=0 bound_offset=0}",
	}, {
		name: "this, arguments, return",
		f: &planning.Function{
			HasThis: true, ThisExact: true, This: planning.Value{Kind: values.KindByRef},
			Args: []planning.Value{
				{Kind: values.KindI8, Redact: true},
				{Kind: values.KindByRef, ElemKind: values.KindTypeArg, Offset: 2, MethodVar: true},
				{Kind: values.KindStruct, Class: point},
			},
			CaptureRet: true, Ret: planning.Value{Kind: values.KindStruct, Class: point},
		},
		want: "nargs=3 has_this=1 capture_ret=1 this_exact=1 nstatics=0 " +
			"this={kind=23 redact=0 elem_kind=0 method_var=0 offset=0 bounded=0 bound_offset=0} " +
			"ret={kind=21 redact=0 elem_kind=0 method_var=0 offset=0 bounded=0 bound_offset=0 cls=" +
			"[class_id=20480 shape=5 elem_kind=0 nfields=2 elem_size=8 box_offset=0 rank=0 link=0,0 node_count=0 view=0 " +
			"{kind=7 redact=0 elem_kind=0 method_var=0 offset=0 bounded=0 bound_offset=0} " +
			"{kind=7 redact=1 elem_kind=0 method_var=0 offset=4 bounded=0 bound_offset=0}]} " +
			"arg={kind=9 redact=1 elem_kind=0 method_var=0 offset=0 bounded=0 bound_offset=0} " +
			"arg={kind=23 redact=0 elem_kind=24 method_var=1 offset=2 bounded=0 bound_offset=0} " +
			"arg={kind=21 redact=0 elem_kind=0 method_var=0 offset=0 bounded=0 bound_offset=0 cls=[class_id=20480 again]}",
	}, {
		name: "statics",
		f: &planning.Function{Statics: []planning.Static{
			{ClassID: 0x6000, Field: 0x04000001, Where: planning.StaticThread, Value: planning.Value{Kind: values.KindRef, Redact: true}},
			{ClassID: 0x6000, Field: 0x04000002, Where: planning.StaticRVA, Value: planning.Value{Kind: values.KindI4}},
		}},
		want: "nargs=0 has_this=0 capture_ret=0 this_exact=0 nstatics=2 " +
			"this={kind=0 redact=0 elem_kind=0 method_var=0 offset=0 bounded=0 bound_offset=0} " +
			"ret={kind=0 redact=0 elem_kind=0 method_var=0 offset=0 bounded=0 bound_offset=0} " +
			"static=(class_id=24576 field=0x4000001 where=2 {kind=20 redact=1 elem_kind=0 method_var=0 offset=0 bounded=0 bound_offset=0}) " +
			"static=(class_id=24576 field=0x4000002 where=3 {kind=7 redact=0 elem_kind=0 method_var=0 offset=0 bounded=0 bound_offset=0})",
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := Plans{track: true}
			defer c.free()
			if got := describe(c.Function(tc.f), true); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestClassAsCReadsIt(t *testing.T) {
	node := &planning.Class{ID: 0x7000, Shape: planning.ShapeObject, Link: [2]uint8{1, 2}, NodeCount: 3, View: planning.ViewTerse, Fields: []planning.Value{
		{Kind: values.KindRef, Offset: 8}, {Kind: values.KindRef, Offset: 16}, {Kind: values.KindI4, Offset: 24}}}
	set := &planning.Class{ID: 0x7100, Shape: planning.ShapeObject, Fields: []planning.Value{
		{Kind: values.KindRef, Offset: 8, Bounded: planning.BoundTree, BoundOffset: planning.NoCount}}}
	pair := &planning.Class{ID: 0x7200, Shape: planning.ShapeStruct, ElemSize: 12, Fields: []planning.Value{{Kind: values.KindR8}}}
	tests := []struct {
		name string
		p    *planning.Class
		want string
	}{{
		name: "string",
		p:    &planning.Class{ID: 1, Shape: planning.ShapeString},
		want: "[class_id=1 shape=2 elem_kind=0 nfields=0 elem_size=0 box_offset=0 rank=0 link=0,0 node_count=0 view=0]",
	}, {
		name: "node of a walked tree",
		p:    node,
		want: "[class_id=28672 shape=1 elem_kind=0 nfields=3 elem_size=0 box_offset=0 rank=0 link=1,2 node_count=3 view=2 " +
			"{kind=20 redact=0 elem_kind=0 method_var=0 offset=8 bounded=0 bound_offset=0} " +
			"{kind=20 redact=0 elem_kind=0 method_var=0 offset=16 bounded=0 bound_offset=0} " +
			"{kind=7 redact=0 elem_kind=0 method_var=0 offset=24 bounded=0 bound_offset=0}]",
	}, {
		name: "walked collection without a count",
		p:    set,
		want: "[class_id=28928 shape=1 elem_kind=0 nfields=1 elem_size=0 box_offset=0 rank=0 link=0,0 node_count=0 view=0 " +
			"{kind=20 redact=0 elem_kind=0 method_var=0 offset=8 bounded=3 bound_offset=4294967295}]",
	}, {
		name: "box",
		p:    &planning.Class{ID: 0x7200, Shape: planning.ShapeBoxed, BoxOffset: 8, Elem: pair},
		want: "[class_id=29184 shape=4 elem_kind=0 nfields=0 elem_size=0 box_offset=8 rank=0 link=0,0 node_count=0 view=0 elem=" +
			"[class_id=29184 shape=5 elem_kind=0 nfields=1 elem_size=12 box_offset=0 rank=0 link=0,0 node_count=0 view=0 " +
			"{kind=12 redact=0 elem_kind=0 method_var=0 offset=0 bounded=0 bound_offset=0}]]",
	}, {
		name: "array of structs",
		p:    &planning.Class{ID: 0x7300, Shape: planning.ShapeArray, ElemKind: values.KindStruct, ElemSize: 12, Rank: 2, Elem: pair},
		want: "[class_id=29440 shape=3 elem_kind=21 nfields=0 elem_size=12 box_offset=0 rank=2 link=0,0 node_count=0 view=0 elem=" +
			"[class_id=29184 shape=5 elem_kind=0 nfields=1 elem_size=12 box_offset=0 rank=0 link=0,0 node_count=0 view=0 " +
			"{kind=12 redact=0 elem_kind=0 method_var=0 offset=0 bounded=0 bound_offset=0}]]",
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := Plans{track: true}
			defer c.free()
			if got := describe(c.Class(tc.p), false); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// A class plan is copied once: every plan naming it points at one copy.
func TestClassCopiedOnce(t *testing.T) {
	c := Plans{track: true}
	defer c.free()
	pair := &planning.Class{ID: 1, Shape: planning.ShapeStruct, ElemSize: 8}
	box := &planning.Class{ID: 1, Shape: planning.ShapeBoxed, Elem: pair}
	a, b := c.Class(pair), c.Class(box)
	if c.Class(pair) != a || c.Class(box) != b || a == b || c.Len() != 2 {
		t.Errorf("copies %p %p, %d plans", a, b, c.Len())
	}
	if c.Class(nil) != nil {
		t.Errorf("nil copied")
	}
}
