package values

import "testing"

// TestRenderPAN: a string holding a card number is hidden wherever it is
// (a value, a field, an element), and shown as is with RedactPAN off.
func TestRenderPAN(t *testing.T) {
	stream := (&enc{}).str("4111 1111 1111 1111", 100).
		obj(10, 3).str("5500-0000-0000-0004", 100).prim(KindR8, 0).prim(KindI4, 1).
		u8(tagArray).u64(17).u8(1).u32(2).u32(2).str("hello", 10).str("4111111111111111", 20).b
	vals := decodeAll(t, stream)
	slots := []Slot{{Key: "a"}, {Key: "b"}, {Key: "c"}}
	for _, on := range []bool{true, false} {
		r := &Renderer{Classes: classes, Limits: DefaultLimits, RedactPAN: on}
		attrs, _ := r.Attrs(slots, vals)
		m := map[string]any{}
		for _, kv := range attrs {
			m[string(kv.Key)] = kv.Value.AsInterface()
		}
		want := map[string]any{
			"a": "***", "a.redacted": "pan",
			"b": `Acme.Item{Name=***, Price=0, Color=Red}`, "b.Name": "***", "b.Name.redacted": "pan",
			"c": `Entry[2]{"hello", ***}`,
		}
		if !on {
			want = map[string]any{"a": "4111 1111 1111 1111", "b.Name": "5500-0000-0000-0004", "c": `Entry[2]{"hello", "4111111111111111"}`}
		}
		for k, w := range want {
			if m[k] != w {
				t.Errorf("RedactPAN=%v: %s = %#v, want %#v", on, k, m[k], w)
			}
		}
	}
}

// TestThisCompact: inside `this`, framework objects show as their type.
func TestThisCompact(t *testing.T) {
	cls := fakeClasses{
		30: {Name: "Acme.Service", Fields: []Field{{Name: "gate"}, {Name: "Name"}}},
		31: {Name: "Object"},
	}
	stream := (&enc{}).obj(30, 2).obj(31, 0).str("svc", 10).obj(30, 2).obj(31, 0).str("svc", 10).b
	vals := decodeAll(t, stream)
	r := &Renderer{Classes: cls, Limits: DefaultLimits}
	attrs, _ := r.Attrs([]Slot{{Key: ThisKey}, {Key: "dotnet.arg.s"}}, vals)
	got := map[string]any{}
	for _, kv := range attrs {
		got[string(kv.Key)] = kv.Value.AsInterface()
	}
	if got[ThisKey] != `Acme.Service{gate=Object{…}, Name="svc"}` || got["dotnet.arg.s"] != `Acme.Service{gate=Object{}, Name="svc"}` {
		t.Errorf("%v", got)
	}
}

func decodeAll(t *testing.T, stream []byte) []Value {
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
	return vals
}
