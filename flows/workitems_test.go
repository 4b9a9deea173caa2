package flows

import (
	"reflect"
	"testing"
)

func TestWorkMaker(t *testing.T) {
	cases := []struct {
		typ, name string
		params    []string
		want      bool
	}{
		{"System.Threading.Thread", "Start", nil, true},
		{"System.Threading.Thread", "Start", []string{"Object"}, true},
		{"System.Threading.Thread", "Start", []string{"Boolean", "Boolean"}, false},
		{"System.Threading.Thread", "Start", []string{"Boolean"}, false},
		{"System.Threading.Tasks.Task", "TaskConstructorCore", []string{"System.Delegate", "System.Object"}, true},
		{"System.Threading.ThreadHelper", "SetExecutionContextHelper", []string{"System.Threading.ExecutionContext"}, true},
	}
	for _, c := range cases {
		if got := WorkMaker(c.typ, c.name, c.params); got != c.want {
			t.Errorf("WorkMaker(%s.%s%v) = %v, want %v", c.typ, c.name, c.params, got, c.want)
		}
	}
}

func TestWorkThread(t *testing.T) {
	for typ, want := range map[string]bool{
		"System.Threading.Thread":                    true,
		"System.Threading.ThreadHelper":              true,
		"System.Threading.Tasks.Task":                false,
		"System.Threading.QueueUserWorkItemCallback": false,
		"System.Threading.TimerQueueTimer":           false,
	} {
		if got := WorkThread(typ); got != want {
			t.Errorf("WorkThread(%s) = %v, want %v", typ, got, want)
		}
	}
}

func TestWorkRunCallee(t *testing.T) {
	cases := []struct {
		typ    string
		params int
		want   WorkCallee
		ok     bool
	}{
		{"System.Threading.QueueUserWorkItemCallbackDefaultContext", 0, WorkCallee{Delegate: "_callback", Arg: "_state"}, true},
		{"System.Threading.QueueUserWorkItemCallback", 0, WorkCallee{Delegate: "_callback", Arg: "_state"}, true},
		// TState may be a value type: no argument word to compare.
		{"System.Threading.QueueUserWorkItemCallbackDefaultContext<Int32>", 0, WorkCallee{Delegate: "_callback"}, true},
		{"System.Threading.QueueUserWorkItemCallback<System.__Canon>", 0, WorkCallee{Delegate: "_callback"}, true},
		{"System.Threading.Thread", 0, WorkCallee{Via: "_startHelper", ViaType: []string{"System.Threading.Thread", "StartHelper"}, Delegate: "_start", Arg: "_startArg"}, true},
		{"System.Threading.ThreadHelper", 1, WorkCallee{Delegate: "_start", Param: true}, true},
		{"System.Threading.ThreadHelper", 0, WorkCallee{Delegate: "_start"}, true},
		{"System.Threading.Tasks.Task", 0, WorkCallee{}, false},
		{"System.Threading.TimerQueueTimer", 0, WorkCallee{}, false},
	}
	for _, c := range cases {
		got, ok := WorkRunCallee(c.typ, c.params)
		if ok != c.ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("WorkRunCallee(%s, %d) = %+v, %v; want %+v, %v", c.typ, c.params, got, ok, c.want, c.ok)
		}
	}
}
