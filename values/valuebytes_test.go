package values

import (
	"testing"

	"go.opentelemetry.io/otel/attribute"
)

func TestValueBytesMatchesEmit(t *testing.T) {
	for _, v := range []attribute.Value{
		attribute.StringValue("héllo"), attribute.StringValue(""), attribute.BoolValue(true), attribute.BoolValue(false),
		attribute.Int64Value(0), attribute.Int64Value(9), attribute.Int64Value(10), attribute.Int64Value(-1),
		attribute.Int64Value(-9223372036854775808), attribute.Int64Value(9223372036854775807), attribute.Float64Value(-2.5),
		attribute.StringSliceValue([]string{"a", "b"}),
	} {
		if got, want := valueBytes(v), len(v.Emit()); got != want {
			t.Errorf("valueBytes(%v) = %d, want %d", v.Emit(), got, want)
		}
	}
}
