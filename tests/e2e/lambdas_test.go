package e2e

import (
	"sort"
	"strings"
	"testing"
)

const lambdasNS = "Lambdas.exe!Acme.Lambdas.Work."

// Lambdas and an anonymous method compiled by mcs are named after the
// method that holds them, as written (Work.Run()::lambda#N), with the
// compiled name in dotnet.method.compiled_name; a closure's lambda run on
// a thread of its own stays in the trace that made it, right under the
// method that made the closure: the closure's constructor is no span.
// With values captured and without.
func TestLambdasNamedAsWritten(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		plain := runApp(t, rt, "Lambdas", nil, runOpts{})
		for _, capture := range []bool{true, false} {
			env := map[string]string{"CLROTEL_FOLD": "off"}
			if !capture {
				env["CLROTEL_CAPTURE"] = "off"
			}
			r := runApp(t, rt, "Lambdas", nil, runOpts{profiler: true, env: env})
			if plain.ExitCode != 0 || r.ExitCode != 0 || r.Stdout != plain.Stdout {
				t.Fatalf("capture %v: exit %d/%d, stdout %q, untraced %q\n%s", capture, r.ExitCode, plain.ExitCode, r.Stdout, plain.Stdout, r.Stderr)
			}
			runs := byName(r.Spans, lambdasNS+"Run(Int32 n)")
			if len(runs) != 1 {
				t.Fatalf("capture %v: %d Run spans\n%s", capture, len(runs), dumpSpans(r.Spans))
			}
			ids := byID(r.Spans)
			for _, want := range []struct{ name, fn, compiled string }{
				// The closure's, run on a thread of its own.
				{"Run()::lambda#1()", "Acme.Lambdas.Work.Run()::lambda#1", "Acme.Lambdas.Work.<Run>c__AnonStorey0.<>m__0"},
				{"Run()::lambda#1(Int32 x)", "Acme.Lambdas.Work.Run()::lambda#1", "Acme.Lambdas.Work.<Run>m__0"},
				{"Run()::lambda#2(Int32 y)", "Acme.Lambdas.Work.Run()::lambda#2", "Acme.Lambdas.Work.<Run>m__1"},
			} {
				got := byName(r.Spans, lambdasNS+want.name)
				if len(got) != 1 {
					t.Errorf("capture %v: %d spans %s\n%s", capture, len(got), want.name, dumpSpans(r.Spans))
					continue
				}
				l := got[0]
				if l.Attrs["code.function.name"] != want.fn || l.Attrs["dotnet.method.compiled_name"] != want.compiled {
					t.Errorf("capture %v: %s: code.function.name %v, compiled name %v; want %q, %q", capture, want.name,
						l.Attrs["code.function.name"], l.Attrs["dotnet.method.compiled_name"], want.fn, want.compiled)
				}
				squares := 0
				for _, c := range children(r.Spans, l) {
					if c.Name == lambdasNS+"Square(Int32 x)" {
						squares++
					}
				}
				// In Run's trace, right under Run: the closure's
				// constructor is no span.
				if squares != 1 || l.ParentSpanID != runs[0].SpanID || l.TraceID != runs[0].TraceID {
					t.Errorf("capture %v: %s: %d Square under it, parent %q\n%s", capture, want.name, squares, parentName(ids, l), dumpSpans(r.Spans))
				}
			}
			for _, s := range r.Spans {
				if fn, _ := s.Attrs["code.function.name"].(string); strings.Contains(fn, "m__") {
					t.Errorf("capture %v: a span named by its compiled name: %s", capture, s.Name)
				}
				if strings.Contains(s.Name, "c__AnonStorey") || strings.Contains(s.Name, "..ctor") || strings.Contains(s.Name, "..cctor") {
					t.Errorf("capture %v: the compiler's plumbing is a span: %s", capture, s.Name)
				}
			}
			// Roslyn's shapes: the display class's and the lambda cache's
			// constructors make no span; their methods are calls under
			// Roslyn(4), as written.
			roslyn := byName(r.Spans, lambdasNS+"Roslyn(Int32 n)")
			if len(roslyn) != 1 {
				t.Fatalf("capture %v: %d Roslyn spans", capture, len(roslyn))
			}
			var under []string
			for _, c := range children(r.Spans, roslyn[0]) {
				under = append(under, strings.TrimPrefix(c.Name, lambdasNS))
			}
			sort.Strings(under)
			if strings.Join(under, ",") != "Cache.Twice(Int32 x),DisplayClass.Body()" {
				t.Errorf("capture %v: under Roslyn(4): %v, want DisplayClass.Body(), Cache.Twice(Int32 x)", capture, under)
			}
		}
	})
}
