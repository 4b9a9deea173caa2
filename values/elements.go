package values

import (
	"go.opentelemetry.io/otel/attribute"
)

// Elements are what no-code shaping reads of captured arrays besides
// their rendering: the elements themselves, typed, for its array-typed
// attributes and its indexing. Only the arrays OpenTelemetry .NET's
// no-code attributes take (string[], bool[], int[] and long[], double[]
// and float[]) are given, and only when captured whole (no more elements
// than CLROTEL_MAX_ELEMENTS, the cut ones not being known). They are
// never exported as such.

// AppendElements appends, for each value of vals (its slot's in slots), the
// elements of a one-dimensional array captured whole as a list attribute
// under the slot's key ([]string, []bool, []int64 or []float64), and those
// of its first-level array fields under key.Field, as subAttrs names them.
// A null string element is "", a card number's TextRedacted.
func (r *Renderer) AppendElements(dst []attribute.KeyValue, slots []Slot, vals []Value) []attribute.KeyValue {
	for i, v := range vals {
		if i >= len(slots) {
			break
		}
		v = *r.nullable(&v)
		if kv, ok := r.elements(attribute.Key(slots[i].Key), v); ok {
			dst = append(dst, kv)
			continue
		}
		if v.Shape == Boxed && len(v.Fields) == 1 {
			v = v.Fields[0]
		}
		if v.Shape != Object && v.Shape != Struct {
			continue
		}
		ci, _ := r.info(v.Class)
		for j, f := range v.Fields {
			if kv, ok := r.elements(attribute.Key(slots[i].Key+"."+fieldName(ci, j)), f); ok {
				dst = append(dst, kv)
			}
		}
	}
	return dst
}

// elements returns the list attribute of array v's elements, when v is a
// one-dimensional array of one of the element types and every element
// was captured.
func (r *Renderer) elements(key attribute.Key, v Value) (attribute.KeyValue, bool) {
	if v.Shape != Array || len(v.Dims) != 1 || uint64(len(v.Elems)) != uint64(v.Dims[0]) {
		return attribute.KeyValue{}, false
	}
	ci, ok := r.info(v.Class)
	if !ok {
		return attribute.KeyValue{}, false
	}
	switch ci.Elem {
	case "String":
		out := make([]string, len(v.Elems))
		for i, e := range v.Elems {
			switch {
			case e.Shape == Null:
			case e.Shape != String:
				return attribute.KeyValue{}, false
			case r.pan(e):
				out[i] = TextRedacted
			default:
				out[i] = decodeUTF16(e.Str)
			}
		}
		return key.StringSlice(out), true
	case "Boolean":
		out := make([]bool, len(v.Elems))
		for i, e := range v.Elems {
			if e.Shape != Prim || e.Kind != KindBool {
				return attribute.KeyValue{}, false
			}
			out[i] = e.Bits != 0
		}
		return key.BoolSlice(out), true
	case "Int32", "Int64":
		out := make([]int64, len(v.Elems))
		for i, e := range v.Elems {
			if e.Shape != Prim || e.Kind != KindI4 && e.Kind != KindI8 {
				return attribute.KeyValue{}, false
			}
			out[i] = e.Int()
		}
		return key.Int64Slice(out), true
	case "Double", "Single":
		out := make([]float64, len(v.Elems))
		for i, e := range v.Elems {
			if e.Shape != Prim || e.Kind != KindR8 && e.Kind != KindR4 {
				return attribute.KeyValue{}, false
			}
			out[i] = e.Float()
		}
		return key.Float64Slice(out), true
	}
	return attribute.KeyValue{}, false
}
