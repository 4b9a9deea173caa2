package values

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"go.opentelemetry.io/otel/attribute"
)

// versioned is fakeClasses with a generation the test moves.
type versioned struct {
	fakeClasses
	gen uint64
}

func (v *versioned) Generation() uint64 { return v.gen }

// stream decodes a stream of top-level values with the bytes of each.
func stream(t testing.TB, b []byte) ([]Value, [][]byte) { return lazyStream(t, nil, b) }

// lazyStream is stream as the drainer reads it: a value r Defers is left
// Encoded, with its bytes.
func lazyStream(t testing.TB, r *Renderer, b []byte) ([]Value, [][]byte) {
	t.Helper()
	d := NewDecoder(b)
	var vals []Value
	var raw [][]byte
	for d.More() {
		start := d.Offset()
		if err := d.Skip(); err != nil {
			t.Fatal(err)
		}
		if r != nil && r.Defers(b[start:d.Offset()]) {
			vals, raw = append(vals, Value{Shape: Encoded}), append(raw, b[start:d.Offset()])
			continue
		}
		d.Seek(start)
		v, err := d.Next()
		if err != nil {
			t.Fatal(err)
		}
		vals, raw = append(vals, v), append(raw, b[start:d.Offset()])
	}
	return vals, raw
}

// A value replayed from the memo gives what rendering it gives, under any
// byte budget, and only values whose bytes, slot and classes are the same
// are replayed.
func TestMemoReplaysRendering(t *testing.T) {
	svc, svcClasses := serviceStream()
	item := (&enc{}).obj(10, 3).str("a long enough name for the memo to keep", 99).prim(KindR8, 0x3ff8000000000000).prim(KindI4, 2).b
	other := (&enc{}).obj(10, 3).str("a long enough name for the memo to keep", 99).prim(KindR8, 0x3ff8000000000000).prim(KindI4, 1).b
	short := (&enc{}).str("?id=7", 99).b
	// A class the Classes do not know (yet): its rendering may change.
	unknown := (&enc{}).obj(999, 1).str("a long enough name for the memo to keep", 99).b
	// A field of a class the hooks had no plan for yet: its bytes change
	// once it has one, and until then each call asks for it.
	noPlan := (&enc{}).obj(10, 2).str("a long enough name for the memo to keep", 99).u8(tagNoPlan).u64(10).b
	all := fakeClasses{}
	for id, c := range classes {
		all[id] = c
	}
	for id, c := range svcClasses {
		all[id] = c
	}
	itemSlot := Slot{Key: "dotnet.arg.item"}
	tests := []struct {
		name   string
		slots  []Slot
		calls  [][]byte // each call's stream, in order
		budget int
		hits   uint64 // replays after all calls
		bump   int    // before this call the classes' generation moves (0: never)
		noPlan int    // classes without a plan each call reports
	}{
		{name: "replayed from the second time", slots: []Slot{itemSlot}, calls: [][]byte{item, item, item, item}, hits: 3},
		{name: "service context", slots: []Slot{{Key: "dotnet.arg.ctx"}}, calls: [][]byte{svc, svc, svc}, hits: 2},
		{name: "under a small budget", slots: []Slot{{Key: "dotnet.arg.ctx"}}, calls: [][]byte{svc, svc, svc}, budget: 300, hits: 2},
		{name: "other bytes", slots: []Slot{itemSlot}, calls: [][]byte{item, other, item, other}, hits: 2},
		{name: "small values are rendered", slots: []Slot{{Key: "dotnet.arg.q"}}, calls: [][]byte{short, short, short}, hits: 0},
		{name: "classes changed", slots: []Slot{itemSlot}, calls: [][]byte{item, item, item}, bump: 2, hits: 1},
		{name: "unknown class not kept", slots: []Slot{{Key: "dotnet.arg.x"}}, calls: [][]byte{unknown, unknown, unknown}, hits: 0},
		{name: "enum slot", slots: []Slot{{Key: "dotnet.arg.item", Enum: color}}, calls: [][]byte{item, item, item}, hits: 2},
		{name: "class without a plan, asked for on replays", slots: []Slot{itemSlot}, calls: [][]byte{noPlan, noPlan, noPlan}, hits: 2, noPlan: 1},
		{name: "two values", slots: []Slot{itemSlot, {Key: "dotnet.arg.q"}}, calls: [][]byte{slices.Concat(item, short), slices.Concat(other, short), slices.Concat(item, short)}, hits: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cls := &versioned{fakeClasses: all}
			limits := DefaultLimits
			budget := limits.MaxAttrBytes
			if tc.budget > 0 {
				budget = tc.budget
			}
			plain := &Renderer{Classes: cls, Limits: limits}
			memo := &Renderer{Classes: cls, Limits: limits, Memo: NewMemo()}
			lazy := &Renderer{Classes: cls, Limits: limits, Memo: NewMemo()}
			for i, b := range tc.calls {
				if tc.bump > 0 && i == tc.bump {
					cls.gen++
				}
				vals, raw := stream(t, b)
				want, wantCut, wantUsed := plain.AppendAttrsWithin(nil, tc.slots, vals, budget)
				got, gotCut, gotUsed := memo.AppendAttrsOf(nil, tc.slots, vals, raw, budget)
				if !reflect.DeepEqual(got, want) || gotCut != wantCut || gotUsed != wantUsed {
					t.Fatalf("call %d: memo gave %v (cut %v, %d bytes), rendering %v (cut %v, %d bytes)", i, got, gotCut, gotUsed, want, wantCut, wantUsed)
				}
				lvals, lraw := lazyStream(t, lazy, b)
				got, gotCut, gotUsed = lazy.AppendAttrsOf(nil, tc.slots, lvals, lraw, budget)
				if !reflect.DeepEqual(got, want) || gotCut != wantCut || gotUsed != wantUsed {
					t.Fatalf("call %d: values left encoded gave %v (cut %v, %d bytes), rendering %v (cut %v, %d bytes)", i, got, gotCut, gotUsed, want, wantCut, wantUsed)
				}
				if n := len(lazy.NoPlanClasses()); n != tc.noPlan {
					t.Errorf("call %d: %d classes without a plan reported, want %d", i, n, tc.noPlan)
				}
			}
			if h := memo.Memo.Hits(); h != tc.hits {
				t.Errorf("%d replays, want %d", h, tc.hits)
			}
			if h := lazy.Memo.Hits(); h != tc.hits {
				t.Errorf("values left encoded: %d replays, want %d", h, tc.hits)
			}
		})
	}
}

