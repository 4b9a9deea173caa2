package flows

import "strings"

// Queue is what the hooks need of one of CoreLib's methods that queue
// work with a callback (Task.Run, ThreadPool.QueueUserWorkItem, a Timer's
// constructor...): which of its arguments are callbacks, and whether it
// never flows the caller's ExecutionContext.
type Queue struct {
	// Callbacks: bit i set when argument i (counting `this` first, as the
	// runtime lists an instance method's arguments) is a callback.
	Callbacks uint16
	// Unsafe: the method never flows the context (UnsafeQueueUserWorkItem,
	// UnsafeRegisterWaitForSingleObject): work queued through it starts a
	// trace of its own, linked to its maker.
	Unsafe bool
	// Registers: every callback is argument 0 or 1, and each argument up
	// to the last callback is a reference, so that (the call passing no
	// hidden argument ahead of them) the System V ABI puts them in the
	// first two integer registers, which the hooks read as the runtime's
	// stub saved them rather than ask the runtime to walk the signature.
	Registers bool
}

// callbackTypes are the delegate types the queuing methods take, by full
// name without generic arguments.
var callbackTypes = map[string]bool{
	"System.Action": true, "System.Func": true,
	"System.Threading.WaitCallback": true, "System.Threading.TimerCallback": true,
	"System.Threading.WaitOrTimerCallback": true,
}

// QueueMethod decides for a queuing method, from its name, whether it is an
// instance method, its parameters' type names (as naming.FormatType
// writes them: System.Action<System.Object>), and whether a call of it
// may pass the runtime a hidden argument ahead of them (a generic
// context, a struct's return buffer).
func QueueMethod(name string, hasThis, hidden bool, params []string) Queue {
	q := Queue{Unsafe: strings.HasPrefix(name, "Unsafe")}
	first := 0
	if hasThis {
		first = 1
	}
	for i, p := range params {
		if i+first >= 16 {
			break
		}
		if j := strings.IndexByte(p, '<'); j >= 0 {
			p = p[:j]
		}
		if callbackTypes[p] {
			q.Callbacks |= 1 << (i + first)
		}
	}
	// Argument 0 is a reference when it is `this` or a callback.
	q.Registers = !hidden && q.Callbacks != 0 && q.Callbacks&^3 == 0 &&
		(q.Callbacks&2 == 0 || hasThis || q.Callbacks&1 != 0)
	return q
}
