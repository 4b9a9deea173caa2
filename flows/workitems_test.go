package flows

import "testing"

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
