package values

import (
	"encoding/binary"
	"math"
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"
)

// enc builds value streams the way profiler/values.c writes them.
type enc struct{ b []byte }

func (e *enc) u8(v uint8) *enc   { e.b = append(e.b, v); return e }
func (e *enc) u16(v uint16) *enc { e.b = binary.LittleEndian.AppendUint16(e.b, v); return e }
func (e *enc) u32(v uint32) *enc { e.b = binary.LittleEndian.AppendUint32(e.b, v); return e }
func (e *enc) u64(v uint64) *enc { e.b = binary.LittleEndian.AppendUint64(e.b, v); return e }
func (e *enc) prim(k Kind, bits uint64) *enc {
	e.u8(tagPrim).u8(uint8(k))
	for i := 0; i < k.Size(); i++ {
		e.u8(uint8(bits >> (8 * i)))
	}
	return e
}
func (e *enc) str(s string, keep int) *enc {
	u := utf16.Encode([]rune(s))
	if keep > len(u) {
		keep = len(u)
	}
	e.u8(tagString).u32(uint32(len(u))).u32(uint32(keep))
	for _, c := range u[:keep] {
		e.u16(c)
	}
	return e
}
func (e *enc) obj(cls uint64, n int) *enc { return e.u8(tagObject).u64(cls).u16(uint16(n)) }

// sized wraps one value's bytes as the hooks wrap a large top-level value.
func (e *enc) sized(v []byte) *enc {
	e.u8(tagSized).u32(uint32(len(v)))
	e.b = append(e.b, v...)
	return e
}

type fakeClasses map[uint64]ClassInfo

func (f fakeClasses) Class(id uint64) (ClassInfo, bool) { c, ok := f[id]; return c, ok }

var color = &Enum{Name: "Color", Values: map[uint64]string{1: "Red", 2: "Green"}}

var classes = fakeClasses{
	10: {Name: "Acme.Item", Fields: []Field{{Name: "Name"}, {Name: "Price"}, {Name: "Color", Enum: color}}},
	11: {Name: "Acme.Node", Fields: []Field{{Name: "Next"}}},
	12: {Name: "Int32[]", Elem: "Int32"},
	13: {Name: "Int32", Primitive: true, Fields: []Field{{Name: "m_value"}}},
	14: {Name: "Geometry.Point", Fields: []Field{{Name: "X"}, {Name: "Y"}}},
	15: {Name: "KeyValuePair<String, String>", Fields: []Field{{Name: "key"}, {Name: "value"}}},
	16: {Name: "Dictionary<String, String>.Entry", Fields: []Field{{Name: "hashCode"}, {Name: "next"}, {Name: "key"}, {Name: "value"}}},
	17: {Name: "Entry[]", Elem: "Entry"},
}

func render(t *testing.T, slots []Slot, stream []byte) map[string]any {
	t.Helper()
	d := NewDecoder(stream)
	var vals []Value
	for d.More() {
		v, err := d.Next()
		if err != nil {
			t.Fatal(err)
		}
		vals = append(vals, v)
	}
	r := &Renderer{Classes: classes, Limits: DefaultLimits, Redact: NewRedactor(DefaultSensitive)}
	attrs, _ := r.Attrs(slots, vals)
	m := map[string]any{}
	for _, kv := range attrs {
		m[string(kv.Key)] = kv.Value.AsInterface()
	}
	return m
}

