package e2e

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

const enumNS = "Enumerations.exe!Acme.Enumerations."

// Every enumeration of an iterator compiled by mcs is one span, named as
// the iterator method, nested under the call that began it, with the
// elements it yielded counted (clrotel.iterator.yielded) and the calls of
// its steps as children: an enumerable enumerated twice (its
// GetEnumerator returns itself the first time, a fresh enumerator after,
// whose first MoveNext begins the span), a third time broken off early,
// LINQ over an iterator (once, and a query run twice), a generic iterator
// method and a generic class's iterator (over a value type and a
// reference type) enumerated twice, an enumerator made on one thread and
// run on another, an enumerable enumerated twice on another thread,
// nested iterators whose outer one is enumerated twice, and an enumerable
// made in one method and enumerated in another. The first enumeration of
// an enumerable began with its iterator method's call, so it nests where
// that was called (Make); the others where their first MoveNext was
// (Consume, the thread's lambda). No MoveNext, Dispose or enumerator is a
// span. With values captured and without.
func TestIteratorEnumerations(t *testing.T) {
	// "iterator <- parent : yielded", one per enumeration.
	var want []string
	add := func(n int, iter, parent string, yielded int) {
		for range n {
			want = append(want, fmt.Sprintf("%s <- %s : %d", iter, parent, yielded))
		}
	}
	const nums, pairs = "Gen.Nums(Int32 n)", "Gen.Pairs(Int32 n)"
	add(2, nums, "Shapes.Again()", 3)
	add(2, nums, "Shapes.AgainBroken()", 4)
	add(1, nums, "Shapes.AgainBroken()", 1)
	add(1, nums, "Shapes.Linq()", 6)
	add(2, nums, "Shapes.LinqTwice()", 5)
	add(2, "Gen.Twice<String>(String v)", "Shapes.GenericAgain()", 2)
	add(2, "Box<Int32>.Items()", "Shapes.BoxAgain()", 1)
	add(2, "Box<String>.Items()", "Shapes.BoxAgain()", 1)
	add(1, nums, "Shapes.OtherThread()", 4)
	add(1, nums, "Shapes.OtherThreadEnumerable()", 2)
	add(1, nums, "Shapes.OtherThreadEnumerable()::lambda#1()", 2)
	add(2, pairs, "Shapes.NestedAgain()", 4)
	add(4, nums, pairs, 2)
	add(1, nums, "Shapes.Make()", 3)
	add(1, nums, "Shapes.Consume(System.Collections.Generic.IEnumerable<Int32> xs)", 3)
	sort.Strings(want)
	iterator := func(name string) bool {
		for _, p := range []string{"Gen.Nums(", "Gen.Pairs(", "Gen.Twice<", "Box<Int32>.Items(", "Box<String>.Items("} {
			if strings.HasPrefix(name, p) {
				return true
			}
		}
		return false
	}
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		plain := runApp(t, rt, "Enumerations", nil, runOpts{})
		for _, capture := range []string{"on", "off"} {
			env := map[string]string{"CLROTEL_FOLD": "off", "CLROTEL_CAPTURE": capture, "CLROTEL_EXCLUDE": "Program.Main",
				"CLROTEL_MAX_SPANS_PER_TRACE": "0", "CLROTEL_RING_KB": "16384"}
			r := runApp(t, rt, "Enumerations", nil, runOpts{profiler: true, env: env})
			if plain.ExitCode != 0 || r.ExitCode != 0 || r.Stdout != plain.Stdout {
				t.Fatalf("capture %s: exit %d/%d, stdout %q, untraced %q\n%s", capture, r.ExitCode, plain.ExitCode, r.Stdout, plain.Stdout, r.Stderr)
			}
			ids := byID(r.Spans)
			var got []string
			for _, s := range r.Spans {
				name := strings.TrimPrefix(s.Name, enumNS)
				for _, step := range []string{"MoveNext", "Current", "Dispose", "GetEnumerator", "c__Iterator"} {
					if strings.Contains(name, step) {
						t.Errorf("capture %s: an iterator's plumbing is a span: %s", capture, name)
					}
				}
				parent := strings.TrimPrefix(parentName(ids, s), enumNS)
				if name == "Gen.Step(Int32 i)" && !iterator(parent) {
					t.Errorf("capture %s: a Step under %q, not under an iterator's span", capture, parent)
				}
				if !iterator(name) {
					continue
				}
				if s.Attrs["clrotel.end_reason"] != nil {
					t.Errorf("capture %s: %s ended %v", capture, name, s.Attrs["clrotel.end_reason"])
				}
				y, _ := s.Attrs["clrotel.iterator.yielded"].(int64)
				got = append(got, fmt.Sprintf("%s <- %s : %d", name, parent, y))
				// Each element of these is one Step call of its steps.
				if name != pairs {
					steps := 0
					for _, c := range children(r.Spans, s) {
						if c.Name == enumNS+"Gen.Step(Int32 i)" {
							steps++
						}
					}
					if int64(steps) != y {
						t.Errorf("capture %s: %s <- %s yielded %d, with %d Step children", capture, name, parent, y, steps)
					}
				}
			}
			sort.Strings(got)
			if g, w := strings.Join(got, "\n"), strings.Join(want, "\n"); g != w {
				t.Errorf("capture %s: enumerations (iterator <- parent : yielded)\n%s\nwant\n%s", capture, g, w)
			}
		}
	})
}
