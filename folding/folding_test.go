package folding

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestAttrsHaveFixedKeys(t *testing.T) {
	attrs := Attrs(Span{Calls: 5, Time: 3 * time.Microsecond, Top: []Entry{{Fn: 1, Calls: 2, Time: time.Microsecond, Name: "A.Get()"}, {Fn: 2, Calls: 3, Time: 2 * time.Microsecond, Name: "B.Compare(Int32 x)"}}})
	if len(attrs) != 3 {
		t.Fatalf("attrs %v", attrs)
	}
	for _, a := range attrs {
		if !strings.HasPrefix(string(a.Key), "clrotel.folded.") {
			t.Errorf("key %s", a.Key)
		}
	}
	top := attrs[2].Value.AsStringSlice()
	if len(top) != 2 || !strings.HasPrefix(top[0], "B.Compare(Int32 x) ×3") {
		t.Errorf("top %q", top)
	}
	if Attrs(Span{}) != nil {
		t.Errorf("nothing folded: want no attributes")
	}
}

func TestParseTopReadsAttrs(t *testing.T) {
	attrs := Attrs(Span{Calls: 3, Time: time.Millisecond, Top: []Entry{{Fn: 1, Calls: 3, Time: 1500 * time.Microsecond, Name: "M.Get(Int32 a, String b)"}}})
	name, calls, d, ok := ParseTop(attrs[2].Value.AsStringSlice()[0])
	if !ok || name != "M.Get(Int32 a, String b)" || calls != 3 || d != 1500*time.Microsecond {
		t.Errorf("ParseTop = %q %d %v %v", name, calls, d, ok)
	}
	for _, bad := range []string{"", "x", "x ×", "x ×y 1s", "x ×3 forever"} {
		if _, _, _, ok := ParseTop(bad); ok {
			t.Errorf("ParseTop(%q) ok", bad)
		}
	}
}

func TestSummary(t *testing.T) {
	s := Summary([]Entry{{Fn: 1, Calls: 10, Time: time.Millisecond}, {Fn: 2, Calls: 5000, Time: 2 * time.Millisecond}, {Fn: 3}}, func(i uint32) string {
		return map[uint32]string{1: "A", 2: "B"}[i]
	}, 1)
	if !strings.Contains(s, "5010 calls of 2 methods") || !strings.Contains(s, "B") || strings.Contains(s, "  A") || !strings.Contains(s, "1 more") {
		t.Errorf("summary:\n%s", s)
	}
	// A method re-JIT-compiled without hooks says its count stops there.
	s = Summary([]Entry{{Fn: 1, Calls: 10, Time: time.Millisecond, Unhooked: true}, {Fn: 2, Calls: 3, Time: time.Microsecond}},
		func(i uint32) string { return map[uint32]string{1: "A", 2: "B"}[i] }, 0)
	want := "13 calls of 2 methods folded into their callers' spans:\n" +
		"          10 calls          1ms  A (counted until re-JIT)\n" +
		"           3 calls          1µs  B"
	if s != want {
		t.Errorf("summary:\n%s\nwant\n%s", s, want)
	}
	if Summary(nil, nil, 0) != "" {
		t.Error("empty summary")
	}
}

func TestSpanAdd(t *testing.T) {
	e := func(fn uint32, calls uint64, us time.Duration) Entry {
		return Entry{Fn: fn, Calls: calls, Time: us * time.Microsecond}
	}
	many := func(from, n uint32) []Entry {
		var es []Entry
		for i := from; i < from+n; i++ {
			es = append(es, e(i, 1, time.Duration(i)))
		}
		return es
	}
	for _, tc := range []struct {
		name  string
		s, o  Span
		calls uint64
		top   []Entry
	}{
		{"into nothing", Span{}, Span{Calls: 3, Top: []Entry{e(1, 3, 2)}}, 3, []Entry{e(1, 3, 2)}},
		{"a method in both once", Span{Calls: 2, Top: []Entry{e(1, 2, 1)}}, Span{Calls: 4, Top: []Entry{e(2, 1, 5), e(1, 3, 2)}}, 6,
			[]Entry{e(1, 5, 3), e(2, 1, 5)}},
		{"the most folded time kept", Span{Calls: 6, Top: many(1, 6)}, Span{Calls: 6, Top: many(7, 6)}, 12, []Entry{
			e(12, 1, 12), e(11, 1, 11), e(10, 1, 10), e(9, 1, 9), e(8, 1, 8), e(7, 1, 7), e(6, 1, 6), e(5, 1, 5)}},
	} {
		tc.s.Add(tc.o)
		if tc.s.Calls != tc.calls || !reflect.DeepEqual(tc.s.Top, tc.top) {
			t.Errorf("%s: %d calls, top %v; want %d, %v", tc.name, tc.s.Calls, tc.s.Top, tc.calls, tc.top)
		}
	}
}