func TestRender(t *testing.T) {
	s := func(keys ...string) []Slot {
		var out []Slot
		for _, k := range keys {
			out = append(out, Slot{Key: k})
		}
		return out
	}
	tests := []struct {
		name   string
		slots  []Slot
		stream *enc
		want   map[string]any
	}{
		{"integers", s("a", "b", "c", "d"), (&enc{}).prim(KindI4, uint64(uint32(0xffffffd6))).prim(KindI8, 1<<63).prim(KindU8, math.MaxUint64).prim(KindU1, 255),
			map[string]any{"a": int64(-42), "b": int64(math.MinInt64), "c": "18446744073709551615", "d": int64(255)}},
		{"floats and bool and char", s("f", "d", "b", "c"), (&enc{}).prim(KindR4, uint64(math.Float32bits(1.5))).prim(KindR8, math.Float64bits(-2.25)).prim(KindBool, 1).prim(KindChar, 'é'),
			map[string]any{"f": 1.5, "d": -2.25, "b": true, "c": "é"}},
		{"strings", s("s", "e", "n", "u"), (&enc{}).str("hello", 99).str("", 0).u8(tagNull).str("a\U0001F600b", 99),
			map[string]any{"s": "hello", "e": "", "n": "null", "n.null": true, "u": "a\U0001F600b"}},
		{"truncated string keeps length, drops a cut surrogate", s("s"), (&enc{}).str("ab\U0001F600", 3),
			map[string]any{"s": "ab\uFFFD", "s.length": int64(4)}},
		{"enum param", []Slot{{Key: "c", Enum: color}}, (&enc{}).prim(KindI4, 2),
			map[string]any{"c": "Green", "c.value": int64(2)}},
		{"enum param without a name", []Slot{{Key: "c", Enum: color}}, (&enc{}).prim(KindI4, 7),
			map[string]any{"c": "7", "c.value": int64(7)}},
		{"object with sub-attributes", s("item"), (&enc{}).obj(10, 3).str("pen", 9).prim(KindR8, math.Float64bits(1.5)).prim(KindI4, 1),
			map[string]any{"item": `Acme.Item{Name="pen", Price=1.5, Color=Red}`, "item.Name": "pen", "item.Price": 1.5, "item.Color": "Red"}},
		{"cycle", s("n"), (&enc{}).obj(11, 1).u8(tagCycle).u8(0),
			map[string]any{"n": "Acme.Node{Next=<cycle>}"}},
		{"depth limit and unknown class", s("n", "x"), (&enc{}).obj(11, 1).u8(tagDepth).u64(11).u8(tagNoPlan).u64(99),
			map[string]any{"n": "Acme.Node{Next=Acme.Node{…}}", "x": "?{…}"}},
		{"array", s("a"), (&enc{}).u8(tagArray).u64(12).u8(1).u32(1000).u32(2).prim(KindI4, 1).prim(KindI4, 2),
			map[string]any{"a": "Int32[1000]{1, 2, …}", "a.length": int64(1000)}},
		{"boxed primitive", s("o"), (&enc{}).u8(tagBoxed).u64(13).u8(tagStruct).u64(13).u16(1).prim(KindI4, 42),
			map[string]any{"o": int64(42), "o.type": "Int32"}},
		{"struct", s("p"), (&enc{}).u8(tagStruct).u64(14).u16(2).prim(KindI4, 3).prim(KindI4, 4),
			map[string]any{"p": "Geometry.Point{X=3, Y=4}", "p.X": int64(3), "p.Y": int64(4)}},
		{"redacted, unreadable, pointer, skipped", s("r", "u", "p", "k"), (&enc{}).u8(tagRedacted).u8(tagUnreadable).u8(tagPtr).u64(0xbeef).u8(tagSkip),
			map[string]any{"r": "***", "u": "<unreadable>", "p": "0xbeef"}},
		{"entry with a sensitive key", s("kv"), (&enc{}).u8(tagStruct).u64(15).u16(2).str("Password", 9).str("hunter2", 9),
			map[string]any{"kv": `KeyValuePair<String, String>{key="Password", value=***}`, "kv.key": "Password", "kv.value": "***"}},
		{"entry with a plain key", s("kv"), (&enc{}).u8(tagStruct).u64(15).u16(2).str("region", 9).str("eu", 9),
			map[string]any{"kv": `KeyValuePair<String, String>{key="region", value="eu"}`, "kv.key": "region", "kv.value": "eu"}},
		{"dictionary entries", s("e"), (&enc{}).u8(tagArray).u64(17).u8(1).u32(2).u32(2).
			u8(tagStruct).u64(16).u16(4).prim(KindI4, 1).prim(KindI4, 0xffffffff).str("api_key", 9).str("sk-live", 9).
			u8(tagStruct).u64(16).u16(4).prim(KindI4, 2).prim(KindI4, 0xffffffff).str("user", 9).str("ada", 9),
			map[string]any{"e": `Entry[2]{Dictionary<String, String>.Entry{hashCode=1, next=-1, key="api_key", value=***}, Dictionary<String, String>.Entry{hashCode=2, next=-1, key="user", value="ada"}}`, "e.length": int64(2)}},
		{"truncated stream", s("a", "b"), (&enc{}).obj(10, 3).str("pen", 9).u8(tagTrunc),
			map[string]any{"a": `Acme.Item{Name="pen", …}`, "a.Name": "pen"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := render(t, tt.slots, tt.stream.b)
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("%s = %#v, want %#v", k, got[k], v)
				}
			}
			for k := range got {
				if _, ok := tt.want[k]; !ok {
					t.Errorf("unexpected attribute %s = %#v", k, got[k])
				}
			}
		})
	}
}

