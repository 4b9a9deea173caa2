package values

import (
	"math"
	"testing"

	"go.opentelemetry.io/otel/attribute"
)

func TestValueBytesMatchesEmit(t *testing.T) {
	vals := []attribute.Value{
		attribute.StringValue("héllo"), attribute.StringValue(""), attribute.BoolValue(true), attribute.BoolValue(false),
		attribute.Float64Value(-2.5), attribute.Float64Value(0), attribute.Float64Value(math.Copysign(0, -1)),
		attribute.Float64Value(math.NaN()), attribute.Float64Value(math.Inf(1)), attribute.Float64Value(math.Inf(-1)),
		attribute.Float64Value(1e21), attribute.Float64Value(1e20), attribute.Float64Value(123456), attribute.Float64Value(1234567),
		attribute.Float64Value(1e-5), attribute.Float64Value(0.0001), attribute.Float64Value(math.MaxFloat64),
		attribute.Float64Value(math.SmallestNonzeroFloat64), attribute.Float64Value(0.1), attribute.Float64Value(8.75),
		attribute.StringSliceValue([]string{"a", "b"}),
	}
	// Every power of ten, either side of it, and both signs.
	for p := int64(1); ; p *= 10 {
		for _, x := range []int64{p - 1, p, p + 1} {
			vals = append(vals, attribute.Int64Value(x), attribute.Int64Value(-x))
		}
		if p > math.MaxInt64/10 {
			break
		}
	}
	vals = append(vals, attribute.Int64Value(math.MinInt64), attribute.Int64Value(math.MaxInt64))
	for _, v := range vals {
		if got, want := valueBytes(v), len(v.Emit()); got != want {
			t.Errorf("valueBytes(%v) = %d, want %d", v.Emit(), got, want)
		}
	}
}

func TestDecimalDigits(t *testing.T) {
	for _, tc := range []struct {
		x    uint64
		want int
	}{{0, 1}, {9, 1}, {10, 2}, {1e18 - 1, 18}, {1e18, 19}, {1e19 - 1, 19}, {1e19, 20}, {math.MaxUint64, 20}} {
		if got := decimalDigits(tc.x); got != tc.want {
			t.Errorf("decimalDigits(%d) = %d, want %d", tc.x, got, tc.want)
		}
	}
}

// addAll must give what adding each attribute in turn gives, whatever
// room the limit leaves.
func TestAddAllAsEachInTurn(t *testing.T) {
	kvs := []attribute.KeyValue{
		attribute.String("dotnet.arg.a", "0123456789"),
		attribute.Int64("dotnet.arg.a.N", 12345),
		attribute.String("dotnet.arg.a.Long", "abcdefghijklmnopqrstuvwxyz"),
		attribute.Bool("dotnet.arg.a.B", true),
	}
	size := 0
	for _, kv := range kvs {
		size += len(kv.Key) + valueBytes(kv.Value)
	}
	for limit := 0; limit <= size+10; limit++ {
		for _, used := range []int{0, 7} {
			want := attrBuilder{limit: limit, bytes: used}
			for _, kv := range kvs {
				want.add(kv)
			}
			got := attrBuilder{limit: limit, bytes: used}
			got.addAll(kvs, size)
			if got.bytes != want.bytes || got.dropped != want.dropped || len(got.out) != len(want.out) {
				t.Fatalf("limit %d, %d used: addAll gave %d attributes, %d bytes, dropped %v; one by one %d, %d, %v",
					limit, used, len(got.out), got.bytes, got.dropped, len(want.out), want.bytes, want.dropped)
			}
			for i := range got.out {
				if got.out[i] != want.out[i] {
					t.Fatalf("limit %d: attribute %d is %v, want %v", limit, i, got.out[i], want.out[i])
				}
			}
		}
	}
}
