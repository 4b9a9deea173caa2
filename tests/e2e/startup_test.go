package e2e

import (
	"strings"
	"testing"
)

// Framework methods live in ReadyToRun modules, whose precompiled code has
// no Enter/Leave hooks. Selected by name, they are refused that code and
// JIT-compiled with hooks at their first call; every call is a span, before
// and after tiered compilation recompiles them, and the app's own method
// keeps its hooks across recompilation too.
func TestFrameworkMethodsSelectedByName(t *testing.T) {
	const calls = 300
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		r := runApp(t, rt, "Framework", []string{"300"}, runOpts{profiler: true, env: map[string]string{
			"CLROTEL_INCLUDE": "System.IO.Path.GetFileName,System.Linq.Enumerable.Range,Acme.Fw.*",
			"CLROTEL_FOLD":    "off", // every call a span: the folding rule takes 250
		}})
		if r.ExitCode != 0 {
			t.Fatalf("exit %d\n%s", r.ExitCode, r.Stderr)
		}
		count := map[string]int{}
		for _, s := range r.Spans {
			fn, _ := s.Attrs["code.function.name"].(string)
			count[fn]++
		}
		if got := count["Acme.Fw.Program.Work"]; got != calls {
			t.Errorf("Work: %d spans, want %d", got, calls)
		}
		for _, fn := range []string{"System.IO.Path.GetFileName", "System.Linq.Enumerable.Range"} {
			// The framework may call them too: at least the app's calls.
			if got := count[fn]; got < calls {
				t.Errorf("%s: %d spans, want at least %d\n%v", fn, got, calls, count)
			}
		}
		for fn := range count {
			if fn != "Acme.Fw.Program.Main" && fn != "Acme.Fw.Program.Work" && !strings.HasPrefix(fn, "System.IO.Path.GetFileName") && fn != "System.Linq.Enumerable.Range" {
				t.Errorf("span outside the include: %s", fn)
			}
		}
	})
}

// With the defaults (the app's own code), the app's method is traced on
// every call across tiered recompilation, and nothing of the framework is.
func TestOwnCodeAcrossRecompilation(t *testing.T) {
	const calls = 300
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		r := runApp(t, rt, "Framework", []string{"300"}, runOpts{profiler: true, env: map[string]string{
			"CLROTEL_FOLD": "off", // every call a span: the folding rule takes 250
		}})
		if r.ExitCode != 0 {
			t.Fatalf("exit %d\n%s", r.ExitCode, r.Stderr)
		}
		work := 0
		for _, s := range r.Spans {
			fn, _ := s.Attrs["code.function.name"].(string)
			if fn == "Acme.Fw.Program.Work" {
				work++
			}
			if !strings.HasPrefix(fn, "Acme.Fw.") {
				t.Errorf("framework method traced by default: %s", s.Name)
			}
		}
		if work != calls {
			t.Errorf("Work: %d spans, want %d", work, calls)
		}
	})
}
