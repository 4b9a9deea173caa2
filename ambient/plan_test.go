package ambient

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// fakeClass is one loaded class of fakeRuntime.
type fakeClass struct {
	id     uint64
	fields []Field
	tokens map[string]uint32
	size   uint32
	static uint64 // s_current's address; 0: not initialised
}

// fakeRuntime is a runtime whose classes are a table, and whose one
// module (1) defines the generic types defs names (by their chain joined
// with '/'); instances over <IAsyncLocal, object> are loaded for the
// TypeDefs instances lists.
type fakeRuntime struct {
	classes   map[string]fakeClass
	defs      map[string]uint32 // chain -> TypeDef
	instances map[uint32]string // TypeDef -> class name in classes
	noStrings bool
	asked     int // Class questions
}

func (r *fakeRuntime) byID(id uint64) (fakeClass, bool) {
	for _, c := range r.classes {
		if c.id == id {
			return c, true
		}
	}
	return fakeClass{}, false
}

func (r *fakeRuntime) Class(name string) (uint64, error) {
	r.asked++
	if c, ok := r.classes[name]; ok {
		return c.id, nil
	}
	return 0, fmt.Errorf("%s not loaded", name)
}

func (r *fakeRuntime) Fields(id uint64) ([]Field, map[string]uint32, error) {
	if c, ok := r.byID(id); ok {
		return c.fields, c.tokens, nil
	}
	return nil, nil, errors.New("no such class")
}

func (r *fakeRuntime) Size(id uint64) (uint32, error) {
	if c, ok := r.byID(id); ok {
		return c.size, nil
	}
	return 0, errors.New("no such class")
}

func (r *fakeRuntime) Static(id uint64, field uint32) (uint64, error) {
	if c, ok := r.byID(id); ok && c.static != 0 && c.tokens[ActivityCurrent] == field {
		return c.static, nil
	}
	return 0, errors.New("HRESULT 0x80131363")
}

func (r *fakeRuntime) Definition(chain []string) (uint64, uint32, bool) {
	td, ok := r.defs[strings.Join(chain, "/")]
	return 1, td, ok
}

func (r *fakeRuntime) Instantiate(module uint64, td uint32, args []uint64) (uint64, error) {
	key, obj := r.classes["System.Threading.IAsyncLocal"], r.classes["System.Object"]
	if module != 1 || len(args) != 2 || args[0] != key.id || args[1] != obj.id {
		return 0, fmt.Errorf("no TypeDef %#x in module %d over %v", td, module, args)
	}
	name, ok := r.instances[td]
	if !ok {
		return 0, errors.New("HRESULT 0x80131363")
	}
	return r.classes[name].id, nil
}

func (r *fakeRuntime) StringLayout() (uint32, uint32, error) {
	if r.noStrings {
		return 0, 0, errors.New("GetStringLayout2 failed")
	}
	return 8, 12, nil
}

const mapNest = "System.Threading.AsyncLocalValueMap+"

// net8 is a runtime laid out as .NET 8 names its fields (offsets made up).
func net8() *fakeRuntime {
	return &fakeRuntime{
		classes: map[string]fakeClass{
			"System.Threading.Thread": {id: 1, fields: fields("_executionContext", 8, "_DONT_USE_InternalThread", 16),
				tokens: map[string]uint32{"t_currentThread": 0x04000010}},
			"System.Threading.ExecutionContext": {id: 2, fields: fields("m_localValues", 8, "m_isFlowSuppressed", 24)},
			"System.Diagnostics.Activity": {id: 3, static: 0x7f00, tokens: map[string]uint32{"s_current": 0x04000020},
				fields: fields("_traceId", 8, "_spanId", 16, "_w3CIdFlags", 24, "_parentSpanId", 32, "<OperationName>k__BackingField", 40,
					"<Source>k__BackingField", 48, "<Parent>k__BackingField", 56)},
			"System.Diagnostics.ActivitySource":        {id: 4, fields: fields("<Name>k__BackingField", 8)},
			mapNest + "EmptyAsyncLocalValueMap":        {id: 10},
			mapNest + "OneElementAsyncLocalValueMap":   {id: 11, fields: fields("_item0", 8)},
			mapNest + "MultiElementAsyncLocalValueMap": {id: 12, fields: fields("_keyValues", 8)},
			mapNest + "ManyElementAsyncLocalValueMap":  {id: 13},
			"System.Threading.IAsyncLocal":             {id: 30},
			"System.Object":                            {id: 31},
			"KeyValuePair":                             {id: 20, fields: fields("key", 0, "value", 8), size: 16},
			"Dictionary":                               {id: 21, fields: fields("_buckets", 8, "_entries", 16)},
			"Entry":                                    {id: 22, fields: fields("value", 0, "key", 8, "hashCode", 16), size: 24},
		},
		defs: map[string]uint32{
			"System.Collections.Generic.KeyValuePair`2":     0x02000100,
			"System.Collections.Generic.Dictionary`2":       0x02000200,
			"System.Collections.Generic.Dictionary`2/Entry": 0x02000201,
		},
		instances: map[uint32]string{0x02000100: "KeyValuePair", 0x02000200: "Dictionary", 0x02000201: "Entry"},
	}
}

