package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

// Go (its runtime, the configuration, the pipeline) starts with the first
// function that may be selected: never in a process where nothing can be,
// which exits as it would untraced; at the first such function otherwise,
// which is traced from its first call. A configuration file, which only Go
// reads, starts it in Initialize.
func TestGoStartsWhenSomethingCanBeSelected(t *testing.T) {
	const calls = 300
	goStarted := func(stderr string) bool {
		return strings.Contains(stderr, "clrotel: profiler ") && strings.Contains(stderr, " loaded (ICorProfilerInfo")
	}
	file := filepath.Join(t.TempDir(), "clrotel.yaml")
	if err := os.WriteFile(file, []byte("include: [Nothing.Selected]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		plain := runApp(t, rt, "Framework", []string{"300"}, runOpts{})
		for _, tc := range []struct {
			name    string
			env     map[string]string
			started bool
			work    int
		}{
			{"nothing selected", map[string]string{"CLROTEL_INCLUDE": "Nothing.Selected"}, false, 0},
			{"one method", map[string]string{"CLROTEL_INCLUDE": "Acme.Fw.Program.Work"}, true, calls},
			{"a configuration file", map[string]string{"CLROTEL_CONFIG": file}, true, 0},
		} {
			env := map[string]string{"CLROTEL_LOG_LEVEL": "info", "CLROTEL_FOLD": "off"}
			for k, v := range tc.env {
				env[k] = v
			}
			r := runApp(t, rt, "Framework", []string{"300"}, runOpts{profiler: true, env: env})
			if r.ExitCode != 0 || r.Stdout != plain.Stdout {
				t.Fatalf("%s: exit %d, stdout %q, untraced %q\n%s", tc.name, r.ExitCode, r.Stdout, plain.Stdout, r.Stderr)
			}
			if got := goStarted(r.Stderr); got != tc.started {
				t.Errorf("%s: Go started %v, want %v\n%s", tc.name, got, tc.started, r.Stderr)
			}
			if len(r.Spans) != tc.work {
				t.Errorf("%s: %d spans, want %d", tc.name, len(r.Spans), tc.work)
			}
			for _, s := range r.Spans {
				if fn, _ := s.Attrs["code.function.name"].(string); fn != "Acme.Fw.Program.Work" {
					t.Errorf("%s: span of %s", tc.name, fn)
				}
			}
		}
	})
}

// CoreLib's specials (work items' makers and runs, queuing methods, task
// builders, 3.1's Thread.Start) are hooked from their first compile, which
// any Task, thread or timer brings: with nothing selected they must not
// start Go. AsyncFlow's "uncaptured" case makes all of these.
func TestSpecialsDoNotStartGo(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		plain := runApp(t, rt, "AsyncFlow", []string{"uncaptured"}, runOpts{timeout: 120 * time.Second})
		r := runApp(t, rt, "AsyncFlow", []string{"uncaptured"}, runOpts{profiler: true, timeout: 120 * time.Second,
			env: map[string]string{"CLROTEL_INCLUDE": "Nothing.Selected", "CLROTEL_LOG_LEVEL": "info"}})
		if r.ExitCode != 0 || r.Stdout != plain.Stdout {
			t.Fatalf("exit %d, stdout %q, untraced %q\n%s", r.ExitCode, r.Stdout, plain.Stdout, r.Stderr)
		}
		if strings.Contains(r.Stderr, "clrotel: profiler ") {
			t.Errorf("Go started with nothing selected:\n%s", r.Stderr)
		}
		if len(r.Spans) != 0 {
			t.Errorf("%d spans with nothing selected", len(r.Spans))
		}
	})
}

// OTEL_SDK_DISABLED=true (the OpenTelemetry specification's switch for
// every signal) turns clrotel off: refused at Initialize, no Go, no span,
// the app's output unchanged. Any other value changes nothing.
func TestSDKDisabled(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		plain := runApp(t, rt, "Framework", []string{"300"}, runOpts{})
		for _, tc := range []struct {
			value string
			spans int
		}{{"true", 0}, {" TRUE ", 0}, {"false", 300}, {"1", 300}} {
			r := runApp(t, rt, "Framework", []string{"300"}, runOpts{profiler: true, env: map[string]string{
				"OTEL_SDK_DISABLED": tc.value, "CLROTEL_INCLUDE": "Acme.Fw.Program.Work", "CLROTEL_FOLD": "off", "CLROTEL_LOG_LEVEL": "info"}})
			if r.ExitCode != 0 || r.Stdout != plain.Stdout {
				t.Fatalf("OTEL_SDK_DISABLED=%q: exit %d, stdout %q, untraced %q\n%s", tc.value, r.ExitCode, r.Stdout, plain.Stdout, r.Stderr)
			}
			if len(r.Spans) != tc.spans {
				t.Errorf("OTEL_SDK_DISABLED=%q: %d spans, want %d", tc.value, len(r.Spans), tc.spans)
			}
			if started := strings.Contains(r.Stderr, "clrotel: profiler "); started != (tc.spans > 0) {
				t.Errorf("OTEL_SDK_DISABLED=%q: Go started %v\n%s", tc.value, started, r.Stderr)
			}
		}
	})
}
