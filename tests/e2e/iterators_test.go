package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/clrotel/clrotel/otlpsink"
)

const iterNS = "Iterators.exe!Acme.Iterators."

// Iterators compiled by mcs, which names no enumerator in an attribute,
// are one span per enumeration, found from the enumerator the iterator
// method constructs: `yield return` over 1,000 items is one Count span
// with its 1,000 Square calls as children; one broken off early ends at
// Dispose with the 5 steps run; an iterator enumerating another nests the
// inner enumerations' spans under its own; a generic iterator method and
// an iterator of a generic class (over a class and a struct) too; one run
// to its end by hand and never disposed ends at its last MoveNext, not
// abandoned. Each counts the elements it yielded
// (clrotel.iterator.yielded). No MoveNext, Current, Dispose,
// GetEnumerator or enumerator constructor is a span. With values captured
// and without. A large ring: the 1,000-span trace must not shed the next
// ones on a loaded machine.
func TestIteratorsCompiledByMcs(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		plain := runApp(t, rt, "Iterators", nil, runOpts{})
		for _, capture := range []string{"on", "off"} {
			env := map[string]string{"CLROTEL_FOLD": "off", "CLROTEL_CAPTURE": capture, "CLROTEL_EXCLUDE": "Program.Main",
				"CLROTEL_MAX_SPANS_PER_TRACE": "0", "CLROTEL_RING_KB": "16384", "CLROTEL_LOG_LEVEL": "info"}
			r := runApp(t, rt, "Iterators", nil, runOpts{profiler: true, env: env})
			if plain.ExitCode != 0 || r.ExitCode != 0 || r.Stdout != plain.Stdout {
				t.Fatalf("capture %s: exit %d/%d, stdout %q, untraced %q\n%s", capture, r.ExitCode, plain.ExitCode, r.Stdout, plain.Stdout, r.Stderr)
			}
			plumbing := map[string]int{}
			for _, s := range r.Spans {
				for _, step := range []string{"MoveNext", "Current", "Dispose", "GetEnumerator", "c__Iterator", "Reset"} {
					if strings.Contains(s.Name, step) {
						plumbing[s.Name]++
					}
				}
			}
			if len(plumbing) > 0 {
				t.Errorf("capture %s: an iterator's plumbing is a span: %v", capture, plumbing)
			}
			counts := byName(r.Spans, iterNS+"Seq.Count(Int32 n)")
			// Count(1000), Count(100) broken off, Outer's Count(1..3),
			// Count(7) by hand.
			if len(counts) != 6 {
				t.Fatalf("capture %s: %d Count spans, want 6: %v\n%s", capture, len(counts), others(r.Spans), r.Stderr)
			}
			outer := byName(r.Spans, iterNS+"Seq.Outer(Int32 n)")
			if len(outer) != 1 {
				t.Fatalf("capture %s: %d Outer spans, want 1", capture, len(outer))
			}
			squaresUnder := func(p otlpsink.Span) int {
				n := 0
				for _, c := range children(r.Spans, p) {
					if c.Name == iterNS+"Seq.Square(Int32 i)" {
						n++
						if c.End.After(p.End) || c.Start.Before(p.Start) {
							t.Errorf("capture %s: a Square outside its iterator's span", capture)
						}
					}
				}
				return n
			}
			var got []int
			nested := 0
			for _, c := range counts {
				n := squaresUnder(c)
				if y, _ := c.Attrs["clrotel.iterator.yielded"].(int64); y != int64(n) {
					t.Errorf("capture %s: Count(%v) yielded %v, want %d", capture, c.Attrs["dotnet.arg.n"], c.Attrs["clrotel.iterator.yielded"], n)
				}
				if c.ParentSpanID == outer[0].SpanID {
					nested++
				} else if c.ParentSpanID != "" {
					t.Errorf("capture %s: Count under %q, want a root or under Outer", capture, c.ParentSpanID)
				}
				got = append(got, n)
			}
			// Children per Count: 1000, 5 (broken off after the fifth),
			// 1, 2, 3 under Outer, 7.
			want := map[int]int{1000: 1, 5: 1, 1: 1, 2: 1, 3: 1, 7: 1}
			for _, n := range got {
				want[n]--
			}
			for n, left := range want {
				if left != 0 {
					t.Errorf("capture %s: Square children per Count %v, want 1000, 5, 1, 2, 3, 7 (%d: %d)", capture, got, n, left)
					break
				}
			}
			if nested != 3 {
				t.Errorf("capture %s: %d Count spans under Outer, want 3", capture, nested)
			}
			for _, g := range []struct {
				name     string
				children int
			}{
				{iterNS + "Seq.Repeat<String>(String v, Int32 n)", 3},
				{iterNS + "Bag<String>.Items()", 2},
				{iterNS + "Bag<Int32>.Items()", 3},
			} {
				s := byName(r.Spans, g.name)
				if len(s) != 1 || squaresUnder(s[0]) != g.children || s[0].Attrs["clrotel.iterator.yielded"] != int64(g.children) {
					t.Errorf("capture %s: %d spans %s (want 1 with %d Square children); spans other than Square: %v", capture, len(s), g.name, g.children, others(r.Spans))
				}
			}
			for _, s := range r.Spans {
				if s.Attrs["clrotel.end_reason"] != nil {
					t.Errorf("capture %s: %s ended %v", capture, s.Name, s.Attrs["clrotel.end_reason"])
				}
			}
		}
	})
}

