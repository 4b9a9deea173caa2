package e2e

import "testing"

// A method that leaves by IL `jmp` (Jumper's frame becomes Target's): the
// runtimes report it as a tail call, so Jumper ends as one
// (clrotel.end_reason=tailcall), Target is Outer's child, After too, and
// no frame is left behind. (A frame whose Leave never came would be
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
		for _, s := range byName(r.Spans, "Jmp.exe!Acme.Jmp.P.Target(Int32 x)") {
			if p := parentName(ids, s); p != "Jmp.exe!Acme.Jmp.P.Outer(Int32 x)" {
				t.Errorf("Target's parent is %q, want Outer", p)
			}
		}
	})
}
