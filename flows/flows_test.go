package flows

import (
	"reflect"
	"testing"

	"go.opentelemetry.io/otel/attribute"
)

func TestAsyncOutcome(t *testing.T) {
	tests := []struct {
		name         string
		setException bool
		args         []attribute.KeyValue
		want         Outcome
	}{
		{"result", false, []attribute.KeyValue{attribute.Int64("dotnet.arg.result", 7)},
			Outcome{Attrs: []attribute.KeyValue{returnKey.Int64(7)}}},
		{"result with parts", false, []attribute.KeyValue{attribute.String("dotnet.arg.result", "Acme.Order{…}"), attribute.Int64("dotnet.arg.result.Id", 3)},
			Outcome{Attrs: []attribute.KeyValue{returnKey.String("Acme.Order{…}"), attribute.Int64("dotnet.return.Id", 3)}}},
		{"no result", false, nil, Outcome{}},
		{"exception", true, []attribute.KeyValue{attribute.String("dotnet.arg.exception", "System.InvalidOperationException: bad")},
			Outcome{Failed: true, ExcType: "System.InvalidOperationException", ExcMessage: "bad"}},
		{"exception not read yet", true, []attribute.KeyValue{attribute.String("dotnet.arg.exception", "System.IO.IOException{…}")},
			Outcome{Failed: true, ExcType: "System.IO.IOException"}},
		{"canceled", true, []attribute.KeyValue{attribute.String("dotnet.arg.exception", "System.Threading.Tasks.TaskCanceledException: A task was canceled.")},
			Outcome{Canceled: true, ExcType: "System.Threading.Tasks.TaskCanceledException", ExcMessage: "A task was canceled."}},
		{"exception, capture off", true, nil, Outcome{Failed: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := AsyncOutcome(tt.setException, tt.args); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestTypeArgument(t *testing.T) {
	blob := func(s string) []byte { return append([]byte{1, 0, byte(len(s))}, s+"\x00\x00"...) }
	long := make([]byte, 200)
	for i := range long {
		long[i] = 'a'
	}
	tests := []struct {
		name string
		blob []byte
		want string
		err  bool
	}{
		{"nested", blob("Acme.Handler+<Handle>d__3"), "Acme.Handler+<Handle>d__3", false},
		{"mcs", blob("Acme.Repo+<Load>c__async0"), "Acme.Repo+<Load>c__async0", false},
		{"assembly-qualified", blob("Acme.H+SM, Shop, Version=1.0.0.0"), "Acme.H+SM", false},
		{"two-byte length", append([]byte{1, 0, 0x80, 200}, long...), string(long), false},
		{"no prolog", []byte{0, 0, 1, 'a'}, "", true},
		{"truncated", []byte{1, 0, 10, 'a'}, "", true},
		{"null", []byte{1, 0, 0xFF}, "", true},
		{"empty", nil, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := TypeArgument(tt.blob)
			if (err != nil) != tt.err || got != tt.want {
				t.Errorf("got %q, %v; want %q (error %v)", got, err, tt.want, tt.err)
			}
		})
	}
}

func TestDecide(t *testing.T) {
	tests := []struct {
		name    string
		f       Facts
		want    Role
		offsets bool
	}{
		{"builder", Facts{Name: "SetResult", HasThis: true, Builder: true}, Complete, false},
		{"kickoff", Facts{Name: "Handle", StateMachineTracked: true}, Kickoff, false},
		{"kickoff untracked (native code, no fields)", Facts{Name: "Handle"}, 0, false},
		{"state machine step", Facts{Name: "MoveNext", HasThis: true, OwnerFlowFields: true, ExactLayout: true}, MoveNext, true},
		{"step of shared generic code", Facts{Name: "MoveNext", HasThis: true, OwnerFlowFields: true, SharedLayout: true}, MoveNext, true},
		{"step of a layout not found", Facts{Name: "MoveNext", HasThis: true, OwnerFlowFields: true}, 0, false},
		{"MoveNext of another type", Facts{Name: "MoveNext", HasThis: true, ExactLayout: true}, 0, false},
		{"closure made", Facts{Name: ".ctor", HasThis: true, OwnerLinkFields: true, ExactLayout: true}, ClosureCtor, true},
		{"lambda", Facts{Name: "<Run>b__0", HasThis: true, OwnerLinkFields: true, ExactLayout: true}, ClosureBody, true},
		{"async lambda", Facts{Name: "<Run>b__1", HasThis: true, StateMachineTracked: true, OwnerLinkFields: true, ExactLayout: true}, Kickoff | ClosureBody, true},
		{"closure in shared generic code", Facts{Name: "<Run>b__0", HasThis: true, OwnerLinkFields: true, SharedLayout: true}, 0, false},
		{"closure made in shared generic code", Facts{Name: ".ctor", HasThis: true, OwnerLinkFields: true, SharedLayout: true}, 0, false},
		{"static method of a closure class", Facts{Name: "Helper", OwnerLinkFields: true, ExactLayout: true}, 0, false},
		{"iterator method", Facts{Name: "Squares", StateMachineTracked: true}, Kickoff, false},
		{"iterator made", Facts{Name: ".ctor", HasThis: true, OwnerIterFields: true, IterTracked: true, ExactLayout: true}, MoveNext | IterStart, true},
		{"iterator step", Facts{Name: "MoveNext", HasThis: true, OwnerIterFields: true, IterTracked: true, ExactLayout: true}, MoveNext | IterStep, true},
		{"iterator disposed (explicit)", Facts{Name: "System.IDisposable.Dispose", HasThis: true, OwnerIterFields: true, IterTracked: true, ExactLayout: true}, MoveNext | IterEnd, true},
		{"iterator disposed", Facts{Name: "Dispose", HasThis: true, OwnerIterFields: true, IterTracked: true, ExactLayout: true}, MoveNext | IterEnd, true},
		{"iterator's Current", Facts{Name: "get_Current", HasThis: true, OwnerIterFields: true, IterTracked: true, ExactLayout: true}, Plumbing, false},
		{"iterator's GetEnumerator (explicit), its fields not found", Facts{Name: "System.Collections.IEnumerable.GetEnumerator", HasThis: true, OwnerIterFields: true, IterTracked: true}, Plumbing, false},
		{"untraced iterator's Current", Facts{Name: "get_Current", HasThis: true, OwnerIterFields: true, ExactLayout: true}, 0, false},
		{"iterator no traced method names", Facts{Name: "MoveNext", HasThis: true, OwnerIterFields: true, ExactLayout: true}, 0, false},
		{"iterator in shared generic code", Facts{Name: "MoveNext", HasThis: true, OwnerIterFields: true, IterTracked: true, SharedLayout: true}, MoveNext | IterStep, true},
		{"iterator of a layout not found", Facts{Name: "MoveNext", HasThis: true, OwnerIterFields: true, IterTracked: true}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, off := Decide(tt.f)
			if got != tt.want || off != tt.offsets {
				t.Errorf("Decide(%+v) = %v, %v; want %v, %v", tt.f, got, off, tt.want, tt.offsets)
			}
		})
	}
}

func TestQueueMethod(t *testing.T) {
	for _, c := range []struct {
		name    string
		hasThis bool
		hidden  bool
		params  []string
		want    Queue
	}{
		{"Run", false, false, []string{"System.Action"}, Queue{Callbacks: 1, Registers: true}},
		{"Run", false, false, []string{"System.Func<System.Threading.Tasks.Task>", "System.Threading.CancellationToken"}, Queue{Callbacks: 1, Registers: true}},
		{"ContinueWith", true, false, []string{"System.Action<System.Threading.Tasks.Task, System.Object>", "System.Object"}, Queue{Callbacks: 2, Registers: true}},
		// A generic method's call passes its instantiation first.
		{"StartNew", true, true, []string{"System.Func<!!0>"}, Queue{Callbacks: 2}},
		{"QueueUserWorkItem", false, false, []string{"System.Threading.WaitCallback", "System.Object"}, Queue{Callbacks: 1, Registers: true}},
		{"UnsafeQueueUserWorkItem", false, false, []string{"System.Threading.WaitCallback", "System.Object"}, Queue{Callbacks: 1, Unsafe: true, Registers: true}},
		{"UnsafeQueueUserWorkItem", false, false, []string{"System.Threading.IThreadPoolWorkItem", "Boolean"}, Queue{Unsafe: true}},
		{".ctor", true, false, []string{"System.Threading.TimerCallback", "System.Object", "Int32", "Int32"}, Queue{Callbacks: 2, Registers: true}},
		// Argument 0 of a static method is no callback: its register is
		// not known from its type's name.
		{"RegisterWaitForSingleObject", false, false, []string{"System.Threading.WaitHandle", "System.Threading.WaitOrTimerCallback", "System.Object", "Int32", "Boolean"}, Queue{Callbacks: 2}},
		{"Both", false, false, []string{"System.Action", "System.Action"}, Queue{Callbacks: 3, Registers: true}},
		{"Third", true, false, []string{"System.Object", "System.Action"}, Queue{Callbacks: 4}},
		{"Run", false, false, []string{"System.Threading.Tasks.Task"}, Queue{}},
	} {
		if got := QueueMethod(c.name, c.hasThis, c.hidden, c.params); got != c.want {
			t.Errorf("QueueMethod(%s, %v, %v, %v) = %+v, want %+v", c.name, c.hasThis, c.hidden, c.params, got, c.want)
		}
	}
}
