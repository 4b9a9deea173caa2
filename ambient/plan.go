package ambient

import "fmt"

// Runtime is what building a plan asks of the runtime. Each question may
// load nothing: a class not loaded yet is an error, and the plan waits.
type Runtime interface {
	// Class finds a loaded class by its reflection name (nested types
	// joined by '+').
	Class(name string) (uint64, error)
	// Fields returns a class's own instance fields (none of the classes
	// read here inherits fields) and, by name, the tokens of all its
	// fields, statics included.
	Fields(class uint64) ([]Field, map[string]uint32, error)
	// Size is a class's instance size (a struct's: an array element's).
	Size(class uint64) (uint32, error)
	// Static is the address of a static field; an error until the class
	// is initialised.
	Static(class uint64, field uint32) (uint64, error)
	// Definition finds the generic type chain names (a type, or a type
	// nested in one, joined by '+' in reflection names) in a loaded
	// module: its module and TypeDef.
	Definition(chain []string) (module uint64, typeDef uint32, ok bool)
	// Instantiate is the class of module's generic TypeDef over the
	// classes args; an error until it is loaded.
	Instantiate(module uint64, typeDef uint32, args []uint64) (uint64, error)
	// StringLayout is where a String keeps its length and its characters.
	StringLayout() (length, chars uint32, err error)
}

// Thread is the thread's part of a plan: Thread.t_currentThread (a
// [ThreadStatic]: its class and field token), and the offsets of the
// Thread's ExecutionContext and runtime Thread*, and of the
// ExecutionContext's locals and flow suppression (0: not read).
type Thread struct {
	Class                                   uint64
	Field                                   uint32
	Context, Native, Locals, FlowSuppressed uint32
}

// MapClass is one IAsyncLocalValueMap implementation as the hook reads it;
// a Map of kind MapEmpty is known and not read.
type MapClass struct {
	Class uint64
	Map   Map
}

// Plan is everything the hook reads Activity.Current through.
type Plan struct {
	Thread Thread
	// Current is the address of Activity.s_current, the AsyncLocal that
	// keys the map; ActivityClass is Activity's class.
	Current, ActivityClass uint64
	// Activity is Activity's layout; Source is set only when
	// ActivitySource's name (SourceName) is found too.
	Activity   Activity
	SourceName uint32
	// StringLength and StringChars are a String's layout.
	StringLength, StringChars uint32
	Maps                      []MapClass
}

// mapClasses are the IAsyncLocalValueMap implementations, nested in
// System.Threading.AsyncLocalValueMap (CoreLib) on .NET Core 3.1 and 8.
var mapClasses = []string{
	"EmptyAsyncLocalValueMap", "OneElementAsyncLocalValueMap", "TwoElementAsyncLocalValueMap",
	"ThreeElementAsyncLocalValueMap", "FourElementAsyncLocalValueMap",
	"MultiElementAsyncLocalValueMap", "ManyElementAsyncLocalValueMap",
}

const dictionary = "System.Collections.Generic.Dictionary`2"

// Build makes the whole plan. Until the app has started its first
// Activity (Activity's statics are not initialised) it fails early.
func Build(rt Runtime) (Plan, error) {
	var p Plan
	// Activity and its s_current first: until the class is initialised
	// (the app starts its first Activity) this is where an attempt stops.
	act, af, atoks, err := find(rt, "System.Diagnostics.Activity")
	if err != nil {
		return p, err
	}
	if p.Activity, err = ActivityLayout(af); err != nil {
		return p, err
	}
	stok, ok := atoks[ActivityCurrent]
	if !ok {
		return p, fmt.Errorf("Activity has no %s", ActivityCurrent)
	}
	if p.Current, err = rt.Static(act, stok); err != nil {
		return p, fmt.Errorf("Activity.s_current: %w (class not initialised yet)", err)
	}
	p.ActivityClass = act
	source := p.Activity.Source
	p.Activity.Source = 0
	if source != 0 {
		if _, sf, _, err := find(rt, "System.Diagnostics.ActivitySource"); err == nil {
			if off, ok := Find(sf, SourceName...); ok {
				p.Activity.Source, p.SourceName = source, off
			}
		}
	}
	if p.Thread, err = BuildThread(rt); err != nil {
		return p, err
	}
	if p.StringLength, p.StringChars, err = rt.StringLayout(); err != nil {
		return p, err
	}
	// The map classes; .NET 8's keep KeyValuePair<IAsyncLocal, object>
	// structs, whose layout the runtime gives too.
	pair := pairOf(rt, []string{"System.Collections.Generic.KeyValuePair`2"})
	for _, name := range mapClasses {
		full := "System.Threading.AsyncLocalValueMap+" + name
		cid, mf, _, err := find(rt, full)
		if err != nil {
			continue // not in this runtime
		}
		m, ok := MapLayout(full, mf, pair)
		if name == "ManyElementAsyncLocalValueMap" {
			m, ok = dictMap(rt)
		}
		if !ok {
			m = Map{} // known, not read
		}
		p.Maps = append(p.Maps, MapClass{Class: cid, Map: m})
	}
	return p, nil
}

