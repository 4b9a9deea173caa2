package values

import (
	"math"
	"reflect"
	"testing"
)

// TestAppendElements: the elements of arrays captured whole, typed as the
// no-code attributes take them, at the top and in first-level fields; an
// array cut short, of another element type or of more dimensions gives
// none.
func TestAppendElements(t *testing.T) {
	cls := fakeClasses{
		12: {Name: "Int32[]", Elem: "Int32"},
		20: {Name: "String[]", Elem: "String"},
		21: {Name: "Double[]", Elem: "Double"},
		22: {Name: "Boolean[]", Elem: "Boolean"},
		23: {Name: "Int16[]", Elem: "Int16"},
		24: {Name: "Single[]", Elem: "Single"},
		25: {Name: "Int32[,]", Elem: "Int32"},
		30: {Name: "Acme.Order", Fields: []Field{{Name: "Id"}, {Name: "Tags"}}},
	}
	arr := func(e *enc, cls uint64, n, kept uint32) *enc { return e.u8(tagArray).u64(cls).u8(1).u32(n).u32(kept) }
	tests := []struct {
		name   string
		stream *enc
		want   map[string]any
	}{
		{"int[]", arr(&enc{}, 12, 2, 2).prim(KindI4, uint64(uint32(0xfffffffe))).prim(KindI4, 7), map[string]any{"v": []int64{-2, 7}}},
		{"string[] with a null and a card number", arr(&enc{}, 20, 3, 3).str("a", 9).u8(tagNull).str("4111 1111 1111 1111", 99), map[string]any{"v": []string{"a", "", TextRedacted}}},
		{"empty", arr(&enc{}, 20, 0, 0), map[string]any{"v": []string{}}},
		{"double[]", arr(&enc{}, 21, 1, 1).prim(KindR8, math.Float64bits(2.5)), map[string]any{"v": []float64{2.5}}},
		{"float[]", arr(&enc{}, 24, 1, 1).prim(KindR4, uint64(math.Float32bits(0.5))), map[string]any{"v": []float64{0.5}}},
		{"bool[]", arr(&enc{}, 22, 2, 2).prim(KindBool, 1).prim(KindBool, 0), map[string]any{"v": []bool{true, false}}},
		{"cut short", arr(&enc{}, 12, 1000, 2).prim(KindI4, 1).prim(KindI4, 2), map[string]any{}},
		{"short[]: not an attribute's type", arr(&enc{}, 23, 1, 1).prim(KindI2, 1), map[string]any{}},
		{"two dimensions", (&enc{}).u8(tagArray).u64(25).u8(2).u32(1).u32(1).u32(1).prim(KindI4, 1), map[string]any{}},
		{"a field", arr((&enc{}).obj(30, 2).str("A-1", 9), 20, 1, 1).str("x", 9), map[string]any{"v.Tags": []string{"x"}}},
		{"null", (&enc{}).u8(tagNull), map[string]any{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := NewDecoder(tt.stream.b)
			v, err := d.Next()
			if err != nil {
				t.Fatal(err)
			}
			r := &Renderer{Classes: cls, RedactPAN: true}
			got := map[string]any{}
			for _, kv := range r.AppendElements(nil, []Slot{{Key: "v"}}, []Value{v}) {
				got[string(kv.Key)] = kv.Value.AsInterface()
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
		})
	}
}