// A value among the last recentEntries rendered is replayed; one pushed
// out of them is kept when seen again, and replayed from then on.
func TestMemoRecentThenKept(t *testing.T) {
	cls := &versioned{fakeClasses: classes}
	plain := &Renderer{Classes: cls, Limits: DefaultLimits}
	r := &Renderer{Classes: cls, Limits: DefaultLimits, Memo: NewMemo()}
	slots := []Slot{{Key: "dotnet.arg.item"}}
	value := func(i int) []byte {
		return (&enc{}).obj(10, 3).str(fmt.Sprintf("item number %d with a long enough name", i), 99).prim(KindR8, 0).prim(KindI4, 1).b
	}
	steps := []struct {
		value int
		hits  uint64 // replays so far, after this value
	}{
		{0, 0},
		{0, 1},                                                         // recent
		{1, 1}, {2, 1}, {3, 1}, {4, 1}, {5, 1}, {6, 1}, {7, 1}, {8, 1}, // 0 pushed out
		{0, 1}, // seen before: kept
		{0, 2}, // kept
		{8, 3}, // still recent
	}
	for i, st := range steps {
		vals, raw := stream(t, value(st.value))
		want, _, _ := plain.AppendAttrsWithin(nil, slots, vals, DefaultLimits.MaxAttrBytes)
		got, _, _ := r.AppendAttrsOf(nil, slots, vals, raw, DefaultLimits.MaxAttrBytes)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("step %d: memo gave %v, rendering %v", i, got, want)
		}
		if h := r.Memo.Hits(); h != st.hits {
			t.Fatalf("step %d (value %d): %d replays, want %d", i, st.value, h, st.hits)
		}
	}
}

