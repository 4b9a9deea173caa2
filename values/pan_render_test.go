package values

import (
	"testing"

	"go.opentelemetry.io/otel/attribute"
)

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

// TestFrameworkTerse: a framework object with no rendering of its own
// shows its fields as a slot's value itself, and its type alone nested in
// one, in `this` as in an argument.
func TestFrameworkTerse(t *testing.T) {
	cls := fakeClasses{
		30: {Name: "Acme.Service", Fields: []Field{{Name: "gate"}, {Name: "Name"}}},
		31: {Name: "Object"},
		32: {Name: "System.Net.HttpListenerContext", Fields: []Field{{Name: "_listener"}, {Name: "ErrorStatus"}}},
		33: {Name: "System.Net.HttpListener", Fields: []Field{{Name: "_state"}}},
	}
	service := func(e *enc) *enc { return e.obj(30, 2).obj(31, 0).str("svc", 10) }
	tests := []struct {
		key    string
		stream []byte
		want   string
	}{
		{ThisKey, service(&enc{}).b, `Acme.Service{gate=Object{…}, Name="svc"}`},
		{"dotnet.arg.s", service(&enc{}).b, `Acme.Service{gate=Object{…}, Name="svc"}`},
		{"dotnet.arg.ctx", (&enc{}).obj(32, 2).obj(33, 1).prim(KindI4, 1).prim(KindI4, 400).b,
			`System.Net.HttpListenerContext{_listener=System.Net.HttpListener{…}, ErrorStatus=400}`},
		{"dotnet.arg.l", (&enc{}).obj(33, 1).prim(KindI4, 1).b, `System.Net.HttpListener{_state=1}`},
	}
	for _, tt := range tests {
		r := &Renderer{Classes: cls, Limits: DefaultLimits}
		attrs, _ := r.Attrs([]Slot{{Key: tt.key}}, decodeAll(t, tt.stream))
		if len(attrs) == 0 || attrs[0].Value.AsString() != tt.want {
			t.Errorf("%s: %v, want %s", tt.key, attrs, tt.want)
		}
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

// BenchmarkRenderString100 is the drainer's work for the bench's
// string-100 row: one 100-character argument.
func BenchmarkRenderString100(b *testing.B) {
	for _, on := range []bool{false, true} {
		b.Run(map[bool]string{false: "pan-off", true: "pan-on"}[on], func(b *testing.B) {
			vals := []Value{{Shape: String, Str: make([]uint16, 100), StrLen: 100}}
			for i := range vals[0].Str {
				vals[0].Str[i] = 's'
			}
			r := &Renderer{Classes: classes, Limits: DefaultLimits, RedactPAN: on}
			slots := []Slot{{Key: "dotnet.arg.s"}}
			buf := make([]attribute.KeyValue, 0, 8)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				buf, _ = r.AppendAttrs(buf[:0], slots, vals)
			}
		})
	}
}
