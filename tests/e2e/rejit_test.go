package e2e

import (
	"fmt"
	"os"
	"path/filepath"
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
// (CLROTEL_FOLD_REJIT, on by default). Fold rejit N calls Get(), Step()
// and Rec(2) (3 calls, recursive) N times each, so all three fold; then a
// Rec() call sleeps while the re-JIT of Get() and Step() lands, and calls
// itself into a throw 4 calls down that it catches; Mark() is called 3
// times; a sleep; then the first loop again. With re-JIT the second loop's
// calls reach no hook: the counts stop at the first half, the span they
// folded into says its counts are approximate, and the exit summary says
// why. Rec() is not re-JIT-compiled while its sleeping call is open: new
// code called from that frame would unwind under its FunctionID, and the
// frame's own entry would be popped; the Mark() spans still nest under
// ReJit() (they would not, were the shadow stack unbalanced). With re-JIT
// off every call is counted.
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
				counted := countNamed(r.Spans, "Box.Get()") + countNamed(r.Spans, "Box.Step(") + countNamed(r.Spans, "Box.Rec(")
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
					if counted != 10*n+5 {
						t.Errorf("re-JIT off: %d calls of Get(), Step() and Rec() counted, want all %d", counted, 10*n+5)
					}
					if m != nil || rj.Attrs["clrotel.folded.approximate"] != nil {
						t.Errorf("re-JIT off, yet re-JIT reported: %q, span attrs %v", m, rj.Attrs)
					}
					return
				}
				if m == nil {
					t.Fatalf("no re-JIT line in the exit summary:\n%s", r.Stderr)
				}
				if installed, _ := strconv.Atoi(m[1]); installed < 3 {
					t.Errorf("%s: want Get(), Step() and Rec() re-JIT-compiled", m[0])
				}
				// The first half (5n calls) and the sleeping Rec()'s 5, at
				// most: the second half's calls reached no hook. At least
				// the calls until each method folded.
				if counted > 5*n+5 || counted < 3*250 {
					t.Errorf("re-JIT on: %d calls of Get(), Step() and Rec() counted, want at most the first half's %d", counted, 5*n+5)
				}
				t.Logf("re-JIT on: %d of %d calls counted; %s", counted, 10*n+5, m[0])
				if rj.Attrs["clrotel.folded.approximate"] != true {
					t.Errorf("ReJit()'s attrs %v: want clrotel.folded.approximate", rj.Attrs)
				}
				if !strings.Contains(r.Stderr, "Acme.Fold.Box.Get() (counted until re-JIT)") {
					t.Errorf("the exit summary's folded list does not mark Get() as counted until re-JIT:\n%s", r.Stderr)
				}
				if !strings.Contains(r.Stderr, "counts above are from before re-JIT") {
					t.Errorf("the exit summary does not say the counts stop at re-JIT:\n%s", r.Stderr)
				}
			})
		}
	})
}

// TestFoldedMethodsInline: a folded method, once asked to be re-JIT-compiled
// without hooks, is inlined into its callers' optimized code as it would be
// untraced; with re-JIT off it keeps its hooks and is never inlined (every
// call of it must reach them). Basic foldinline calls HotLoop 60 times,
// each making 1000 calls of Tiny.Inc: Inc folds in the first, and
// HotLoop's optimized compiles (on-stack replacement, tier 1) come later.
// The JIT's own listing of HotLoop (DOTNET_JitDisasm) says whether its
// last optimized code calls Inc. Release runtimes print listings from
// .NET 7 on: on .NET Core 3.1 the rest of the suite runs with inlining
// allowed and checks that nothing else changed.
func TestFoldedMethodsInline(t *testing.T) {
	const call = "call     [Acme.Shop.Tiny:Inc(int):int]"
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		if rt.Name == "net3.1" {
			t.Skip("no JIT listings from a .NET Core 3.1 release runtime")
		}
		want := runApp(t, rt, "Basic", []string{"foldinline"}, runOpts{})
		for _, rejit := range []string{"on", "off"} {
			t.Run("rejit="+rejit, func(t *testing.T) {
				listing := filepath.Join(t.TempDir(), "jit.txt")
				env := map[string]string{"CLROTEL_FOLD_REJIT": rejit, "DOTNET_JitDisasm": "HotLoop", "DOTNET_JitStdOutFile": listing}
				r := runApp(t, rt, "Basic", []string{"foldinline"}, runOpts{profiler: true, env: env})
				if r.ExitCode != want.ExitCode || r.Stdout != want.Stdout {
					t.Fatalf("traced run differs: exit %d, stdout %q, want %q\n%s", r.ExitCode, r.Stdout, want.Stdout, r.Stderr)
				}
				b, err := os.ReadFile(listing)
				if err != nil {
					t.Fatal(err)
				}
				opt := optimizedListings(string(b))
				if len(opt) == 0 {
					t.Fatalf("no optimized compile of HotLoop listed:\n%s", b)
				}
				last := opt[len(opt)-1]
				if calls := strings.Contains(last, call); calls != (rejit == "off") {
					t.Errorf("re-JIT %s: HotLoop's last optimized code calls Inc: %v, want %v\n%s", rejit, calls, rejit == "off", last)
				}
			})
		}
	})
}

// optimizedListings splits a JIT listing file into its methods' listings
// and returns those of optimized code (a tier-1 or on-stack-replacement
// compile), in the order compiled.
func optimizedListings(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "; Assembly listing for method ")[1:] {
		header, _, _ := strings.Cut(l, "\n")
		if strings.Contains(header, "(Tier1") || strings.Contains(header, "(FullOpts") {
			out = append(out, l)
		}
	}
	return out
}
