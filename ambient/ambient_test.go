package ambient

import (
	"reflect"
	"testing"
	"time"

	"github.com/clrotel/clrotel/capture"
)

func fields(kv ...any) []Field {
	var out []Field
	for i := 0; i < len(kv); i += 2 {
		out = append(out, Field{Name: kv[i].(string), Offset: uint32(kv[i+1].(int))})
	}
	return out
}

// The layouts as .NET Core 3.1 and .NET 8 report them (field names from
// the runtimes; offsets made up).
func TestDictLayout(t *testing.T) {
	entry := Pair{Key: 0, Value: 8, Size: 24}
	for _, tc := range []struct {
		fields []Field
		entry  Pair
		want   Map
		ok     bool
	}{
		{fields("_buckets", 8, "_entries", 16, "_count", 40), entry, Map{Kind: MapDict, Array: 16, Pair: entry}, true},
		// .NET Framework-era names.
		{fields("buckets", 8, "entries", 16), entry, Map{Kind: MapDict, Array: 16, Pair: entry}, true},
		{fields("_buckets", 8), entry, Map{}, false},
		{fields("_entries", 16), Pair{}, Map{}, false},
		{fields("_entries", 16), Pair{Key: 0, Value: 8, Size: 8}, Map{}, false},
	} {
		got, ok := DictLayout(tc.fields, tc.entry)
		if ok != tc.ok || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("DictLayout(%v, %v) = %+v, %v; want %+v, %v", tc.fields, tc.entry, got, ok, tc.want, tc.ok)
		}
	}
}

func TestMapLayout(t *testing.T) {
	pair := Pair{Key: 0, Value: 8, Size: 16}
	for _, tc := range []struct {
		class  string
		fields []Field
		pair   Pair
		want   Map
		ok     bool
	}{
		{"System.Threading.AsyncLocalValueMap+EmptyAsyncLocalValueMap", nil, pair, Map{Kind: MapEmpty}, true},
		// .NET Core 3.1: _keyN/_valueN reference fields.
		{"System.Threading.AsyncLocalValueMap+OneElementAsyncLocalValueMap", fields("_key1", 8, "_value1", 16), pair,
			Map{Kind: MapInline, Keys: []uint32{8}, Vals: []uint32{16}}, true},
		{"System.Threading.AsyncLocalValueMap+ThreeElementAsyncLocalValueMap",
			fields("_key1", 8, "_key2", 16, "_key3", 24, "_value1", 32, "_value2", 40, "_value3", 48), pair,
			Map{Kind: MapInline, Keys: []uint32{8, 16, 24}, Vals: []uint32{32, 40, 48}}, true},
		// .NET 8: KeyValuePair<IAsyncLocal, object> structs _itemN.
		{"System.Threading.AsyncLocalValueMap+TwoElementAsyncLocalValueMap", fields("_item0", 8, "_item1", 24), pair,
			Map{Kind: MapInline, Keys: []uint32{8, 24}, Vals: []uint32{16, 32}}, true},
		{"System.Threading.AsyncLocalValueMap+FourElementAsyncLocalValueMap",
			fields("_item0", 8, "_item1", 24, "_item2", 40, "_item3", 56), Pair{Key: 8, Value: 0, Size: 16},
			Map{Kind: MapInline, Keys: []uint32{16, 32, 48, 64}, Vals: []uint32{8, 24, 40, 56}}, true},
		// The pair's layout unknown: the struct maps are not read.
		{"System.Threading.AsyncLocalValueMap+OneElementAsyncLocalValueMap", fields("_item0", 8), Pair{}, Map{}, false},
		{"System.Threading.AsyncLocalValueMap+MultiElementAsyncLocalValueMap", fields("_keyValues", 8), pair,
			Map{Kind: MapArray, Array: 8, Pair: pair}, true},
		{"System.Threading.AsyncLocalValueMap+MultiElementAsyncLocalValueMap", fields("_keyValues", 8), Pair{}, Map{}, false},
		{"System.Threading.AsyncLocalValueMap+ManyElementAsyncLocalValueMap", fields("_buckets", 8, "_entries", 16), pair, Map{}, false},
		// A key without its value, or fields of another shape: not read.
		{"X+OneElementAsyncLocalValueMap", fields("_key1", 8), pair, Map{}, false},
		{"X+OneElementAsyncLocalValueMap", fields("_key1", 8, "_value1", 16, "_extra", 24), pair, Map{}, false},
		{"X+FiveElementAsyncLocalValueMap", fields("_key1", 8, "_key2", 16, "_key3", 24, "_key4", 32, "_key5", 40,
			"_value1", 48, "_value2", 56, "_value3", 64, "_value4", 72, "_value5", 80), pair, Map{}, false},
	} {
		got, ok := MapLayout(tc.class, tc.fields, tc.pair)
		if ok != tc.ok || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("MapLayout(%s, %v, %v) = %+v, %v; want %+v, %v", tc.class, tc.fields, tc.pair, got, ok, tc.want, tc.ok)
		}
	}
}

