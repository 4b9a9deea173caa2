package flows

import (
	"errors"
	"reflect"
	"testing"
)

// fakeCallMeta is a module's metadata for CallTarget.
type fakeCallMeta struct {
	refs     map[uint32]fakeRef
	specs    map[uint32]uint32
	typeSpec map[uint32][]byte
	typeRefs map[uint32]fakeTypeRef
	methods  map[string]uint32 // "td name sig" -> MethodDef
}

type fakeRef struct {
	parent uint32
	name   string
	sig    []byte
}

type fakeTypeRef struct {
	name  string
	scope uint32
}

var errNoRow = errors.New("no such row")

func (f fakeCallMeta) MemberRef(mr uint32) (uint32, string, []byte, error) {
	r, ok := f.refs[mr]
	if !ok {
		return 0, "", nil, errNoRow
	}
	return r.parent, r.name, r.sig, nil
}

func (f fakeCallMeta) MethodSpecParent(ms uint32) (uint32, error) {
	p, ok := f.specs[ms]
	if !ok {
		return 0, errNoRow
	}
	return p, nil
}

func (f fakeCallMeta) TypeSpecBlob(ts uint32) ([]byte, error) {
	b, ok := f.typeSpec[ts]
	if !ok {
		return nil, errNoRow
	}
	return b, nil
}

func (f fakeCallMeta) TypeRefName(tr uint32) (string, uint32, error) {
	r, ok := f.typeRefs[tr]
	if !ok {
		return "", 0, errNoRow
	}
	return r.name, r.scope, nil
}

func (f fakeCallMeta) FindMethod(td uint32, name string, sig []byte) (uint32, bool) {
	md, ok := f.methods[methodKey(td, name, sig)]
	return md, ok
}

func methodKey(td uint32, name string, sig []byte) string {
	return string(rune(td)) + " " + name + " " + string(sig)
}