// BuildThread makes the thread's part of a plan alone: enough to tell
// whether the flow is suppressed on a thread, before the app loads
// DiagnosticSource.
func BuildThread(rt Runtime) (Thread, error) {
	var t Thread
	need := func(fields []Field, class string, names []string) (uint32, error) {
		off, ok := Find(fields, names...)
		if !ok {
			return 0, fmt.Errorf("%s has no field %s", class, names[0])
		}
		return off, nil
	}
	thread, tf, ttoks, err := find(rt, "System.Threading.Thread")
	if err != nil {
		return t, err
	}
	tok, ok := ttoks[ThreadCurrent]
	if !ok {
		return t, fmt.Errorf("Thread has no %s", ThreadCurrent)
	}
	t.Class, t.Field = thread, tok
	if t.Context, err = need(tf, "Thread", ThreadExecutionContext); err != nil {
		return t, err
	}
	if t.Native, err = need(tf, "Thread", ThreadNative); err != nil {
		return t, err
	}
	_, ecf, _, err := find(rt, "System.Threading.ExecutionContext")
	if err != nil {
		return t, err
	}
	if t.Locals, err = need(ecf, "ExecutionContext", ContextLocals); err != nil {
		return t, err
	}
	// Optional: without it, no flow is seen as suppressed.
	t.FlowSuppressed, _ = Find(ecf, ContextFlowSuppressed...)
	return t, nil
}

// find finds a loaded class by name with its fields.
func find(rt Runtime, name string) (uint64, []Field, map[string]uint32, error) {
	cid, err := rt.Class(name)
	if err != nil {
		return 0, nil, nil, err
	}
	fields, toks, err := rt.Fields(cid)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	return cid, fields, toks, nil
}

// asyncLocalInstance is the class of the generic type chain names (a
// type of two parameters, or a type nested in one) instantiated over
// <IAsyncLocal, object>, as the AsyncLocal maps use it.
func asyncLocalInstance(rt Runtime, chain []string) (uint64, bool) {
	m, td, ok := rt.Definition(chain)
	if !ok {
		return 0, false
	}
	key, err1 := rt.Class("System.Threading.IAsyncLocal")
	obj, err2 := rt.Class("System.Object")
	if err1 != nil || err2 != nil {
		return 0, false
	}
	cid, err := rt.Instantiate(m, td, []uint64{key, obj})
	return cid, err == nil && cid != 0
}

// pairOf is where the struct chain names, over <IAsyncLocal, object>,
// keeps its key and value; the zero Pair when it is not loaded.
func pairOf(rt Runtime, chain []string) Pair {
	cid, ok := asyncLocalInstance(rt, chain)
	if !ok {
		return Pair{}
	}
	fields, _, err := rt.Fields(cid)
	if err != nil {
		return Pair{}
	}
	size, err := rt.Size(cid)
	k, ok1 := Find(fields, "key")
	v, ok2 := Find(fields, "value")
	if !ok1 || !ok2 || err != nil {
		return Pair{}
	}
	return Pair{Key: k, Value: v, Size: size}
}

// dictMap is the layout of ManyElementAsyncLocalValueMap, which is a
// Dictionary<IAsyncLocal, object>: its base class's entries array and the
// Entry struct's key and value.
func dictMap(rt Runtime) (Map, bool) {
	cid, ok := asyncLocalInstance(rt, []string{dictionary})
	if !ok {
		return Map{}, false
	}
	fields, _, err := rt.Fields(cid)
	if err != nil {
		return Map{}, false
	}
	return DictLayout(fields, pairOf(rt, []string{dictionary, "Entry"}))
}
