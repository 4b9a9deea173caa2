package selection

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/clrotel/clrotel/naming"
)

// fakeFunction is one function as fakeNames reads it.
type fakeFunction struct {
	assembly, name string // what Select reads
	method         *naming.Method
	params         []string
	special        Special
	selectErr      error
	methodErr      error
	paramsErr      error
}

type fakeNames map[uint64]fakeFunction

func (f fakeNames) Select(fid uint64) (naming.Selection, error) {
	fn := f[fid]
	return naming.Selection{Assembly: fn.assembly, Name: fn.name}, fn.selectErr
}

func (f fakeNames) MethodOf(s naming.Selection) (*naming.Method, error) {
	for _, fn := range f {
		if fn.name == s.Name {
			return fn.method, fn.methodErr
		}
	}
	return nil, errors.New("unknown")
}

func (f fakeNames) ParamTypes(m *naming.Method) ([]string, error) {
	for _, fn := range f {
		if fn.method == m {
			return fn.params, fn.paramsErr
		}
	}
	return nil, errors.New("unknown")
}

func method(typeName, name string, hasThis bool) *naming.Method {
	return &naming.Method{TypeName: typeName, Name: name, SelectName: typeName + "." + name, Sig: naming.MethodSig{HasThis: hasThis}}
}

func TestDecide(t *testing.T) {
	const corelib = "System.Private.CoreLib"
	add := method("Acme.Shop.Cart", "Add", true)
	queue := method("System.Threading.ThreadPool", "UnsafeQueueUserWorkItem", false)
	queue2 := method("System.Threading.ThreadPool", "UnsafeQueueUserWorkItem2", false)
	noCallback := method("System.Threading.ThreadPool", "QueueUserWorkItem", false)
	start := method("System.Threading.Thread", "Start", true)
	startInt := method("System.Threading.Thread", "Start", true)
	run := method("System.Threading.Thread", "StartCore", true)
	staticRun := method("System.Threading.ExecutionContext", "RunInternal", false)
	stop := method("System.Diagnostics.Activity", "Stop", true)
	compile := method("System.Runtime.JitHelpers", "Compile", false)
	names := fakeNames{
		1:  {assembly: "Shop", name: "Acme.Shop.Cart.Add", method: add},
		2:  {assembly: "Shop", name: "Acme.Shop.Cart.Gone", selectErr: errors.New("no name")},
		3:  {assembly: "Shop", name: "Acme.Shop.Cart.Odd", methodErr: errors.New("bad signature")},
		4:  {assembly: corelib, name: "System.Text.StringBuilder.Append"},
		5:  {assembly: corelib, name: "System.Threading.ThreadPool.UnsafeQueueUserWorkItem", method: queue, params: []string{"System.Threading.WaitCallback", "System.Object", "System.Boolean"}, special: SpecialQueue},
		6:  {assembly: corelib, name: "System.Threading.ThreadPool.QueueUserWorkItem", method: noCallback, params: []string{"Int32"}, special: SpecialQueue},
		7:  {assembly: corelib, name: "System.Threading.Thread.Start", method: start, special: SpecialWorkMake},
		8:  {assembly: corelib, name: "System.Threading.Thread.StartInt", method: startInt, params: []string{"Int32"}, special: SpecialWorkMake},
		9:  {assembly: corelib, name: "System.Threading.Thread.StartCore", method: run, special: SpecialWorkRun},
		10: {assembly: corelib, name: "System.Threading.ExecutionContext.RunInternal", method: staticRun, special: SpecialWorkRun},
		11: {assembly: "System.Diagnostics.DiagnosticSource", name: "System.Diagnostics.Activity.Stop", method: stop},
		12: {assembly: corelib, name: "System.Runtime.JitHelpers.Compile", method: compile, special: SpecialCompile},
		13: {assembly: corelib, name: "System.Threading.ThreadPool.UnsafeQueueUserWorkItem2", method: queue2, paramsErr: errors.New("no module"), special: SpecialQueue},
	}
	cases := []struct {
		name       string
		fid        uint64
		async      bool
		queueErr   error
		want       Decision
		wantLog    []string
		wantActive int // ActivityCode calls
	}{
		{name: "own code traced", fid: 1, want: Decision{Route: Traced, Method: add}},
		{name: "unreadable: untraced, logged", fid: 2, wantLog: []string{"no name"}},
		{name: "unnameable: untraced, logged", fid: 3, wantLog: []string{"bad signature"}},
		{name: "framework untraced", fid: 4},
		{name: "queuing method with a callback", fid: 5, async: true,
			want: Decision{Route: Queue, Method: queue, Flags: FnSelected | FnQueue | FnQueueUnsafe, QueueArgs: 1}},
		{name: "queuing method with async off: untraced", fid: 5},
		{name: "queuing method without a callback", fid: 6, async: true},
		{name: "queue not ready", fid: 5, async: true, queueErr: errors.New("System.Delegate has no _target"),
			wantLog: []string{"queued work: System.Delegate has no _target"}},
		{name: "queuing method's parameters unreadable", fid: 13, async: true,
			wantLog: []string{"queued work: System.Threading.ThreadPool.UnsafeQueueUserWorkItem2: no module"}},
		{name: "a thread's start makes a work item", fid: 7, async: true, want: Decision{Route: Work, Method: start, Flags: FnSelected | FnWorkMake}},
		{name: "Thread.Start(Int32) makes none", fid: 8, async: true},
		{name: "a thread's run", fid: 9, async: true, want: Decision{Route: Work, Method: run, Flags: FnSelected | FnWorkRun | FnWorkThread}},
		{name: "a static run is no item's", fid: 10, async: true},
		{name: "Activity.Stop, and a moment to find Activity.Current", fid: 11, want: Decision{Route: ActivityStop, Method: stop}, wantActive: 1},
		{name: "the JIT entry", fid: 12, async: true, want: Decision{Route: Compile, Method: compile, Flags: FnCompile}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var log []string
			active := 0
			d := Decider{Policy: New(Settings{}), Names: names,
				ActivityCode: func() { active++ },
				QueueReady:   func() error { return c.queueErr },
				Debugf:       func(format string, args ...any) { log = append(log, fmt.Sprintf(format, args...)) }}
			if c.async {
				d.Special = func(fid uint64) Special { return names[fid].special }
			}
			if got := d.Decide(c.fid); !reflect.DeepEqual(got, c.want) {
				t.Errorf("Decide = %+v, want %+v", got, c.want)
			}
			if !reflect.DeepEqual(log, c.wantLog) {
				t.Errorf("log %q, want %q", log, c.wantLog)
			}
			if active != c.wantActive {
				t.Errorf("ActivityCode called %d times, want %d", active, c.wantActive)
			}
		})
	}
}