func TestCallTarget(t *testing.T) {
	static2 := []byte{0x00, 2, 0x0a, 0x08, 0x08}         // static long (int, int)
	instance1 := []byte{0x20, 1, 0x01, 0x0e}             // instance void (string)
	generic1 := []byte{0x10, 1, 1, 0x1e, 0x00}           // static !!0 <T>(!!0)
	vararg := []byte{0x05, 1, 0x01, 0x08}                // vararg void (int, ...)
	listOfT := []byte{0x15, 0x12, 0x02 << 2, 1, 0x08}    // List<int> over TypeDef 2
	otherOfT := []byte{0x15, 0x12, 0x03<<2 | 1, 1, 0x08} // Box<int> over TypeRef 3
	arrayType := []byte{0x1d, 0x08}                      // int[]
	meta := fakeCallMeta{
		refs: map[uint32]fakeRef{
			0x0a000001: {0x02000002, "Add", instance1},
			0x0a000002: {0x1b000001, "Add", instance1},
			0x0a000003: {0x01000004, "Sum", static2},
			0x0a000004: {0x01000005, "Id", generic1},
			0x0a000005: {0x1b000002, "Put", instance1},
			0x0a000006: {0x02000002, "Log", vararg},
			0x0a000007: {0x1b000003, "Get", instance1},
			0x0a000008: {0x02000002, "Missing", instance1},
			0x0a000009: {0x01000004, "Log", vararg},
			0x0a00000a: {0x1a000001, "Global", static2}, // a ModuleRef's global function
		},
		specs:    map[uint32]uint32{0x2b000001: 0x06000009, 0x2b000002: 0x0a000004, 0x2b000003: 0x2b000001},
		typeSpec: map[uint32][]byte{0x1b000001: listOfT, 0x1b000002: otherOfT, 0x1b000003: arrayType},
		typeRefs: map[uint32]fakeTypeRef{
			0x01000003: {"Acme.Box`1", 0x23000001},
			0x01000004: {"Acme.Data.Store", 0x23000001},
			0x01000005: {"Inner", 0x01000004}, // nested in Store
		},
		methods: map[string]uint32{
			methodKey(0x02000002, "Add", instance1): 0x06000011,
		},
	}
	tests := []struct {
		tok     uint32
		want    Callee
		wantErr bool
	}{
		{0x06000005, Callee{Def: 0x06000005}, false},
		{0x2b000001, Callee{Def: 0x06000009}, false}, // a generic method of the module
		{0x0a000001, Callee{Def: 0x06000011}, false}, // a MemberRef to a TypeDef's method
		{0x0a000002, Callee{Def: 0x06000011}, false}, // through a generic instantiation of it
		{0x0a000003, Callee{Type: []string{"Acme.Data.Store"}, Name: "Sum", Params: 2}, false},
		{0x2b000002, Callee{Type: []string{"Acme.Data.Store", "Inner"}, Name: "Id", Params: 1}, false},
		{0x0a000005, Callee{Type: []string{"Acme.Box`1"}, Name: "Put", Params: 1}, false},
		{0x0a000006, Callee{}, true}, // vararg call site: not the definition's signature
		{0x0a000007, Callee{}, true}, // an array type's method
		{0x0a000008, Callee{}, true}, // no such method
		{0x0a000009, Callee{}, true}, // vararg in another module
		{0x0a00000a, Callee{}, true},
		{0x2b000003, Callee{}, true}, // a MethodSpec of a MethodSpec
		{0x2b000009, Callee{}, true}, // no such row
		{0x04000001, Callee{}, true}, // a field
	}
	for _, tt := range tests {
		got, err := CallTarget(meta, tt.tok)
		if (err != nil) != tt.wantErr || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("CallTarget(%#x) = %+v, %v; want %+v (error %v)", tt.tok, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestCalleeOverload(t *testing.T) {
	one := []byte{0x00, 1, 0x01, 0x08}
	two := []byte{0x00, 2, 0x01, 0x08, 0x08}
	genericTwo := []byte{0x10, 1, 2, 0x01, 0x1e, 0x00, 0x08}
	tests := []struct {
		name   string
		params int
		sigs   [][]byte
		want   int
		ok     bool
	}{
		{"the only one", 1, [][]byte{one}, 0, true},
		{"by parameter count", 2, [][]byte{one, two}, 1, true},
		{"a generic method's count", 2, [][]byte{one, genericTwo}, 1, true},
		{"two of that count", 2, [][]byte{two, genericTwo}, 0, false},
		{"none of that count", 3, [][]byte{one, two}, 0, false},
		{"none", 1, nil, 0, false},
		{"a malformed signature", 1, [][]byte{{0x10}}, 0, false},
	}
	for _, tt := range tests {
		got, ok := Callee{Params: tt.params}.Overload(tt.sigs)
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("%s: Overload = %d, %v; want %d, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

func TestCalleeNames(t *testing.T) {
	c := Callee{Type: []string{"Acme.Data.Store", "Inner"}, Name: "Sum", Params: 2}
	two := []byte{0x00, 2, 0x0a, 0x08, 0x08}
	one := []byte{0x00, 1, 0x0a, 0x08}
	tests := []struct {
		name  string
		chain []string
		mname string
		sig   []byte
		want  bool
	}{
		{"it", []string{"Acme.Data.Store", "Inner"}, "Sum", two, true},
		{"another name", []string{"Acme.Data.Store", "Inner"}, "Add", two, false},
		{"the enclosing type's", []string{"Acme.Data.Store"}, "Sum", two, false},
		{"another type", []string{"Acme.Data.Store", "Outer"}, "Sum", two, false},
		{"another count", []string{"Acme.Data.Store", "Inner"}, "Sum", one, false},
	}
	for _, tt := range tests {
		if got := c.Names(tt.chain, tt.mname, tt.sig); got != tt.want {
			t.Errorf("%s: Names = %v, want %v", tt.name, got, tt.want)
		}
	}
	if (Callee{Def: 0x06000001, Name: "Sum"}).Names([]string{"A"}, "Sum", one) {
		t.Error("a Callee of the calling module names another module's method")
	}
}

// fakeDefs is a module's TypeDefs: names and enclosing types.
type fakeDefs map[uint32]struct {
	name      string
	enclosing uint32
}

func (f fakeDefs) TypeDefName(td uint32) (string, error) {
	d, ok := f[td]
	if !ok {
		return "", errNoRow
	}
	return d.name, nil
}

func (f fakeDefs) EnclosingClass(td uint32) uint32 { return f[td].enclosing }

func TestTypeDefNames(t *testing.T) {
	defs := fakeDefs{
		0x02000002: {"Acme.Data.Store", 0},
		0x02000003: {"Inner", 0x02000002},
		0x02000004: {"Deep", 0x02000003},
		0x02000005: {"Orphan", 0x02000009},
		0x02000006: {"Loop", 0x02000006},
	}
	tests := []struct {
		td   uint32
		want []string
		ok   bool
	}{
		{0x02000002, []string{"Acme.Data.Store"}, true},
		{0x02000004, []string{"Acme.Data.Store", "Inner", "Deep"}, true},
		{0x02000005, nil, false}, // its enclosing type cannot be read
		{0x02000006, nil, false}, // nested in itself: bounded
	}
	for _, tt := range tests {
		got, ok := TypeDefNames(defs, tt.td)
		if ok != tt.ok || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("TypeDefNames(%#x) = %q, %v; want %q, %v", tt.td, got, ok, tt.want, tt.ok)
		}
	}
}
