package e2e

import (
	"sort"
	"testing"
)

// A method that leaves by IL `jmp` (Jumper's frame becomes Target's): the
// runtimes report it as a tail call, so Jumper ends as one
// (clrotel.end_reason=tailcall), when Target, its child, returns; After is
// Outer's child, and no frame is left behind. The first call's Target is
// compiled only once Jumper has left (its frame, not knowing Target
// traced, ends there): it may be Outer's child. (A frame whose Leave never came would be
// closed when a frame below it leaves: clrotel.end_reason=no_leave. No
// runtime here omits a Leave; the harness fails any run that needed it.)
func TestJmpKeepsNesting(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		plain := runApp(t, rt, "Jmp", nil, runOpts{})
		r := runApp(t, rt, "Jmp", nil, runOpts{profiler: true, env: map[string]string{"CLROTEL_FOLD": "off"}})
		if r.ExitCode != 0 || plain.ExitCode != 0 || r.Stdout != plain.Stdout {
			t.Fatalf("exit %d/%d, stdout %q, untraced %q\n%s", r.ExitCode, plain.ExitCode, r.Stdout, plain.Stdout, r.Stderr)
		}
		ids := byID(r.Spans)
		outers := byName(r.Spans, "Jmp.exe!Acme.Jmp.P.Outer(Int32 x)")
		afters := byName(r.Spans, "Jmp.exe!Acme.Jmp.P.After(Int32 x)")
		if len(outers) != 3 || len(afters) != 3 {
			t.Fatalf("%d Outer and %d After spans, want 3 each\n%s", len(outers), len(afters), dumpSpans(r.Spans))
		}
		for _, a := range afters {
			if p := parentName(ids, a); p != "Jmp.exe!Acme.Jmp.P.Outer(Int32 x)" {
				t.Errorf("After's parent is %q, want Outer\n%s", p, dumpSpans(r.Spans))
			}
		}
		for _, o := range outers {
			if p := parentName(ids, o); p != "Jmp.exe!Acme.Jmp.P.Main(String[] args)" {
				t.Errorf("Outer's parent is %q, want Main\n%s", p, dumpSpans(r.Spans))
			}
		}
		for _, j := range byName(r.Spans, "Jmp.exe!Acme.Jmp.P.Jumper(Int32 x)") {
			if j.Attrs["clrotel.end_reason"] != "tailcall" {
				t.Errorf("Jumper ended with %v, want tailcall", j.Attrs["clrotel.end_reason"])
			}
		}
		targets := byName(r.Spans, "Jmp.exe!Acme.Jmp.P.Target(Int32 x)")
		sort.Slice(targets, func(i, j int) bool { return targets[i].Start.Before(targets[j].Start) })
		for i, s := range targets {
			p := parentName(ids, s)
			if i == 0 && p == "Jmp.exe!Acme.Jmp.P.Outer(Int32 x)" {
				continue
			}
			if p != "Jmp.exe!Acme.Jmp.P.Jumper(Int32 x)" || s.End.After(ids[s.ParentSpanID].End) {
				t.Errorf("Target's call %d: its parent is %q, want Jumper, ending after it", i, p)
			}
		}
	})
}
