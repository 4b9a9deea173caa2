package naming

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// fakeMeta is one module's metadata.
type fakeMeta struct {
	methods   map[uint32]fakeMethod
	typeDefs  map[uint32]string
	enclosing map[uint32]uint32
	generics  map[uint32][]string
	params    map[uint32][]ParamRow
}

type fakeMethod struct {
	name  string
	owner uint32
	sig   []byte
}

func (m fakeMeta) MethodProps(md uint32) (string, uint32, []byte, error) {
	x, ok := m.methods[md]
	if !ok {
		return "", 0, nil, fmt.Errorf("no method %#x", md)
	}
	return x.name, x.owner, x.sig, nil
}
func (m fakeMeta) TypeDefName(td uint32) (string, error) {
	if n, ok := m.typeDefs[td]; ok {
		return n, nil
	}
	return "", fmt.Errorf("no typedef %#x", td)
}
func (m fakeMeta) EnclosingClass(td uint32) uint32              { return m.enclosing[td] }
func (m fakeMeta) TypeRefName(uint32) (string, uint32, error)   { return "", 0, fmt.Errorf("none") }
func (m fakeMeta) TypeSpecBlob(uint32) ([]byte, error)          { return nil, fmt.Errorf("none") }
func (m fakeMeta) Params(md uint32) ([]ParamRow, error)         { return m.params[md], nil }
func (m fakeMeta) GenericParams(owner uint32) ([]string, error) { return m.generics[owner], nil }

type fakeRuntime struct {
	funcs   map[uint64]Function
	classes map[uint64]Class
	mods    map[uint64]*Module
}

func (r fakeRuntime) Function(id uint64) (Function, error) {
	if f, ok := r.funcs[id]; ok {
		return f, nil
	}
	return Function{}, fmt.Errorf("no function %#x", id)
}
func (r fakeRuntime) Class(id uint64) (Class, error) {
	if c, ok := r.classes[id]; ok {
		return c, nil
	}
	return Class{}, fmt.Errorf("no class %#x", id)
}
func (r fakeRuntime) Module(id uint64) (*Module, error) {
	if m, ok := r.mods[id]; ok {
		return m, nil
	}
	return nil, fmt.Errorf("no module %#x", id)
}

