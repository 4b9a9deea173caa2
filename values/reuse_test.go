package values

import (
	"reflect"
	"testing"
)

// TestDecoderReset: a decoder reused across records decodes each as a fresh
// one does, and once warm allocates nothing for a record of objects,
// arrays, boxed values and strings.
func TestDecoderReset(t *testing.T) {
	var a enc
	a.obj(10, 3).str("widget", 6).prim(KindR8, 0x4059000000000000).prim(KindI4, 2)
	a.u8(tagArray).u64(12).u8(1).u32(3).u32(3).prim(KindI4, 1).prim(KindI4, 2).prim(KindI4, 3)
	a.u8(tagBoxed).u64(13).obj(13, 1).prim(KindI4, 7)
	var b enc
	b.obj(11, 1).obj(11, 1).u8(tagNull).str("a longer string than before", 10)
	decodeAll := func(d *Decoder) []Value {
		var vs []Value
		for d.More() {
			v, err := d.Next()
			if err != nil {
				t.Fatal(err)
			}
			vs = append(vs, v)
		}
		return vs
	}
	var reused Decoder
	for round := 0; round < 3; round++ {
		for _, s := range [][]byte{a.b, b.b} {
			want := decodeAll(NewDecoder(s))
			reused.Reset(s)
			if got := decodeAll(&reused); !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d: reused decoder gave\n%+v\nfresh one\n%+v", round, got, want)
			}
		}
	}
	vs := make([]Value, 0, 8)
	allocs := testing.AllocsPerRun(100, func() {
		reused.Reset(a.b)
		vs = vs[:0]
		for reused.More() {
			v, _ := reused.Next()
			vs = append(vs, v)
		}
	})
	if allocs != 0 {
		t.Errorf("a warm decoder allocated %.1f times per record", allocs)
	}
}

// TestNoPlanClasses: the decoder lists the NoPlan values' classes, as Walk
// finds them, and forgets them on Reset.
func TestNoPlanClasses(t *testing.T) {
	var e enc
	e.obj(11, 2).u8(tagNoPlan).u64(77).u8(tagArray).u64(12).u8(1).u32(1).u32(1).u8(tagNoPlan).u64(78)
	e.u8(tagNoPlan).u64(79)
	var d Decoder
	d.Reset(e.b)
	var walked []uint64
	for d.More() {
		v, err := d.Next()
		if err != nil {
			t.Fatal(err)
		}
		Walk(v, func(x Value) {
			if x.Shape == NoPlan {
				walked = append(walked, x.Class)
			}
		})
	}
	if got := d.NoPlanClasses(); !reflect.DeepEqual(got, walked) || len(got) != 3 {
		t.Errorf("NoPlanClasses %v, Walk found %v", got, walked)
	}
	d.Reset(nil)
	if got := d.NoPlanClasses(); len(got) != 0 {
		t.Errorf("after Reset: %v", got)
	}
}

// TestHiddenEntryValueCase: the key/value field names of an entry are
// recognised whatever their case.
func TestHiddenEntryValueCase(t *testing.T) {
	r := &Renderer{Classes: classes, Limits: DefaultLimits, Redact: NewRedactor(DefaultSensitive)}
	for _, names := range [][2]string{{"key", "value"}, {"Key", "Value"}, {"_KEY", "M_Value"}, {"m_key", "val"}, {"\u212Aey", "VAL"}} {
		ci := ClassInfo{Name: "E", Fields: []Field{{Name: names[0]}, {Name: names[1]}}}
		var e enc
		e.obj(15, 2).str("password", 8).str("hunter2", 7)
		v, err := NewDecoder(e.b).Next()
		if err != nil {
			t.Fatal(err)
		}
		if got := r.hiddenEntryValue(ci, v); got != 1 {
			t.Errorf("fields %v: hidden %d, want 1", names, got)
		}
	}
	ci := ClassInfo{Name: "E", Fields: []Field{{Name: "keys"}, {Name: "value"}}}
	var e enc
	e.obj(15, 2).str("password", 8).str("hunter2", 7)
	v, _ := NewDecoder(e.b).Next()
	if got := r.hiddenEntryValue(ci, v); got != -1 {
		t.Errorf("fields keys/value: hidden %d, want -1", got)
	}
}

// TestHiddenEntryValueKeptPerGeneration: with Versioned classes the entry
// fields are worked out once per class and generation; a class whose
// fields change with the generation is worked out again.
func TestHiddenEntryValueKeptPerGeneration(t *testing.T) {
	entry := ClassInfo{Name: "E", Fields: []Field{{Name: "key"}, {Name: "value"}}}
	plain := ClassInfo{Name: "E", Fields: []Field{{Name: "name"}, {Name: "text"}}}
	cls := &versioned{fakeClasses: fakeClasses{15: entry}}
	r := &Renderer{Classes: cls, Limits: DefaultLimits, Redact: NewRedactor(DefaultSensitive)}
	var e enc
	e.obj(15, 2).str("password", 8).str("hunter2", 7)
	v, err := NewDecoder(e.b).Next()
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		ci   ClassInfo
		bump bool
		want int
	}{
		{entry, false, 1},
		{entry, false, 1}, // kept
		{plain, false, 1}, // same generation: the kept answer, as the Classes promise
		{plain, true, -1}, // a new generation: worked out again
		{entry, true, 1},
	}
	for i, s := range steps {
		if s.bump {
			cls.gen++
		}
		if got := r.hiddenEntryValue(s.ci, v); got != s.want {
			t.Errorf("step %d: hidden %d, want %d", i, got, s.want)
		}
	}
}
