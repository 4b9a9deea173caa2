package planning

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/clrotel/clrotel/naming"
	"github.com/clrotel/clrotel/values"
)

var (
	tI4      = naming.Type{Kind: naming.ElemI4}
	tR8      = naming.Type{Kind: naming.ElemR8}
	tString  = naming.Type{Kind: naming.ElemString}
	tObject  = naming.Type{Kind: naming.ElemObject}
	tVoid    = naming.Type{Kind: naming.ElemVoid}
	tItem    = naming.Type{Kind: naming.ElemClass, Token: tdItem}
	tPoint   = naming.Type{Kind: naming.ElemValueType, Token: tdPoint}
	tLine    = naming.Type{Kind: naming.ElemValueType, Token: tdLine}
	tColor   = naming.Type{Kind: naming.ElemValueType, Token: tdColor}
	tVar0    = naming.Type{Kind: naming.ElemVar, Index: 0}
	tMVar1   = naming.Type{Kind: naming.ElemMVar, Index: 1}
	tNullInt = naming.Type{Kind: naming.ElemGenericInst, Elem: &naming.Type{Kind: naming.ElemValueType, Token: refNullable}, Args: []naming.Type{tI4}}
	tListInt = naming.Type{Kind: naming.ElemGenericInst, Elem: &naming.Type{Kind: naming.ElemClass, Token: refList}, Args: []naming.Type{tI4}}
)

func byRef(t naming.Type) naming.Type { return naming.Type{Kind: naming.ElemByRef, Elem: &t} }
func szArray(t naming.Type) naming.Type {
	return naming.Type{Kind: naming.ElemSZArray, Elem: &t}
}

// method is a static method of Acme.Item named name.
func method(name string, ret naming.Type, params ...naming.Type) *naming.Method {
	m := &naming.Method{
		Name: name, SelectName: "Acme.Item." + name,
		Sig:      naming.MethodSig{Ret: ret, Params: params},
		ModuleID: app, OwnerToken: tdItem,
	}
	for i := range params {
		m.Params2 = append(m.Params2, naming.Param{Name: string(rune('a' + i))})
	}
	return m
}

// instance makes m an instance method of the class with TypeDef owner.
func instance(m *naming.Method, owner uint32, cid uint64) *naming.Method {
	m.Sig.HasThis = true
	m.OwnerToken, m.ClassID = owner, cid
	return m
}

func slots(keys ...string) []values.Slot {
	out := []values.Slot{}
	for _, k := range keys {
		out = append(out, values.Slot{Key: k})
	}
	return out
}

func pointPlan() *Class {
	return &Class{ID: cidPoint, Shape: ShapeStruct, ElemSize: 8, Fields: []Value{{Kind: values.KindI4}, {Kind: values.KindI4, Offset: 4}}}
}

func linePlan() *Class {
	return &Class{ID: cidLine, Shape: ShapeStruct, ElemSize: 16, Fields: []Value{{Kind: values.KindStruct, Class: pointPlan()}, {Kind: values.KindStruct, Offset: 8, Class: pointPlan()}}}
}

var colorEnum = &values.Enum{Name: "Acme.Color", Values: map[uint64]string{0: "Red", 1: "Green", 2: "Blue"}}