// others names the spans other than Square's, with their parents'.
func others(spans []otlpsink.Span) []string {
	ids := byID(spans)
	var out []string
	for _, s := range spans {
		if !strings.HasSuffix(s.Name, "Square(Int32 i)") {
			out = append(out, strings.TrimPrefix(s.Name, iterNS)+" <- "+strings.TrimPrefix(parentName(ids, s), iterNS))
		}
	}
	return out
}

// An iterator is judged by its steps: one whose steps are short, enumerated
// again and again in one trace, folds (its later enumerations make no
// span) and its iterator method and enumerator lose their hooks, however
// long the loop that consumes it runs; one whose steps are long keeps a
// span per enumeration, and so does one that each trace enumerates once.
func TestHotIteratorFolds(t *testing.T) {
	const n = 2000
	const hotNS = "HotIterators.exe!Acme.Hot."
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		plain := runApp(t, rt, "HotIterators", []string{fmt.Sprint(n)}, runOpts{})
		for _, capture := range []string{"on", "off"} {
			t.Run("capture="+capture, func(t *testing.T) {
				env := map[string]string{"CLROTEL_CAPTURE": capture, "CLROTEL_EXPORT_CPU_PERCENT": "0",
					"CLROTEL_ENTRY": "Acme.Hot.Work.Handle", "CLROTEL_MAX_SPANS_PER_TRACE": "0", "CLROTEL_LOG_LEVEL": "debug"}
				r := runApp(t, rt, "HotIterators", []string{fmt.Sprint(n)}, runOpts{profiler: true, env: env})
				if plain.ExitCode != 0 || r.ExitCode != 0 || r.Stdout != plain.Stdout {
					t.Fatalf("exit %d/%d, stdout %q, untraced %q\n%s", r.ExitCode, plain.ExitCode, r.Stdout, plain.Stdout, r.Stderr)
				}
				if a := readAccount(t, r.Stderr); a.dropped != 0 {
					t.Errorf("%d calls dropped", a.dropped)
				}
				// n enumerations and the enumerable's two: the first ones
				// are spans, until the rule has seen enough steps.
				tiny := len(byName(r.Spans, hotNS+"Seq.Tiny(Int32 n)"))
				if tiny == 0 || tiny >= n {
					t.Errorf("%d spans of Tiny's enumerations, want some, fewer than %d", tiny, n)
				}
				if !strings.Contains(r.Stderr, "folded with its iterator's steps") || !strings.Contains(r.Stderr, "<Tiny>c__Iterator") {
					t.Errorf("Tiny's iterator did not fold with its steps:\n%s", grepLines(r.Stderr, "folded with its iterator"))
				}
				m := rejitNoteRE.FindStringSubmatch(r.Stderr)
				if m == nil {
					t.Fatalf("no re-JIT line in the exit summary:\n%s", r.Stderr)
				}
				if installed, _ := strconv.Atoi(m[1]); installed < 3 {
					t.Errorf("%s: want Tiny, its enumerator's constructor and MoveNext re-JIT-compiled", m[0])
				}
				for _, keep := range []string{"Slow", "Once"} {
					if got := len(byName(r.Spans, hotNS+"Seq."+keep+"(Int32 n)")); got != 300 {
						t.Errorf("%d spans of %s's enumerations, want all 300", got, keep)
					}
					if strings.Contains(grepLines(r.Stderr, "folded with its iterator"), "<"+keep+">") {
						t.Errorf("%s's iterator folded", keep)
					}
				}
				t.Logf("Tiny: %d of %d enumerations spans; %s", tiny, n+2, m[0])
			})
		}
		// Named in CLROTEL_FOLD_EXEMPT, the iterator method keeps every
		// enumeration's span, though the rule judges its MoveNext.
		t.Run("exempt", func(t *testing.T) {
			env := map[string]string{"CLROTEL_FOLD_EXEMPT": "Acme.Hot.Seq.Tiny", "CLROTEL_EXPORT_CPU_PERCENT": "0",
				"CLROTEL_ENTRY": "Acme.Hot.Work.Handle", "CLROTEL_MAX_SPANS_PER_TRACE": "0", "CLROTEL_LOG_LEVEL": "debug"}
			r := runApp(t, rt, "HotIterators", []string{fmt.Sprint(n)}, runOpts{profiler: true, env: env})
			if r.ExitCode != 0 || r.Stdout != plain.Stdout {
				t.Fatalf("exit %d, stdout %q, untraced %q\n%s", r.ExitCode, r.Stdout, plain.Stdout, r.Stderr)
			}
			if tiny := len(byName(r.Spans, hotNS+"Seq.Tiny(Int32 n)")); tiny != n+2 {
				t.Errorf("%d spans of Tiny's enumerations, want all %d", tiny, n+2)
			}
			if l := grepLines(r.Stderr, "folded with its iterator"); strings.Contains(l, "<Tiny>") {
				t.Errorf("Tiny's iterator folded though exempt: %s", l)
			}
		})
	})
}

// grepLines is the lines of s that contain part.
func grepLines(s, part string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, part) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
