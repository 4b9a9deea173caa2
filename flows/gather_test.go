package flows

import (
	"errors"
	"strings"
	"testing"
)

// fakeModule is a module's metadata as a table.
type fakeModule struct {
	attrs      map[uint32]map[string]string // MethodDef → attribute → state machine name
	rawBlob    []byte                       // returned for every attribute, when set
	nested     map[string]uint32
	added      map[uint32]Added
	enclosing  map[uint32]uint32
	generic    map[uint32][]string
	genericErr error
	layout     map[uint32]uint32 // field token → offset
	layoutErr  error
	class      uint64   // the class ClassOf loads for a type
	loaded     []uint32 // the types ClassOf was asked for
	tracked    map[uint32]bool
	bodies     map[uint32][]byte // MethodDef → body
	ctorOf     map[uint32]uint32 // constructor token → its TypeDef
	sealed     map[uint32]bool   // the sealed classes
}

func blob(name string) []byte { return append([]byte{1, 0, byte(len(name))}, name...) }

func (f *fakeModule) AttributeBlob(token uint32, attr string) ([]byte, bool) {
	name, ok := f.attrs[token][attr]
	if !ok {
		return nil, false
	}
	if f.rawBlob != nil {
		return f.rawBlob, true
	}
	return blob(name), true
}
func (f *fakeModule) FindNested(name string) (uint32, bool) { td, ok := f.nested[name]; return td, ok }
func (f *fakeModule) Added(td uint32) (Added, error)        { return f.added[td], nil }
func (f *fakeModule) EnclosingClass(td uint32) uint32       { return f.enclosing[td] }
func (f *fakeModule) GenericParams(owner uint32) ([]string, error) {
	return f.generic[owner], f.genericErr
}
func (f *fakeModule) IteratorTracked(td uint32) bool     { return f.tracked[td] }
func (f *fakeModule) ILBody(token uint32) ([]byte, bool) { b, ok := f.bodies[token]; return b, ok }
func (f *fakeModule) ConstructedType(ctor uint32) (uint32, bool) {
	td, ok := f.ctorOf[ctor]
	return td, ok
}
func (f *fakeModule) SealedClass(td uint32) bool { return f.sealed[td] }
func (f *fakeModule) ClassOf(td uint32) (uint64, error) {
	if f.class == 0 {
		return 0, errors.New("no class")
	}
	f.loaded = append(f.loaded, td)
	return f.class, nil
}
func (f *fakeModule) Layout(cid uint64) ([]FieldAt, error) {
	if f.layoutErr != nil {
		return nil, f.layoutErr
	}
	var out []FieldAt
	for t, o := range f.layout {
		out = append(out, FieldAt{t, o})
	}
	return out, nil
}

const (
	kickoffTok       = 0x06000001
	programTD        = 0x02000002
	smTD             = 0x02000003 // Program+<RunAsync>d__0
	closureTD        = 0x02000004 // Program+<>c__DisplayClass1_0
	iterTD           = 0x02000005 // Program+<Items>d__2
	genericSMTD      = 0x02000006 // Repo`1+<GetAsync>d__1`1
	genericClosureTD = 0x02000007
	genericIterTD    = 0x02000008
	mcsIterTD        = 0x02000009 // Program+<Items>c__Iterator0: no attribute names it
	otherTD          = 0x0200000a // Other+<Items>c__Iterator0, nested elsewhere
	mcsIterTok       = 0x06000010
	mcsIterCtor      = 0x06000020
	otherCtor        = 0x06000021
	plainCtor        = 0x06000022 // a list's, from another type
)