func TestHiddenArgument(t *testing.T) {
	class := naming.Type{Kind: naming.ElemClass}
	value := naming.Type{Kind: naming.ElemValueType}
	for _, c := range []struct {
		name string
		m    naming.Method
		want bool
	}{
		{"void", naming.Method{Sig: naming.MethodSig{Ret: naming.Type{Kind: naming.ElemVoid}}}, false},
		{"bool", naming.Method{Sig: naming.MethodSig{Ret: naming.Type{Kind: naming.ElemBoolean}}}, false},
		{"a class", naming.Method{Sig: naming.MethodSig{Ret: class}}, false},
		{"Task<T>", naming.Method{Sig: naming.MethodSig{Ret: naming.Type{Kind: naming.ElemGenericInst, Elem: &class}}}, false},
		{"a struct", naming.Method{Sig: naming.MethodSig{Ret: value}}, true},
		{"ValueTask<T>", naming.Method{Sig: naming.MethodSig{Ret: naming.Type{Kind: naming.ElemGenericInst, Elem: &value}}}, true},
		{"a type parameter", naming.Method{Sig: naming.MethodSig{Ret: naming.Type{Kind: naming.ElemVar}}}, true},
		{"a generic method", naming.Method{Sig: naming.MethodSig{GenericParams: 1, Ret: naming.Type{Kind: naming.ElemVoid}}}, true},
		{"a generic type's method", naming.Method{Generic: true, Sig: naming.MethodSig{HasThis: true, Ret: naming.Type{Kind: naming.ElemVoid}}}, true},
	} {
		if got := hiddenArgument(&c.m); got != c.want {
			t.Errorf("%s: hiddenArgument = %v, want %v", c.name, got, c.want)
		}
	}
}