func TestFunctionPlans(t *testing.T) {
	tests := []struct {
		name string
		m    *naming.Method
		opt  Options
		want *Function
	}{{
		name: "static, primitives",
		m:    method("Add", tI4, tI4, tR8),
		want: &Function{Args: []Value{{Kind: values.KindI4}, {Kind: values.KindR8}}, CaptureRet: true, Ret: Value{Kind: values.KindI4},
			Enter: slots("dotnet.arg.a", "dotnet.arg.b"), Return: slots("dotnet.return")},
	}, {
		name: "references: string, object, class, array; void return",
		m:    method("Take", tVoid, tString, tObject, tItem, szArray(tI4)),
		want: &Function{Args: []Value{{Kind: values.KindRef}, {Kind: values.KindRef}, {Kind: values.KindRef}, {Kind: values.KindRef}},
			Enter: slots("dotnet.arg.a", "dotnet.arg.b", "dotnet.arg.c", "dotnet.arg.d")},
	}, {
		name: "pointer; a by-ref return is not read",
		m:    method("Raw", byRef(tI4), naming.Type{Kind: naming.ElemPtr, Elem: &tI4}),
		want: &Function{Args: []Value{{Kind: values.KindPtr}}, Enter: slots("dotnet.arg.a")},
	}, {
		name: "enum argument: its underlying kind and members",
		m:    method("Paint", tColor, tColor),
		want: &Function{Args: []Value{{Kind: values.KindI4}}, CaptureRet: true, Ret: Value{Kind: values.KindI4},
			Enter:  []values.Slot{{Key: "dotnet.arg.a", Enum: colorEnum}},
			Return: []values.Slot{{Key: "dotnet.return", Enum: colorEnum}}},
	}, {
		name: "structs, nested, read inline",
		m:    method("Move", tLine, tPoint),
		want: &Function{Args: []Value{{Kind: values.KindStruct, Class: pointPlan()}}, CaptureRet: true, Ret: Value{Kind: values.KindStruct, Class: linePlan()},
			Enter: slots("dotnet.arg.a"), Return: slots("dotnet.return")},
	}, {
		name: "by-ref arguments: ref and in read through, out not read on entry",
		m: func() *naming.Method {
			m := method("Swap", tVoid, byRef(tI4), byRef(tI4), byRef(tPoint), byRef(tMVar1))
			m.Params2[1].Out = true
			m.Params2[2].In = true
			return m
		}(),
		want: &Function{Args: []Value{{Kind: values.KindByRef, ElemKind: values.KindI4}, {}, {Kind: values.KindByRef, ElemKind: values.KindStruct, Class: pointPlan()},
			{Kind: values.KindByRef, ElemKind: values.KindTypeArg, Offset: 1, MethodVar: true}},
			Enter: slots("dotnet.arg.a", "dotnet.arg.b", "dotnet.arg.c", "dotnet.arg.d")},
	}, {
		name: "this of a class",
		m:    instance(method("Get", tVoid), tdItem, cidItem),
		want: &Function{HasThis: true, This: Value{Kind: values.KindRef}, Args: []Value{}, Enter: slots("dotnet.this")},
	}, {
		name: "this of a struct: a managed pointer to it",
		m:    instance(method("Length", tVoid), tdPoint, cidPoint),
		want: &Function{HasThis: true, This: Value{Kind: values.KindByRef, ElemKind: values.KindStruct, Class: pointPlan()}, Args: []Value{}, Enter: slots("dotnet.this")},
	}, {
		name: "this of a generic struct's shared code: its type from the frame",
		m:    instance(method("First", tVoid), tdPair, 0),
		want: &Function{HasThis: true, ThisExact: true, This: Value{Kind: values.KindByRef}, Args: []Value{}, Enter: slots("dotnet.this")},
	}, {
		name: "a struct's constructor: this not read",
		m:    instance(method(".ctor", tVoid), tdPoint, cidPoint),
		want: &Function{HasThis: true, This: Value{ElemKind: values.KindStruct}, Args: []Value{}, Enter: slots("dotnet.this")},
	}, {
		name: "a class's constructor: this not read",
		m:    instance(method(".ctor", tVoid), tdItem, cidItem),
		want: &Function{HasThis: true, Args: []Value{}, Enter: slots("dotnet.this")},
	}, {
		name: "explicit this: an ordinary argument",
		m: func() *naming.Method {
			m := instance(method("Call", tVoid, tItem), tdItem, cidItem)
			m.Sig.ExplicitThis = true
			return m
		}(),
		want: &Function{Args: []Value{{Kind: values.KindRef}}, Enter: slots("dotnet.arg.a")},
	}, {
		name: "type parameters instantiated: their kinds; over __Canon: references",
		m: func() *naming.Method {
			m := instance(method("Set", tMVar1, tVar0, naming.Type{Kind: naming.ElemVar, Index: 1}), tdHolder, cidHolderInt)
			m.TypeArgIDs = []uint64{cidInt32, cidCanon}
			m.MethodArgIDs = []uint64{cidString, cidDouble}
			return m
		}(),
		want: &Function{HasThis: true, This: Value{Kind: values.KindRef}, Args: []Value{{Kind: values.KindI4}, {Kind: values.KindRef}},
			CaptureRet: true, Ret: Value{Kind: values.KindR8},
			Enter: slots("dotnet.this", "dotnet.arg.a", "dotnet.arg.b"), Return: slots("dotnet.return")},
	}, {
		name: "type parameters of shared code: the frame tells",
		m:    method("Find", tVar0, tMVar1),
		want: &Function{Args: []Value{{Kind: values.KindTypeArg, Offset: 1, MethodVar: true}}, CaptureRet: true, Ret: Value{Kind: values.KindTypeArg},
			Enter: slots("dotnet.arg.a"), Return: slots("dotnet.return")},
	}, {
		name: "generic value type: its exact instantiation",
		m:    method("Maybe", tVoid, tNullInt),
		want: &Function{Args: []Value{{Kind: values.KindStruct, Class: &Class{ID: cidNullableInt, Shape: ShapeStruct, ElemSize: 8,
			Fields: []Value{{Kind: values.KindBool}, {Kind: values.KindI4, Offset: 4}}}}}, Enter: slots("dotnet.arg.a")},
	}, {
		name: "generic class: a reference",
		m:    method("Sum", tVoid, tListInt),
		want: &Function{Args: []Value{{Kind: values.KindRef}}, Enter: slots("dotnet.arg.a")},
	}, {
		name: "before .NET 6: structs returned in two registers or with floats are not read",
		m:    method("Span", tLine),
		opt:  Options{OldReturns: true},
		want: &Function{Args: []Value{}},
	}, {
		name: "before .NET 6: a struct in one integer register is read",
		m:    method("At", tPoint),
		opt:  Options{OldReturns: true},
		want: &Function{Args: []Value{}, CaptureRet: true, Ret: Value{Kind: values.KindStruct, Class: pointPlan()}, Return: slots("dotnet.return")},
	}, {
		name: "before .NET 6: a struct with a float is not read",
		m:    method("Total", naming.Type{Kind: naming.ElemValueType, Token: tdMoney}),
		opt:  Options{OldReturns: true},
		want: &Function{Args: []Value{}},
	}, {
		name: "from .NET 6: any struct returned is read",
		m:    method("Total", naming.Type{Kind: naming.ElemValueType, Token: tdMoney}),
		want: &Function{Args: []Value{}, CaptureRet: true, Ret: Value{Kind: values.KindStruct, Class: &Class{ID: cidMoney, Shape: ShapeStruct, ElemSize: 8,
			Fields: []Value{{Kind: values.KindR4}, {Kind: values.KindI2, Offset: 4}}}}, Return: slots("dotnet.return")},
	}, {
		name: "before .NET 6: a type parameter may be such a struct",
		m:    method("Get", tVar0),
		opt:  Options{OldReturns: true},
		want: &Function{Args: []Value{}},
	}, {
		name: "redaction: sensitive names, a setter's value, a getter's return",
		m: func() *naming.Method {
			m := method("set_ApiToken", tVoid, tString, tString, tString)
			m.Params2[0].Name = "password"
			m.Params2[1].Name = ""
			m.Params2[2].Name = "value"
			return m
		}(),
		want: &Function{Args: []Value{{Kind: values.KindRef, Redact: true}, {Kind: values.KindRef}, {Kind: values.KindRef, Redact: true}},
			Enter: slots("dotnet.arg.password", "dotnet.arg.arg1", "dotnet.arg.value")},
	}, {
		name: "redaction: a sensitive method's return",
		m:    method("get_SessionKey", tString),
		want: &Function{Args: []Value{}, CaptureRet: true, Ret: Value{Kind: values.KindRef, Redact: true}, Return: slots("dotnet.return")},
	}, {
		name: "redaction: configured names",
		m:    method("Lookup", tVoid, tString),
		opt:  Options{Redact: values.NewRedactor([]string{"A"})},
		want: &Function{Args: []Value{{Kind: values.KindRef, Redact: true}}, Enter: slots("dotnet.arg.a")},
	}, {
		name: "refused: a typed reference, an unresolvable struct, an instantiation the runtime refuses",
		m: method("Odd", tVoid, naming.Type{Kind: naming.ElemTypedByRef}, naming.Type{Kind: naming.ElemValueType, Token: 0x02000099},
			naming.Type{Kind: naming.ElemGenericInst, Elem: &naming.Type{Kind: naming.ElemValueType, Token: refNullable}, Args: []naming.Type{tR8}}),
		want: &Function{Args: []Value{{}, {}, {}}, Enter: slots("dotnet.arg.a", "dotnet.arg.b", "dotnet.arg.c")},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pl, _, _ := newTest(newShop(t), tc.opt)
			got := pl.Function(tc.m)
			if tc.want.Enter == nil {
				tc.want.Enter = []values.Slot{}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("\n got %+v\nwant %+v", got, tc.want)
			}
			if pl.jitThread {
				t.Errorf("still on the JIT thread")
			}
		})
	}
}