// mcsIterator is an mcs iterator method's body (tiny header): newobj its
// enumerator, store the argument and the start state, return it.
func mcsIterator(ctors ...uint32) []byte {
	var il []byte
	for _, c := range ctors {
		il = append(il, 0x73, byte(c), byte(c>>8), byte(c>>16), byte(c>>24), 0x26) // newobj, pop
	}
	c := uint32(mcsIterCtor)
	il = append(il, 0x73, byte(c), byte(c>>8), byte(c>>16), byte(c>>24),
		0x25, 0x02, 0x7d, 0x01, 0x00, 0x00, 0x04, // dup, ldarg.0, stfld
		0x25, 0x1f, 0xfe, 0x7d, 0x02, 0x00, 0x00, 0x04, // dup, ldc.i4.s -2, stfld
		0x2a) // ret
	return append([]byte{byte(len(il)<<2 | 2)}, il...)
}

func module() *fakeModule {
	return &fakeModule{
		attrs: map[uint32]map[string]string{
			kickoffTok:     {AsyncStateMachineAttribute: "Program+<RunAsync>d__0"},
			kickoffTok + 1: {IteratorStateMachineAttribute: "Program+<Items>d__2"},
			kickoffTok + 2: {AsyncStateMachineAttribute: "Program+<Gone>d__9"},
		},
		nested: map[string]uint32{"Program+<RunAsync>d__0": smTD, "Program+<Items>d__2": iterTD},
		added: map[uint32]Added{
			smTD:             {StateMachineType: {0x04000010, 0x04000011}},
			closureTD:        {ClosureType: {0x04000020, 0x04000021}},
			iterTD:           {IteratorType: {0x04000030}},
			mcsIterTD:        {IteratorType: {0x04000070}},
			otherTD:          {IteratorType: {0x04000080}},
			genericSMTD:      {StateMachineType: {0x04000040}},
			genericClosureTD: {ClosureType: {0x04000060}},
			genericIterTD:    {IteratorType: {0x04000050}},
		},
		enclosing: map[uint32]uint32{mcsIterTD: programTD, otherTD: 0x0200000b, smTD: programTD, iterTD: programTD, genericSMTD: programTD, genericIterTD: programTD},
		generic:   map[uint32][]string{genericSMTD: {"T"}, genericClosureTD: {"T"}, genericIterTD: {"T"}},
		layout:    map[uint32]uint32{0x04000010: 24, 0x04000011: 32, 0x04000020: 8, 0x04000021: 16, 0x04000030: 40, 0x04000040: 8},
		class:     0x7f00,
		tracked:   map[uint32]bool{iterTD: true, genericIterTD: true},
		bodies:    map[uint32][]byte{mcsIterTok: mcsIterator(plainCtor, otherCtor)},
		ctorOf:    map[uint32]uint32{mcsIterCtor: mcsIterTD, otherCtor: otherTD, plainCtor: programTD},
		sealed:    map[uint32]bool{smTD: true, closureTD: true, iterTD: true, genericIterTD: true},
	}
}

