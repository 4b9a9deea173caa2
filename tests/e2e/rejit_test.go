package e2e

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var rejitNoteRE = regexp.MustCompile(`(\d+) folded methods re-JIT-compiled without hooks \((\d+) asked for`)

// reJITInstalled says whether the exit summary reports folded methods
// re-JIT-compiled without hooks (their later calls are not counted).
func reJITInstalled(stderr string) bool {
	m := rejitNoteRE.FindStringSubmatch(stderr)
	if m == nil {
		return false
	}
	n, _ := strconv.Atoi(m[1])
	return n > 0
}

// TestFoldReJIT: folded methods are re-JIT-compiled without hooks
// (CLROTEL_FOLD_REJIT, on by default). Fold rejit N calls Get() and Step()
// N times each, so both fold; a Step() call then sleeps, and the re-JIT
// lands while that hooked call is on the stack; Mark() is called 3 times;
// then Get() and Step() N times each again. With re-JIT the second half's
// calls reach no hook: the counts stop at the first half, the span they
// folded into says its counts are approximate, the exit summary says why,
// and the spans after the sleeping call still nest under ReJit() (its old
// code's Leave balanced the Enter). With re-JIT off every call is counted.
func TestFoldReJIT(t *testing.T) {
	const n = 5000
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		want := runApp(t, rt, "Fold", []string{"rejit", fmt.Sprint(n)}, runOpts{})
		for _, mode := range []string{"on", "off"} {
			t.Run("rejit="+mode, func(t *testing.T) {
				env := map[string]string{"CLROTEL_LOG_LEVEL": "info"}
				if mode == "off" {
					env["CLROTEL_FOLD_REJIT"] = "off"
				}
				r := runApp(t, rt, "Fold", []string{"rejit", fmt.Sprint(n)}, runOpts{profiler: true, env: env})
				if r.ExitCode != want.ExitCode || r.Stdout != want.Stdout {
					t.Fatalf("traced run differs: exit %d\n%s\nwant\n%s", r.ExitCode, r.Stdout, want.Stdout)
				}
				a := readAccount(t, r.Stderr)
				rj := byNameContains(t, r.Spans, "Program.ReJit(")
				counted := countNamed(r.Spans, "Box.Get()") + countNamed(r.Spans, "Box.Step(")
				folded, _ := rj.Attrs["clrotel.folded.count"].(int64)
				counted += int(folded)
				if a.dropped != 0 {
					t.Errorf("%d calls dropped", a.dropped)
				}
				// The Mark() spans come after the sleeping Step() returned:
				// they are children of ReJit(), not of a frame left open.
				marks := byName(r.Spans, "Fold.exe!Acme.Fold.Box.Mark(Int32 i)")
				if len(marks) != 3 {
					t.Fatalf("%d spans of Mark(), want 3:\n%s", len(marks), dumpSpans(r.Spans))
				}
				for _, m := range marks {
					if m.ParentSpanID != rj.SpanID {
						t.Errorf("Mark() span's parent %s, want ReJit()'s %s", m.ParentSpanID, rj.SpanID)
					}
				}
				m := rejitNoteRE.FindStringSubmatch(r.Stderr)
				if mode == "off" {
					if counted != 4*n+1 {
						t.Errorf("re-JIT off: %d calls of Get() and Step() counted, want all %d", counted, 4*n+1)
					}
					if m != nil || rj.Attrs["clrotel.folded.approximate"] != nil {
						t.Errorf("re-JIT off, yet re-JIT reported: %q, span attrs %v", m, rj.Attrs)
					}
					return
				}
				if m == nil {
					t.Fatalf("no re-JIT line in the exit summary:\n%s", r.Stderr)
				}
				if installed, _ := strconv.Atoi(m[1]); installed < 2 {
					t.Errorf("%s: want Get() and Step() both re-JIT-compiled", m[0])
				}
				// The first half (2n calls) and the sleeping Step(), at most:
				// the second half's calls reached no hook. At least the
				// calls until each method folded.
				if counted > 2*n+1 || counted < 2000 {
					t.Errorf("re-JIT on: %d calls of Get() and Step() counted, want at most the first half's %d", counted, 2*n+1)
				}
				if rj.Attrs["clrotel.folded.approximate"] != true {
					t.Errorf("ReJit()'s attrs %v: want clrotel.folded.approximate", rj.Attrs)
				}
				if !strings.Contains(r.Stderr, "counts above are from before re-JIT") {
					t.Errorf("the exit summary does not say the counts stop at re-JIT:\n%s", r.Stderr)
				}
			})
		}
	})
}