// A task builder's completion reads its arguments, never its `this`
// (the builder), whether the builder is a struct's exact or shared code.
func TestCompletionPlan(t *testing.T) {
	for _, m := range []*naming.Method{
		instance(method("SetResult", tVoid, tItem), tdPoint, cidPoint),
		instance(method("SetResult", tVoid, tVar0), tdPair, 0),
	} {
		pl, _, _ := newTest(newShop(t), Options{})
		got := pl.Completion(m)
		if !got.HasThis || got.This != (Value{}) || got.ThisExact || len(got.Args) != 1 || got.Args[0].Kind == values.KindSkip ||
			len(got.Enter) != 2 || got.Enter[1].Key != "dotnet.arg.a" {
			t.Errorf("%s: %+v", m.Name, got)
		}
	}
}

// Classes a signature names are planned as the method is, on the thread
// that may load them, so that the first call reads them.
func TestFunctionPlansDeclaredClasses(t *testing.T) {
	f := newShop(t)
	pl, sink, _ := newTest(f, Options{})
	pl.Function(method("Take", tVoid, tItem, tListInt, szArray(tPoint)))
	for _, cid := range []uint64{cidItem, cidList, cidPoint} {
		if !pl.Planned(cid) {
			t.Errorf("class %d not planned", cid)
		}
	}
	if sink.published[cidItem] == nil {
		t.Errorf("Acme.Item's plan not published")
	}
	if !slices.Contains(f.loads, "Instantiate 1 0x200000b [5]") {
		t.Errorf("loads %q", f.loads)
	}
	// The same names again: the tokens and the instantiation are
	// resolved from the caches.
	n := len(f.loads)
	pl.Function(method("Take", tVoid, tItem, tListInt))
	for _, l := range f.loads[n:] {
		if !strings.HasPrefix(l, "ClassOf 1 ") { // type arguments by name
			t.Errorf("asked again: %q", l)
		}
	}
}