func TestResolver(t *testing.T) {
	const (
		core, shop                    = 1, 2
		tdRepo, tdLine, tdCart, tdInt = 0x02000010, 0x02000011, 0x02000012, 0x02000001
		tdCanon, tdItem, tdString     = 0x02000002, 0x02000013, 0x02000003
		clsInt, clsCanon, clsItem     = 100, 101, 102
		clsRepoCanon, clsRepoItem     = 200, 201
		clsString, clsArr             = 103, 104
		clsEnum, clsEnumOdd           = 300, 301 // an enumerator nested in Repo`1, for Find<K>
	)
	shopMeta := fakeMeta{
		typeDefs:  map[uint32]string{tdRepo: "Acme.Shop.Repo`1", tdLine: "Line", tdCart: "Acme.Shop.Cart", tdItem: "Acme.Shop.Item"},
		enclosing: map[uint32]uint32{tdLine: tdCart},
		generics:  map[uint32][]string{tdRepo: {"T"}, 0x06000002: {"K"}},
		methods: map[uint32]fakeMethod{
			// Int32 Qty(Int32 q)
			0x06000001: {"Qty", tdLine, []byte{0x20, 0x01, 0x08, 0x08}},
			// T Find<K>(K key)
			0x06000002: {"Find", tdRepo, []byte{0x30, 0x01, 0x01, 0x13, 0x00, 0x1e, 0x00}},
		},
		params: map[uint32][]ParamRow{0x06000001: {{Seq: 1, Name: "q"}}, 0x06000002: {{Seq: 0, Name: ""}, {Seq: 1, Name: "key"}}},
	}
	coreMeta := fakeMeta{typeDefs: map[uint32]string{tdInt: "System.Int32", tdCanon: "System.__Canon", tdString: "System.String"}}
	rt := fakeRuntime{
		mods: map[uint64]*Module{
			shop: {Path: "/app/bin/Shop.dll", Assembly: "Shop", Meta: shopMeta},
			core: {Path: "/rt/System.Private.CoreLib.dll", Assembly: "System.Private.CoreLib", Meta: coreMeta},
		},
		classes: map[uint64]Class{
			clsInt: {Module: core, Token: tdInt}, clsCanon: {Module: core, Token: tdCanon},
			clsString:    {Module: core, Token: tdString},
			clsItem:      {Module: shop, Token: tdItem},
			clsRepoCanon: {Module: shop, Token: tdRepo, TypeArgs: []uint64{clsCanon}},
			clsRepoItem:  {Module: shop, Token: tdRepo, TypeArgs: []uint64{clsItem}},
			clsArr:       {IsArray: true, ElemCls: clsString, Rank: 2},
			clsEnum:      {Module: shop, Token: 0x02000020, TypeArgs: []uint64{clsItem, clsInt}},
			clsEnumOdd:   {Module: shop, Token: 0x02000020, TypeArgs: []uint64{clsItem}},
		},
		funcs: map[uint64]Function{
			10: {Class: 0, Module: shop, Token: 0x06000001},
			11: {Class: clsRepoCanon, Module: shop, Token: 0x06000002, TypeArgs: []uint64{clsInt}},
			12: {Class: 0, Module: shop, Token: 0x06000002, TypeArgs: []uint64{clsCanon}},
		},
	}
	r := NewResolver(rt)
	findMeta := MetaForm{"Acme.Shop.Repo`1", "Find", "!0", []string{"!!0"}}

	tests := []struct {
		name       string
		fid, class uint64
		args       []uint64
		fn, params string
		ret        string
		shared     bool
		selectName string
		meta       MetaForm // the same whatever the instantiation
	}{
		{"nested type", 10, 0, nil, "Acme.Shop.Cart.Line.Qty", "Int32 q", "Int32", false, "Acme.Shop.Cart.Line.Qty", MetaForm{"Acme.Shop.Cart+Line", "Qty", "System.Int32", []string{"System.Int32"}}},
		{"shared class, value-type method arg", 11, 0, nil, "Acme.Shop.Repo<T>.Find<Int32>", "Int32 key", "T", true, "Acme.Shop.Repo.Find", findMeta},
		{"exact from frame", 11, clsRepoItem, []uint64{clsInt}, "Acme.Shop.Repo<Acme.Shop.Item>.Find<Int32>", "Int32 key", "Acme.Shop.Item", false, "Acme.Shop.Repo.Find", findMeta},
		{"class unknown without frame", 12, 0, nil, "Acme.Shop.Repo<T>.Find<K>", "K key", "T", true, "Acme.Shop.Repo.Find", findMeta},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := r.Method(tt.fid, tt.class, tt.args)
			if err != nil {
				t.Fatal(err)
			}
			if m.FunctionName != tt.fn || m.Params != tt.params || m.ReturnType != tt.ret || m.Shared != tt.shared || m.SelectName != tt.selectName {
				t.Errorf("got %q (%q) -> %q shared=%v select=%q", m.FunctionName, m.Params, m.ReturnType, m.Shared, m.SelectName)
			}
			if m.Module != "Shop.dll" || m.Assembly != "Shop" {
				t.Errorf("module %q assembly %q", m.Module, m.Assembly)
			}
			if mf, err := r.MetadataForm(m); err != nil || !reflect.DeepEqual(mf, tt.meta) {
				t.Errorf("metadata form %+v (%v), want %+v", mf, err, tt.meta)
			}
		})
	}
	if got := r.ClassName(clsArr); got != "String[,]" {
		t.Errorf("array class name %q", got)
	}
	if got := r.ClassName(clsRepoItem); got != "Acme.Shop.Repo<Acme.Shop.Item>" {
		t.Errorf("generic class name %q", got)
	}
	if _, err := r.Method(999, 0, nil); err == nil {
		t.Error("unknown function resolved")
	}
	// An enumeration of an iterator method is named from its enumerator's
	// type arguments: the type's, then the method's; the declared
	// parameters when they cannot be told, whatever instantiation the
	// function is; a method of no generic type as it is.
	for _, tt := range []struct {
		fid, class uint64
		want       string
	}{
		{12, clsEnum, "Acme.Shop.Repo<Acme.Shop.Item>.Find<Int32>"},
		{11, clsEnum, "Acme.Shop.Repo<Acme.Shop.Item>.Find<Int32>"},
		{11, clsEnumOdd, "Acme.Shop.Repo<T>.Find<K>"},
		{11, 0, "Acme.Shop.Repo<T>.Find<K>"},
		{10, clsEnum, "Acme.Shop.Cart.Line.Qty"},
	} {
		m, err := r.Enumeration(tt.fid, tt.class)
		if err != nil || m.FunctionName != tt.want {
			t.Errorf("Enumeration(%d, %d) = %v (%v), want %s", tt.fid, tt.class, m, err, tt.want)
		}
	}
	if _, err := r.Enumeration(999, clsEnum); err == nil {
		t.Error("unknown iterator method named")
	}
}

// attrMeta is metadata that tells which tokens carry an attribute.
type attrMeta struct {
	fakeMeta
	attrs map[uint32]string
}