// The memo stays within its bounds however many different values repeat.
func TestMemoBounded(t *testing.T) {
	cls := &versioned{fakeClasses: classes}
	r := &Renderer{Classes: cls, Limits: DefaultLimits, Memo: NewMemo()}
	slots := []Slot{{Key: "dotnet.arg.item"}}
	for i := 0; i < 3*memoEntries; i++ {
		b := (&enc{}).obj(10, 3).str(fmt.Sprintf("item number %d with a long enough name", i), 99).prim(KindR8, 0).prim(KindI4, 1).b
		vals, raw := stream(t, b)
		for range 2 {
			r.AppendAttrsOf(nil, slots, vals, raw, DefaultLimits.MaxAttrBytes)
		}
		if n := r.Memo.Len(); n > memoEntries {
			t.Fatalf("%d values kept, at most %d", n, memoEntries)
		}
		if len(r.Memo.seen) > memoSeen || r.Memo.size > memoBytes {
			t.Fatalf("memo over its bounds: %d seen, %d bytes", len(r.Memo.seen), r.Memo.size)
		}
	}
}

// Without a Versioned Classes the memo is not used.
func TestMemoNeedsGeneration(t *testing.T) {
	item := (&enc{}).obj(10, 3).str("a long enough name for the memo to keep", 99).prim(KindR8, 0).prim(KindI4, 2).b
	r := &Renderer{Classes: classes, Limits: DefaultLimits, Memo: NewMemo()}
	vals, raw := stream(t, item)
	var got []attribute.KeyValue
	for range 3 {
		got, _, _ = r.AppendAttrsOf(nil, []Slot{{Key: "dotnet.arg.item"}}, vals, raw, DefaultLimits.MaxAttrBytes)
	}
	if r.Memo.Hits() != 0 || len(got) == 0 {
		t.Errorf("%d replays (want 0), %d attributes", r.Memo.Hits(), len(got))
	}
}

func BenchmarkRenderMemo(b *testing.B) {
	svc, cls := serviceStream()
	vals, raw := stream(b, svc)
	r := &Renderer{Classes: &versioned{fakeClasses: cls}, Limits: DefaultLimits, Memo: NewMemo()}
	slots := []Slot{{Key: "dotnet.arg.ctx"}}
	var out []attribute.KeyValue
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		out, _, _ = r.AppendAttrsOf(out[:0], slots, vals, raw, DefaultLimits.MaxAttrBytes)
	}
}

// BenchmarkReplay is a service's request context read from its record
// and replayed from the memo: decoded first, or left Encoded (Skip), as
// written plain or sized (as the hooks write a large top-level value).
func BenchmarkReplay(b *testing.B) {
	plain, cls := serviceStream()
	slots := []Slot{{Key: "dotnet.arg.ctx"}}
	for _, bc := range []struct {
		name string
		lazy bool
		svc  []byte
	}{
		{"decoded", false, plain},
		{"encoded", true, plain},
		{"encoded-sized", true, (&enc{}).sized(plain).b},
	} {
		svc, lazy := bc.svc, bc.lazy
		b.Run(bc.name, func(b *testing.B) {
			r := &Renderer{Classes: &versioned{fakeClasses: cls}, Limits: DefaultLimits, Memo: NewMemo()}
			d := NewDecoder(nil)
			var out []attribute.KeyValue
			vals, raw := make([]Value, 1), make([][]byte, 1)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				d.Reset(svc)
				if lazy && d.Skip() == nil && r.Defers(svc[:d.Offset()]) {
					vals[0] = Value{Shape: Encoded}
				} else {
					d.Seek(0)
					vals[0], _ = d.Next()
				}
				raw[0] = svc[:d.Offset()]
				out, _, _ = r.AppendAttrsOf(out[:0], slots, vals, raw, DefaultLimits.MaxAttrBytes)
			}
		})
	}
}