func TestActivityLayout(t *testing.T) {
	net8 := fields("_traceState", 8, "_id", 16, "_parentId", 24, "_parentSpanId", 32, "_traceId", 40, "_spanId", 48,
		"<OperationName>k__BackingField", 56, "<Source>k__BackingField", 64, "<Parent>k__BackingField", 72,
		"<StartTimeUtc>k__BackingField", 80, "_w3CIdFlags", 88)
	got, err := ActivityLayout(net8)
	want := Activity{TraceID: 40, SpanID: 48, Flags: 88, ParentSpanID: 32, ParentID: 24, Name: 56, Start: 80, Source: 64, Parent: 72}
	if err != nil || got != want {
		t.Errorf(".NET 8: %+v, %v; want %+v", got, err, want)
	}
	// .NET Core 3.1: no Source.
	net31 := fields("_traceId", 40, "_spanId", 48, "_w3CIdFlags", 88, "<OperationName>k__BackingField", 56)
	got, err = ActivityLayout(net31)
	if err != nil || got.Source != 0 || got.Name != 56 {
		t.Errorf(".NET 3.1: %+v, %v", got, err)
	}
	for _, missing := range []string{"_traceId", "_spanId", "_w3CIdFlags"} {
		var fs []Field
		for _, f := range net8 {
			if f.Name != missing {
				fs = append(fs, f)
			}
		}
		if _, err := ActivityLayout(fs); err == nil {
			t.Errorf("no %s: want an error (the feature stays off)", missing)
		}
	}
}

func TestParseTraceparent(t *testing.T) {
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", true},
		{"00-0AF7651916CD43DD8448EB211C80319C-B7AD6B7169203331-00", true},
		{"00-00000000000000000000000000000000-b7ad6b7169203331-01", false}, // invalid trace id
		{"00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01", false}, // invalid span id
		{"ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", false}, // forbidden version
		{"00-0af7651916cd43dd8448eb211c80319-b7ad6b7169203331-01", false},
		{"|a1b2.1.", false}, // a hierarchical id
		{"", false},
	} {
		tr, sp, ok := ParseTraceparent(tc.in)
		if ok != tc.ok {
			t.Errorf("ParseTraceparent(%q) ok = %v", tc.in, ok)
		}
		if ok && (tr[0] != 0x0a || sp[7] != 0x31) {
			t.Errorf("ParseTraceparent(%q) = %x %x", tc.in, tr, sp)
		}
	}
}

func TestFromRecord(t *testing.T) {
	when := time.Date(2026, 11, 23, 13, 0, 0, 500, time.UTC)
	ticks := uint64(when.UnixNano()/100+621355968000000000) | 1<<62 // DateTimeKind.Utc
	base := capture.Activity{
		TraceID: "0af7651916cd43dd8448eb211c80319c", SpanID: "00f067aa0ba902b7", Name: "op",
		StartTime: ticks, Flags: 0x81,
	}
	parent := [8]byte{0xb7, 0xad, 0x6b, 0x71, 0x69, 0x20, 0x33, 0x31}
	for _, tc := range []struct {
		name   string
		edit   func(*capture.Activity)
		ok     bool
		parent [8]byte
		export bool // parent-based
	}{
		{"no parent", func(*capture.Activity) {}, true, [8]byte{}, true},
		// A local root nothing sampled: the flag decides nothing.
		{"local root, not recorded", func(a *capture.Activity) { a.Flags = 0x80 }, true, [8]byte{}, true},
		{"parent span id", func(a *capture.Activity) { a.ParentSpanID = "b7ad6b7169203331" }, true, parent, true},
		{"parent id from a caller", func(a *capture.Activity) { a.ParentID = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" }, true, parent, true},
		{"parent Activity in process", func(a *capture.Activity) { a.ParentActivitySpanID = "b7ad6b7169203331" }, true, parent, true},
		{"unsampled caller", func(a *capture.Activity) { a.Flags, a.HasCaller = 0x80, true }, true, [8]byte{}, false},
		{"from an ActivitySource", func(a *capture.Activity) { a.HasSource, a.Source = true, "System.Net.Http" }, true, [8]byte{}, false},
		{"default source", func(a *capture.Activity) { a.HasSource, a.Source = true, "" }, true, [8]byte{}, true},
		{"hierarchical", func(a *capture.Activity) { a.TraceID, a.SpanID = "", "" }, false, [8]byte{}, false},
	} {
		a := base
		tc.edit(&a)
		s, ok := FromRecord(a)
		if ok != tc.ok {
			t.Errorf("%s: ok = %v", tc.name, ok)
			continue
		}
		if !ok {
			continue
		}
		if s.Parent != tc.parent || s.Name != "op" || s.Start != when.UnixNano() || s.SpanID[7] != 0xb7 {
			t.Errorf("%s: %+v (start want %d)", tc.name, s, when.UnixNano())
		}
		if got := Export(s, true, func([16]byte) bool { return true }); got != tc.export {
			t.Errorf("%s: Export(parent-based) = %v", tc.name, got)
		}
		// Not parent-based: the sampler's rule on the trace id decides.
		if got := Export(s, false, func([16]byte) bool { return false }); got {
			t.Errorf("%s: exported though the trace id is not sampled", tc.name)
		}
	}
}

func TestDateTimeUnixNano(t *testing.T) {
	if got := DateTimeUnixNano(0); got != 0 {
		t.Errorf("zero DateTime: %d", got)
	}
	if got := DateTimeUnixNano(621355968000000000 | 2<<62); got != 0 {
		t.Errorf("the unix epoch (local kind bits): %d", got)
	}
}