func TestGather(t *testing.T) {
	tests := []struct {
		name    string
		m       Method
		mod     func(*fakeModule)
		want    Roles
		wantErr string
	}{
		{"a task builder's completion", Method{Name: "SetResult", Builder: true}, nil, Roles{Role: Complete}, ""},
		{"an async method whose state machine has the fields",
			Method{Name: "RunAsync", Token: kickoffTok, Owner: programTD}, nil,
			Roles{Role: Kickoff, Owner: programTD}, ""},
		{"an async method whose state machine has none (native code)",
			Method{Name: "RunAsync", Token: kickoffTok, Owner: programTD}, func(f *fakeModule) { delete(f.added, smTD) },
			Roles{}, ""},
		{"the state machine's step",
			Method{Name: "MoveNext", Owner: smTD, HasThis: true}, nil,
			Roles{Role: MoveNext, Offsets: [MaxFlowFields]uint16{24, 32}, Loop: true, Owner: programTD}, ""},
		{"the step of shared generic code finds its fields per call",
			Method{Name: "MoveNext", Display: "G.MoveNext", Owner: genericSMTD, HasThis: true}, nil,
			Roles{Role: MoveNext, Shared: true, Fields: [MaxFlowFields]uint32{0x04000040}, Loop: true, Owner: programTD}, ""},
		{"a type whose generic parameters cannot be read",
			Method{Name: "MoveNext", Display: "G.MoveNext", Owner: genericSMTD, HasThis: true}, func(f *fakeModule) { f.genericErr = errors.New("bad table") },
			Roles{}, "G.MoveNext: generic parameters: bad table"},
		{"a closure of shared generic code links nothing",
			Method{Name: "<Run>b__0", Display: "G.<Run>b__0", Owner: genericClosureTD, HasThis: true}, nil,
			Roles{}, "G.<Run>b__0: shared generic code"},
		{"the step of a sealed class in shared generic code finds its class from its object",
			Method{Name: "MoveNext", Display: "G.MoveNext", Owner: genericSMTD, HasThis: true}, func(f *fakeModule) { f.sealed[genericSMTD] = true },
			Roles{Role: MoveNext, Shared: true, ObjectThis: true, Fields: [MaxFlowFields]uint32{0x04000040}, Loop: true, Owner: programTD}, ""},
		{"an iterator's step in shared generic code",
			Method{Name: "MoveNext", Owner: genericIterTD, HasThis: true}, nil,
			Roles{Role: MoveNext | IterStep, Shared: true, ObjectThis: true, Fields: [MaxFlowFields]uint32{0x04000050}, Owner: programTD}, ""},
		{"an iterator's step in shared generic code, its class not sealed",
			Method{Name: "MoveNext", Owner: genericIterTD, HasThis: true}, func(f *fakeModule) { delete(f.sealed, genericIterTD) },
			Roles{Role: MoveNext | IterStep, Shared: true, Fields: [MaxFlowFields]uint32{0x04000050}, Owner: programTD}, ""},
		{"the step of an exact generic instantiation",
			Method{Name: "MoveNext", Owner: genericSMTD, ClassID: 0x9000, HasThis: true}, nil,
			Roles{Role: MoveNext, Offsets: [MaxFlowFields]uint16{8}, Loop: true, Owner: programTD}, ""},
		{"a closure's constructor",
			Method{Name: ".ctor", Owner: closureTD, HasThis: true}, nil,
			Roles{Role: ClosureCtor, Offsets: [MaxFlowFields]uint16{8, 16}, Closure: 0x7f00}, ""},
		{"a closure's lambda",
			Method{Name: "<Main>b__0", Owner: closureTD, HasThis: true}, nil,
			Roles{Role: ClosureBody, Offsets: [MaxFlowFields]uint16{8, 16}, Closure: 0x7f00}, ""},
		{"a closure whose fields are not in the layout",
			Method{Name: ".ctor", Display: "C..ctor", Owner: closureTD, HasThis: true}, func(f *fakeModule) { delete(f.layout, 0x04000021) },
			Roles{}, "C..ctor: 1 of the type's 2 added fields in its layout"},
		{"an iterator method", Method{Name: "Items", Token: kickoffTok + 1, Owner: programTD}, nil,
			Roles{Role: Kickoff, Owner: programTD, Iterator: iterTD}, ""},
		{"an iterator method no attribute names, by the enumerator it constructs",
			Method{Name: "Items", Token: mcsIterTok, Owner: programTD, ReturnType: "System.Collections.Generic.IEnumerable<Int32>"}, nil,
			Roles{Role: Kickoff, Owner: programTD, Iterator: mcsIterTD}, ""},
		{"a method that constructs an enumerator but returns none",
			Method{Name: "Items", Token: mcsIterTok, Owner: programTD, ReturnType: "Int32"}, nil, Roles{}, ""},
		{"an enumerator without the fields (native code)",
			Method{Name: "Items", Token: mcsIterTok, Owner: programTD, ReturnType: "IEnumerator"}, func(f *fakeModule) { delete(f.added, mcsIterTD) },
			Roles{}, ""},
		{"a body that cannot be read",
			Method{Name: "Items", Token: mcsIterTok, Owner: programTD, ReturnType: "IEnumerable"}, func(f *fakeModule) { f.bodies[mcsIterTok] = []byte{0x0e, 0x73} },
			Roles{}, ""},
		{"an enumerator nested in another type is not this method's",
			Method{Name: "Items", Token: mcsIterTok, Owner: programTD, ReturnType: "IEnumerable"}, func(f *fakeModule) { f.bodies[mcsIterTok] = mcsIterator(); f.ctorOf[mcsIterCtor] = otherTD },
			Roles{}, ""},
		{"a traced iterator's step", Method{Name: "MoveNext", Owner: iterTD, HasThis: true}, nil,
			Roles{Role: MoveNext | IterStep, Offsets: [MaxFlowFields]uint16{40}, Owner: programTD}, ""},
		{"a traced iterator's Dispose, explicitly implemented",
			Method{Name: "System.IDisposable.Dispose", Owner: iterTD, HasThis: true}, nil,
			Roles{Role: MoveNext | IterEnd, Offsets: [MaxFlowFields]uint16{40}, Owner: programTD}, ""},
		{"an untraced iterator's step", Method{Name: "MoveNext", Owner: iterTD, HasThis: true}, func(f *fakeModule) { f.tracked = nil },
			Roles{}, ""},
		{"a state machine the module lacks",
			Method{Name: "Gone", Display: "P.Gone", Token: kickoffTok + 2, Owner: programTD}, nil,
			Roles{}, `P.Gone: state machine "Program+<Gone>d__9" not found`},
		{"a malformed attribute",
			Method{Name: "RunAsync", Display: "P.RunAsync", Token: kickoffTok, Owner: programTD}, func(f *fakeModule) { f.rawBlob = []byte{1} },
			Roles{}, "P.RunAsync: state machine attribute"},
		{"an ordinary method", Method{Name: "Work", Owner: programTD, HasThis: true}, nil, Roles{}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mod := module()
			if tc.mod != nil {
				tc.mod(mod)
			}
			got, err := Gather(tc.m, mod)
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("error %v, want %q", err, tc.wantErr)
			}
			if got != tc.want {
				t.Errorf("Gather = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// The added fields are found in the layout of the method's class, loaded
// from its TypeDef when the method has none; an offset past 16 bits is
// not one the hooks can keep.
func TestFieldOffsets(t *testing.T) {
	toks := []uint32{0x04000010, 0x04000011}
	for _, c := range []struct {
		name    string
		cid     uint64
		edit    func(f *fakeModule)
		off     [MaxFlowFields]uint16
		class   uint64
		loaded  int
		wantErr string
	}{
		{"the method's class", 0x9000, nil, [MaxFlowFields]uint16{24, 32}, 0x9000, 0, ""},
		{"its TypeDef's class, loaded", 0, nil, [MaxFlowFields]uint16{24, 32}, 0x7f00, 1, ""},
		{"no class", 0, func(f *fakeModule) { f.class = 0 }, [MaxFlowFields]uint16{}, 0, 0, "no class"},
		{"no layout", 0x9000, func(f *fakeModule) { f.layoutErr = errors.New("GetClassLayout: HRESULT 0x80131365") },
			[MaxFlowFields]uint16{}, 0, 0, "GetClassLayout: HRESULT 0x80131365"},
		{"a field past 16 bits", 0x9000, func(f *fakeModule) { f.layout[0x04000011] = 1 << 16 },
			[MaxFlowFields]uint16{}, 0, 0, "1 of the type's 2 added fields in its layout"},
	} {
		f := module()
		if c.edit != nil {
			c.edit(f)
		}
		off, cid, err := fieldOffsets(f, c.cid, smTD, toks)
		if (err == nil) != (c.wantErr == "") || (err != nil && err.Error() != c.wantErr) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.wantErr)
			continue
		}
		if err == nil && (off != c.off || cid != c.class) {
			t.Errorf("%s: %v in %#x, want %v in %#x", c.name, off, cid, c.off, c.class)
		}
		if len(f.loaded) != c.loaded {
			t.Errorf("%s: %d classes loaded, want %d", c.name, len(f.loaded), c.loaded)
		}
	}
}