func (m attrMeta) HasAttribute(token uint32, attr string) bool { return m.attrs[token] == attr }

// Lambdas and local functions read as the user wrote them, when metadata
// says the compiler made them (on the method or its type), with the
// compiled name kept; a name of the same pattern without that is left as
// it is.
func TestResolverCompilerGenerated(t *testing.T) {
	const (
		tdProgram, tdC, tdStorey, tdPlain = 0x02000002, 0x02000003, 0x02000004, 0x02000005
	)
	sig := []byte{0x20, 0x00, 0x01} // instance void M()
	meta := attrMeta{fakeMeta{
		typeDefs:  map[uint32]string{tdProgram: "Acme.Shop.Program", tdC: "<>c", tdStorey: "<Main>c__AnonStorey0", tdPlain: "Plain"},
		enclosing: map[uint32]uint32{tdC: tdProgram, tdStorey: tdProgram, tdPlain: tdProgram},
		methods: map[uint32]fakeMethod{
			0x06000001: {"<Main>b__0_0", tdC, sig},     // Roslyn, CompilerGenerated on the type
			0x06000002: {"<>m__1", tdStorey, sig},      // mcs closure, on the type
			0x06000003: {"<Main>m__0", tdProgram, sig}, // mcs, on the method
			0x06000004: {"<Main>g__Retry|0_1", tdProgram, sig},
			0x06000005: {"<Main>b__0_0", tdPlain, sig}, // no attribute anywhere
			0x06000006: {"Main", tdProgram, sig},
		},
	}, map[uint32]string{tdC: CompilerGeneratedAttribute, tdStorey: CompilerGeneratedAttribute,
		0x06000003: CompilerGeneratedAttribute, 0x06000004: CompilerGeneratedAttribute}}
	rt := fakeRuntime{
		mods:  map[uint64]*Module{1: {Path: "Shop.exe", Assembly: "Shop", Meta: meta}},
		funcs: map[uint64]Function{},
	}
	for i := uint64(1); i <= 6; i++ {
		rt.funcs[i] = Function{Module: 1, Token: 0x06000000 + uint32(i)}
	}
	r := NewResolver(rt)
	for _, tc := range []struct {
		fid          uint64
		fn, compiled string
	}{
		{1, "Acme.Shop.Program.Main()::lambda#1", "Acme.Shop.Program.<>c.<Main>b__0_0"},
		{2, "Acme.Shop.Program.Main()::lambda#2", "Acme.Shop.Program.<Main>c__AnonStorey0.<>m__1"},
		{3, "Acme.Shop.Program.Main()::lambda#1", "Acme.Shop.Program.<Main>m__0"},
		{4, "Acme.Shop.Program.Main()::Retry", "Acme.Shop.Program.<Main>g__Retry|0_1"},
		{5, "Acme.Shop.Program.Plain.<Main>b__0_0", ""},
		{6, "Acme.Shop.Program.Main", ""},
	} {
		m, err := r.Method(tc.fid, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		if m.FunctionName != tc.fn || m.CompiledName != tc.compiled {
			t.Errorf("function %d: %q (compiled %q), want %q (%q)", tc.fid, m.FunctionName, m.CompiledName, tc.fn, tc.compiled)
		}
		if want := "Acme.Shop.Program"; !strings.HasPrefix(m.SelectName, want) {
			t.Errorf("function %d: select name %q", tc.fid, m.SelectName)
		}
	}
}

// Constructors of compiler-generated nested types are plumbing: told by
// the type's attribute and nesting, not by its name.
func TestPlumbing(t *testing.T) {
	const (
		tdProgram, tdC, tdStorey, tdPlain, tdAnon = 0x02000002, 0x02000003, 0x02000004, 0x02000005, 0x02000006
	)
	meta := attrMeta{fakeMeta{
		typeDefs:  map[uint32]string{tdProgram: "Acme.Shop.Program", tdC: "<>c", tdStorey: "<Main>c__AnonStorey0", tdPlain: "<Main>c__AnonStorey1", tdAnon: "<>f__AnonymousType0`1"},
		enclosing: map[uint32]uint32{tdC: tdProgram, tdStorey: tdProgram, tdPlain: tdProgram},
	}, map[uint32]string{tdC: CompilerGeneratedAttribute, tdStorey: CompilerGeneratedAttribute, tdAnon: CompilerGeneratedAttribute,
		0x06000001: CompilerGeneratedAttribute}}
	for _, tc := range []struct {
		owner uint32
		name  string
		want  bool
	}{
		{tdC, ".cctor", true},       // Roslyn's lambda cache, static
		{tdC, ".ctor", true},        // and its one instance
		{tdStorey, ".ctor", true},   // a closure
		{tdStorey, "<>m__0", false}, // its lambda is named, not hidden
		{tdC, "Invoke", false},      // any other method of such a type
		{tdPlain, ".ctor", false},   // nested, not marked: the user's
		{tdProgram, ".ctor", false}, // not nested
		{tdAnon, ".ctor", false},    // marked, not nested (an anonymous type)
	} {
		if got := Plumbing(meta, tc.owner, tc.name); got != tc.want {
			t.Errorf("Plumbing(%#x, %s) = %v, want %v", tc.owner, tc.name, got, tc.want)
		}
	}
	if Plumbing(meta.fakeMeta, tdC, ".ctor") {
		t.Error("plumbing without an attribute reader")
	}
}

// countingMeta counts TypeDefName reads.
type countingMeta struct {
	fakeMeta
	reads map[uint32]int
	// generics counts GenericParams questions by token.
	generics map[uint32]int
}

func (m countingMeta) GenericParams(owner uint32) ([]string, error) {
	if m.generics != nil {
		m.generics[owner]++
	}
	return m.fakeMeta.GenericParams(owner)
}

func (m countingMeta) TypeDefName(td uint32) (string, error) {
	m.reads[td]++
	return m.fakeMeta.TypeDefName(td)
}

func TestSelectionAndTypeNameCache(t *testing.T) {
	const tdA, tdNested = 0x02000002, 0x02000003
	sig := []byte{0x00, 0x00, 0x01} // static void M()
	// Two modules use the same tokens for different types: the cache is per module.
	one := countingMeta{fakeMeta{
		typeDefs:  map[uint32]string{tdA: "One.A", tdNested: "N`1"},
		enclosing: map[uint32]uint32{tdNested: tdA},
		methods:   map[uint32]fakeMethod{0x06000001: {"M", tdNested, sig}, 0x06000002: {"P", tdA, sig}, 0x06000003: {"R", tdA, sig}},
	}, map[uint32]int{}, map[uint32]int{}}
	two := countingMeta{fakeMeta{
		typeDefs: map[uint32]string{tdA: "Two.B"},
		methods:  map[uint32]fakeMethod{0x06000001: {"Q", tdA, sig}},
	}, map[uint32]int{}, nil}
	rt := fakeRuntime{
		mods: map[uint64]*Module{1: {Path: "One.dll", Assembly: "One", Meta: one}, 2: {Path: "Two.dll", Assembly: "Two", Meta: two}},
		funcs: map[uint64]Function{
			10: {Module: 1, Token: 0x06000001}, 11: {Module: 1, Token: 0x06000002}, 12: {Module: 1, Token: 0x06000003},
			20: {Module: 2, Token: 0x06000001},
		},
	}
	r := NewResolver(rt)
	for _, tt := range []struct {
		fid        uint64
		asm, name  string
		functionFn string
	}{
		{10, "One", "One.A.N.M", "One.A.N.M"},
		{11, "One", "One.A.P", "One.A.P"},
		{12, "One", "One.A.R", "One.A.R"},
		{20, "Two", "Two.B.Q", "Two.B.Q"},
		{10, "One", "One.A.N.M", "One.A.N.M"}, // from the cache
	} {
		s, err := r.Select(tt.fid)
		if err != nil {
			t.Fatal(err)
		}
		if s.Assembly != tt.asm || s.Name != tt.name {
			t.Errorf("Select(%d) = %q %q, want %q %q", tt.fid, s.Assembly, s.Name, tt.asm, tt.name)
		}
		m, err := r.MethodOf(s)
		if err != nil {
			t.Fatal(err)
		}
		want, err := r.Method(tt.fid, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		if m.FunctionName != tt.functionFn || m.FunctionName != want.FunctionName || m.SelectName != want.SelectName ||
			m.Params != want.Params || m.ReturnType != want.ReturnType || m.OwnerToken != want.OwnerToken {
			t.Errorf("MethodOf(Select(%d)) = %+v, Method = %+v", tt.fid, m, want)
		}
	}
	for td, n := range one.reads {
		if n != 1 {
			t.Errorf("module One: TypeDef %#x read %d times, want once", td, n)
		}
	}
	// Each method of a type asks for its type's generic parameters: read once.
	for _, td := range []uint32{tdA, tdNested} {
		if n := one.generics[td]; n != 1 {
			t.Errorf("module One: TypeDef %#x's generic parameters read %d times, want once", td, n)
		}
	}
	if _, err := r.MethodOf(Selection{}); err == nil {
		t.Error("MethodOf an empty selection: no error")
	}
}
