package selection

import (
	"github.com/clrotel/clrotel/flows"
	"github.com/clrotel/clrotel/naming"
)

// Names are the naming questions a decision asks (naming.Resolver).
type Names interface {
	// Select reads what is cheap to read: the assembly and the name.
	Select(fid uint64) (naming.Selection, error)
	// MethodOf names the selected method in full.
	MethodOf(s naming.Selection) (*naming.Method, error)
	// ParamTypes names its parameters' types.
	ParamTypes(m *naming.Method) ([]string, error)
}

// Decision is what the profiler makes of a function the runtime asks
// about.
type Decision struct {
	Route  Route
	Method *naming.Method // nil when Untraced
	// Flags are the hooks' flags of a Compile, Queue or Work route; a
	// Traced or ActivityStop method's come from Hooked once its part in
	// flows is known.
	Flags Flags
	// QueueArgs: a Queue method's callback arguments (flows.Queue).
	QueueArgs uint16
}

// Decider decides each function's route, and for CoreLib's queuing
// methods and work items, whether they are hooked.
type Decider struct {
	Policy Policy
	Names  Names
	// Special is what async.c found the function to be; nil with async
	// off (SpecialNone for every function).
	Special func(fid uint64) Special
	// ActivityCode is told that a method of System.Diagnostics' Activity
	// assembly is being compiled: a moment to find how to read
	// Activity.Current (an app may compile every traced method before its
	// first Activity).
	ActivityCode func()
	// QueueReady readies what queue.c needs before the first queuing
	// method is hooked (Delegate._target's offset); an error leaves the
	// method unhooked.
	QueueReady func() error
	Debugf     func(format string, args ...any)
}

// Decide decides from what is cheap to read first, and names in full
// only what the hooks will see.
func (d Decider) Decide(fid uint64) Decision {
	sel, err := d.Names.Select(fid)
	if err != nil {
		d.Debugf("%v", err)
		return Decision{}
	}
	if DiagnosticsAssembly(sel.Assembly) {
		d.ActivityCode()
	}
	special := SpecialNone
	if d.Special != nil {
		special = d.Special(fid)
	}
	route := d.Policy.Route(sel.Assembly, sel.Name, special)
	if route == Untraced {
		return Decision{}
	}
	m, err := d.Names.MethodOf(sel)
	if err != nil {
		d.Debugf("%v", err)
		return Decision{}
	}
	switch route {
	case Compile:
		return Decision{Route: Compile, Method: m, Flags: FnCompile}
	case Queue:
		return d.queue(m)
	case Work:
		return d.work(m, special)
	}
	return Decision{Route: route, Method: m}
}

// queue hooks one of CoreLib's queuing methods (queue.c) that takes a
// callback: no span; its callbacks' closures are marked when the flow is
// suppressed.
func (d Decider) queue(m *naming.Method) Decision {
	params, err := d.Names.ParamTypes(m)
	if err != nil {
		d.Debugf("queued work: %s: %v", m.SelectName, err)
		return Decision{}
	}
	q := flows.QueueMethod(m.Name, m.Sig.HasThis, hiddenArgument(m), params)
	if q.Callbacks == 0 {
		return Decision{}
	}
	if err := d.QueueReady(); err != nil {
		d.Debugf("queued work: %v", err)
		return Decision{}
	}
	return Decision{Route: Queue, Method: m, Flags: QueueFlags(q.Unsafe, q.Registers), QueueArgs: q.Callbacks}
}

// hiddenArgument reports whether a call of m may pass the runtime a
// hidden argument ahead of its parameters, taking the registers they would
// otherwise have: the instantiation of generic code, or the buffer of a
// struct it returns. A generic method or a method of a generic type
// counts, whether or not its code is shared: only a method with neither is
// known to pass none.
func hiddenArgument(m *naming.Method) bool {
	if m.Generic || m.Sig.GenericParams > 0 {
		return true
	}
	switch r := m.Sig.Ret; r.Kind {
	case naming.ElemVoid, naming.ElemBoolean, naming.ElemChar, naming.ElemI1, naming.ElemU1, naming.ElemI2, naming.ElemU2,
		naming.ElemI4, naming.ElemU4, naming.ElemI8, naming.ElemU8, naming.ElemI, naming.ElemU,
		naming.ElemString, naming.ElemClass, naming.ElemObject, naming.ElemSZArray:
		return false
	case naming.ElemGenericInst:
		return r.Elem == nil || r.Elem.Kind != naming.ElemClass
	}
	return true
}

// work hooks the maker or the run of one of CoreLib's work items
// (workitems.c): no span; the item carries its maker's span to its run.
func (d Decider) work(m *naming.Method, kind Special) Decision {
	if !m.Sig.HasThis {
		return Decision{}
	}
	if kind.Maker() {
		params, err := d.Names.ParamTypes(m)
		if err != nil {
			d.Debugf("work items: %s: %v", m.SelectName, err)
			return Decision{}
		}
		if !flows.WorkMaker(m.TypeName, m.Name, params) {
			return Decision{}
		}
	}
	return Decision{Route: Work, Method: m, Flags: WorkFlags(kind, flows.WorkThread(m.TypeName))}
}