func without(r *fakeRuntime, class string) *fakeRuntime {
	delete(r.classes, class)
	return r
}

// errorWanted fails the test unless err is the error want says ("" for
// none), and reports whether it was a wanted error: the case ends there.
func errorWanted(t *testing.T, what string, err error, want string) bool {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return false
	}
	if err == nil || err.Error() != want {
		t.Fatalf("%s: %v; want error %q", what, err, want)
	}
	return true
}

func TestBuild(t *testing.T) {
	thread := Thread{Class: 1, Field: 0x04000010, Context: 8, Native: 16, Locals: 8, FlowSuppressed: 24}
	pair := Pair{Key: 0, Value: 8, Size: 16}
	full := Plan{
		Thread: thread, Current: 0x7f00, ActivityClass: 3,
		Activity:   Activity{TraceID: 8, SpanID: 16, Flags: 24, ParentSpanID: 32, Name: 40, Source: 48, Parent: 56},
		SourceName: 8, StringLength: 8, StringChars: 12,
		Maps: []MapClass{
			{Class: 10, Map: Map{Kind: MapEmpty}},
			{Class: 11, Map: Map{Kind: MapInline, Keys: []uint32{8}, Vals: []uint32{16}}},
			{Class: 12, Map: Map{Kind: MapArray, Array: 8, Pair: pair}},
			{Class: 13, Map: Map{Kind: MapDict, Array: 16, Pair: Pair{Key: 8, Value: 0, Size: 24}}},
		},
	}
	noSource := full
	noSource.Activity.Source, noSource.SourceName = 0, 0
	noPair := full
	noPair.Maps = []MapClass{full.Maps[0], {Class: 11}, {Class: 12}, full.Maps[3]}
	uninitialised := net8()
	c := uninitialised.classes["System.Diagnostics.Activity"]
	c.static = 0
	uninitialised.classes["System.Diagnostics.Activity"] = c
	noPairRT := net8()
	delete(noPairRT.instances, 0x02000100) // defined, not instantiated
	noPairDef := net8()
	delete(noPairDef.defs, "System.Collections.Generic.KeyValuePair`2")
	noDict := net8()
	delete(noDict.instances, 0x02000200)
	noEntry := net8()
	delete(noEntry.defs, "System.Collections.Generic.Dictionary`2/Entry")
	noDictPlan := full
	noDictPlan.Maps = []MapClass{full.Maps[0], full.Maps[1], full.Maps[2], {Class: 13}}
	noKeys := noPair
	noKeys.Maps = []MapClass{full.Maps[0], {Class: 11}, {Class: 12}, {Class: 13}}
	noStrings := net8()
	noStrings.noStrings = true
	for _, tc := range []struct {
		name string
		rt   *fakeRuntime
		want Plan
		err  string
	}{
		{"net8", net8(), full, ""},
		// The Source is read only with ActivitySource's name.
		{"no ActivitySource", without(net8(), "System.Diagnostics.ActivitySource"), noSource, ""},
		// Maps of KeyValuePairs are known and not read without its layout.
		{"no KeyValuePair", noPairRT, noPair, ""},
		{"KeyValuePair not defined", noPairDef, noPair, ""},
		{"no Dictionary", noDict, noDictPlan, ""},
		{"no Dictionary's Entry", noEntry, noDictPlan, ""},
		// The maps' instances are over <IAsyncLocal, object>: without
		// either class, no map with pairs is read.
		{"no IAsyncLocal", without(net8(), "System.Threading.IAsyncLocal"), noKeys, ""},
		{"no Object", without(net8(), "System.Object"), noKeys, ""},
		{"no Activity", without(net8(), "System.Diagnostics.Activity"), Plan{}, "System.Diagnostics.Activity not loaded"},
		{"Activity not initialised", uninitialised, Plan{}, "Activity.s_current: HRESULT 0x80131363 (class not initialised yet)"},
		{"no Thread", without(net8(), "System.Threading.Thread"), Plan{}, "System.Threading.Thread not loaded"},
		{"no String layout", noStrings, Plan{}, "GetStringLayout2 failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Build(tc.rt)
			if errorWanted(t, "Build", err, tc.err) {
				return
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Build =\n%+v\nwant\n%+v", got, tc.want)
			}
		})
	}
}