func TestAttrByteLimit(t *testing.T) {
	e := &enc{}
	for i := 0; i < 10; i++ {
		e.str(strings.Repeat("x", 200), 200)
	}
	var slots []Slot
	for i := 0; i < 10; i++ {
		slots = append(slots, Slot{Key: "s" + string(rune('0'+i))})
	}
	d := NewDecoder(e.b)
	var vals []Value
	for d.More() {
		v, _ := d.Next()
		vals = append(vals, v)
	}
	r := &Renderer{Limits: Limits{MaxAttrBytes: 700}}
	attrs, cut := r.Attrs(slots, vals)
	if !cut || len(attrs) != 3 {
		t.Fatalf("%d attributes, cut %v", len(attrs), cut)
	}
	// The limit is per span: what the arguments used is not there for the
	// return value.
	tests := []struct {
		budget, wantAttrs int
		wantCut           bool
	}{
		{700, 3, true},
		{700 - 3*202, 0, true},
		{0, 0, true},
		{-50, 0, true},
		{10 * 202, 10, false},
	}
	for _, tt := range tests {
		attrs, cut, used := r.AppendAttrsWithin(nil, slots, vals, tt.budget)
		if len(attrs) != tt.wantAttrs || cut != tt.wantCut || used != 202*len(attrs) {
			t.Errorf("budget %d: %d attributes (%d bytes), cut %v; want %d, cut %v", tt.budget, len(attrs), used, cut, tt.wantAttrs, tt.wantCut)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	for name, b := range map[string][]byte{
		"unknown tag":        {0xee},
		"short primitive":    {tagPrim, uint8(KindI8), 1, 2},
		"bad kind":           {tagPrim, 99, 0},
		"string too long":    (&enc{}).u8(tagString).u32(10).u32(10).u16(1).b,
		"copied over length": (&enc{}).u8(tagString).u32(1).u32(2).u16(1).u16(2).b,
	} {
		d := NewDecoder(b)
		if _, err := d.Next(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestRedactor(t *testing.T) {
	r := NewRedactor(append(append([]string{}, DefaultSensitive...), "iban"))
	cases := map[string]bool{
		"password": true, "Password": true, "userPassword": true, "_password": true, "m_Password": true,
		"<Password>k__BackingField": true, "api_key": true, "ApiKey": true, "GetApiKey": true,
		"authorizationHeader": true, "ConnectionString": true, "clientSecret": true, "accessToken": true,
		"pin": true, "Pin": true, "IBAN": true,
		"m_pin": true, "m_Pwd": true, "_ssn": true, "get_Pin": true, "set_Cvv": true,
		"<>3__password": true, "<>3__pin": true, "<apiKey>5__2": true, "<token>__0": true,
		"<>4__this": false, "<i>5__1": false, "<Name>k__BackingField": false, "mpin": false, "getpin": false,
		"shipping": false, "spinner": false, "name": false, "price": false, "": false, "opinion": false,
	}
	for pass := range 2 { // the second pass is answered from the remembered verdicts
		for name, want := range cases {
			if got := r.Sensitive(name); got != want {
				t.Errorf("pass %d: Sensitive(%q) = %v, want %v", pass, name, got, want)
			}
		}
	}
	if NewRedactor(nil).Sensitive("password") {
		t.Error("an empty redactor redacted")
	}
}

func FuzzDecode(f *testing.F) {
	f.Add((&enc{}).obj(10, 3).str("pen", 9).prim(KindR8, 0).prim(KindI4, 1).b)
	f.Add((&enc{}).u8(tagArray).u64(12).u8(2).u32(2).u32(3).u32(1).prim(KindI4, 1).b)
	f.Add([]byte{tagBoxed, 1, 0, 0, 0, 0, 0, 0, 0, tagTrunc})
	f.Add((&enc{}).sized((&enc{}).obj(10, 2).str("pen", 9).prim(KindI4, 1).b).prim(KindI4, 2).b)
	f.Add((&enc{}).sized((&enc{}).obj(10, 2).str("pen", 9).u8(tagTrunc).b).b)
	f.Fuzz(func(t *testing.T, b []byte) {
		d, s := NewDecoder(b), NewDecoder(b)
		r := &Renderer{Classes: classes, Limits: DefaultLimits}
		for i := 0; i < 64 && d.More(); i++ {
			start := d.Offset()
			v, err := d.Next()
			serr := s.Skip()
			// Skip is Next without the values: the drainer skips a value
			// to find its bytes, then decodes them only if needed. Only a
			// sized value's inside is left unread.
			if err == nil && serr != nil {
				t.Fatalf("value %d: Next read it, Skip failed: %v", i, serr)
			}
			if err != nil && serr == nil && b[start] != tagSized {
				t.Fatalf("value %d: Next failed (%v), Skip did not", i, err)
			}
			if err != nil {
				return
			}
			if s.Offset() != d.Offset() {
				t.Fatalf("value %d: Next ended at byte %d, Skip at %d", i, d.Offset(), s.Offset())
			}
			r.Attrs([]Slot{{Key: "k"}}, []Value{v})
		}
	})
}

// A sized value is the value it wraps, and a cut inside it ends it there.
func TestSizedValue(t *testing.T) {
	item := (&enc{}).obj(10, 3).str("pen", 9).prim(KindR8, 0x3ff8000000000000).prim(KindI4, 2).b
	cut := (&enc{}).obj(10, 3).str("pen", 9).u8(tagTrunc).b
	arr := (&enc{}).u8(tagArray).u64(12).u8(1).u32(2).u32(2).prim(KindI4, 1).prim(KindI4, 2).b
	r := &Renderer{Classes: classes, Limits: DefaultLimits}
	for _, v := range [][]byte{item, cut, arr} {
		want, _ := r.Attrs([]Slot{{Key: "k"}}, mustDecode(t, v))
		got, _ := r.Attrs([]Slot{{Key: "k"}}, mustDecode(t, (&enc{}).sized(v).b))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("sized %x: %v, unwrapped %v", v, got, want)
		}
	}
	for _, bad := range [][]byte{
		(&enc{}).u8(tagSized).u32(uint32(len(item)) + 1).b,                              // runs past the stream
		append((&enc{}).u8(tagSized).u32(uint32(len(item))+2).b, append(item, 0, 0)...), // longer than its value
		append((&enc{}).u8(tagSized).u32(uint32(len(item))-1).b, item...),               // shorter than its value
	} {
		if _, err := NewDecoder(bad).Next(); err == nil {
			t.Errorf("%x: decoded", bad)
		}
	}
}

func mustDecode(t *testing.T, b []byte) []Value {
	t.Helper()
	v, err := NewDecoder(b).Next()
	if err != nil {
		t.Fatal(err)
	}
	return []Value{v}
}

// The byte budget cuts a value after any field or element: the header's
// count is no promise of bytes, and the value decodes as cut, its storage
// bounded by the bytes there are.
func TestCutValues(t *testing.T) {
	item := (&enc{}).obj(10, 3).str("pen", 9).u8(tagTrunc).b
	v := mustDecode(t, item)[0]
	if v.Shape != Object || len(v.Fields) != 2 || v.Fields[1].Shape != Truncated {
		t.Errorf("cut object: %+v", v)
	}
	whole := (&enc{}).obj(10, 1).str("pen", 9).b
	for _, read := range []func(*Decoder) error{
		func(d *Decoder) error { _, err := d.Next(); return err },
		(*Decoder).Skip,
	} {
		d := NewDecoder(whole)
		if err := read(d); err != nil || d.Cut() {
			t.Errorf("whole value: cut %v, %v", d.Cut(), err)
		}
		d.Reset(item)
		if err := read(d); err != nil || !d.Cut() {
			t.Errorf("cut value: cut %v, %v", d.Cut(), err)
		}
	}
	r := &Renderer{Classes: classes, Limits: DefaultLimits}
	if attrs, _ := r.Attrs([]Slot{{Key: "k"}}, []Value{v}); len(attrs) == 0 || !strings.Contains(attrs[0].Value.Emit(), TextMore) {
		t.Errorf("cut object renders as %v", attrs)
	}
	for name, b := range map[string][]byte{
		"object":   (&enc{}).obj(1, 60000).b,
		"array":    (&enc{}).u8(tagArray).u64(12).u8(0).u32(1 << 30).b,
		"in sized": (&enc{}).sized((&enc{}).obj(1, 60000).u8(tagTrunc).b).b,
	} {
		v := mustDecode(t, b)[0]
		kids := len(v.Fields) + len(v.Elems)
		if c := cap(v.Fields) + cap(v.Elems); kids != 1 || c > 2 {
			t.Errorf("%s: %d children in storage for %d", name, kids, c)
		}
	}
}