func TestBuildThread(t *testing.T) {
	noSuppressed := net8()
	noSuppressed.classes["System.Threading.ExecutionContext"] = fakeClass{id: 2, fields: fields("m_localValues", 8)}
	noNative := net8()
	noNative.classes["System.Threading.Thread"] = fakeClass{id: 1, fields: fields("_executionContext", 8),
		tokens: map[string]uint32{"t_currentThread": 0x04000010}}
	noStatic := net8()
	noStatic.classes["System.Threading.Thread"] = fakeClass{id: 1, fields: fields("_executionContext", 8, "_DONT_USE_InternalThread", 16)}
	for _, tc := range []struct {
		name string
		rt   *fakeRuntime
		want Thread
		err  string
	}{
		{"net8", net8(), Thread{Class: 1, Field: 0x04000010, Context: 8, Native: 16, Locals: 8, FlowSuppressed: 24}, ""},
		// Flow suppression is optional: without it no flow is suppressed.
		{"no m_isFlowSuppressed", noSuppressed, Thread{Class: 1, Field: 0x04000010, Context: 8, Native: 16, Locals: 8}, ""},
		{"no runtime Thread", noNative, Thread{}, "Thread has no field _DONT_USE_InternalThread"},
		{"no t_currentThread", noStatic, Thread{}, "Thread has no t_currentThread"},
		{"no ExecutionContext", without(net8(), "System.Threading.ExecutionContext"), Thread{}, "System.Threading.ExecutionContext not loaded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := BuildThread(tc.rt)
			if errorWanted(t, "BuildThread", err, tc.err) {
				return
			}
			if got != tc.want {
				t.Errorf("BuildThread = %+v; want %+v", got, tc.want)
			}
		})
	}
}

// fakeModules lists modules and their assemblies, counting the questions.
type fakeModules struct {
	asm   map[uint64]string
	asked int
}

func (m *fakeModules) Modules() []uint64 {
	var out []uint64
	for id := range m.asm {
		out = append(out, id)
	}
	return out
}

func (m *fakeModules) Assembly(id uint64) (string, error) {
	m.asked++
	return m.asm[id], nil
}

func TestFinder(t *testing.T) {
	rt := without(net8(), "System.Diagnostics.Activity")
	mods := &fakeModules{asm: map[uint64]string{1: "System.Private.CoreLib", 2: "Shop"}}
	now := time.Unix(1000, 0)
	var published []Plan
	var logged []string
	f := &Finder{Runtime: rt, Modules: mods, Publish: func(p Plan) { published = append(published, p) },
		Debugf: func(format string, args ...any) { logged = append(logged, fmt.Sprintf(format, args...)) },
		Now:    func() time.Time { return now }}
	thread, _ := BuildThread(rt)

	// Before DiagnosticSource is loaded: the thread's part, once.
	f.Refresh(false)
	f.Refresh(false)
	if want := []Plan{{Thread: thread}}; !reflect.DeepEqual(published, want) {
		t.Fatalf("before DiagnosticSource: published %+v; want %+v", published, want)
	}
	if mods.asked != 2 {
		t.Errorf("assemblies asked %d times; want once per module (2)", mods.asked)
	}

	// DiagnosticSource loaded, no Activity yet: an attempt fails, and the
	// next ones wait RetryEvery unless Activity's own code is compiling.
	mods.asm[3] = "System.Diagnostics.DiagnosticSource"
	f.Refresh(false)
	asked := rt.asked
	f.Refresh(false)
	if rt.asked != asked {
		t.Errorf("an attempt within RetryEvery of a failure asked the runtime")
	}
	f.Refresh(true)
	if rt.asked == asked {
		t.Errorf("Activity's code compiling: no attempt")
	}
	if len(logged) != 1 || !strings.Contains(logged[0], "System.Diagnostics.Activity not loaded") {
		t.Errorf("logged %q; want the reason once", logged)
	}

	// The app starts an Activity: the whole plan, then nothing more.
	rt.classes["System.Diagnostics.Activity"] = net8().classes["System.Diagnostics.Activity"]
	now = now.Add(RetryEvery)
	f.Refresh(false)
	f.Refresh(true)
	if len(published) != 2 || published[1].Current != 0x7f00 {
		t.Fatalf("published %+v; want the thread's part, then the whole plan", published)
	}
}
