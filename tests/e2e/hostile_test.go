package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// Values built to hurt value capture: a 100 MB string, an array of
// 2^31-57 structs, a 10,000-long chain, a cycle, and objects rewritten by
// another thread while traced methods read them. The app runs as without
// the profiler, in bounded time, and what is exported stays within the
// documented bounds.
func TestHostileValues(t *testing.T) {
	const maxString, maxAttrBytes = 256, 16384
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		plain := runApp(t, rt, "Hostile", nil, runOpts{timeout: 3 * time.Minute})
		if plain.ExitCode != 0 {
			t.Fatalf("untraced: exit %d\n%s", plain.ExitCode, plain.Stderr)
		}
		r := runApp(t, rt, "Hostile", nil, runOpts{profiler: true, timeout: 3 * time.Minute, env: map[string]string{
			"CLROTEL_INCLUDE": "Acme.Hostile.Take.*", "CLROTEL_LOG_LEVEL": "info",
		}})
		if r.ExitCode != 0 || r.Stdout != plain.Stdout {
			t.Fatalf("exit %d stdout %q, untraced %q\n%s", r.ExitCode, r.Stdout, plain.Stdout, r.Stderr)
		}
		t.Logf("wall %v (untraced %v), peak RSS %d MB (untraced %d MB), %d spans",
			r.Wall.Round(time.Millisecond), plain.Wall.Round(time.Millisecond), r.MaxRSSKB>>10, plain.MaxRSSKB>>10, len(r.Spans))
		if r.Wall > 3*plain.Wall+5*time.Second {
			t.Errorf("traced run took %v against %v", r.Wall, plain.Wall)
		}
		want := map[string]int{"Str": 50, "Structs": 50, "Chain": 100, "Held": 200000}
		got := map[string]int{}
		for _, s := range r.Spans {
			for m := range want {
				if strings.Contains(s.Name, "Take."+m+"(") {
					got[m]++
				}
			}
			total := 0
			for k, v := range s.Attrs {
				if !strings.HasPrefix(k, "dotnet.arg.") && k != "dotnet.return" {
					continue
				}
				str := fmt.Sprint(v)
				total += len(k) + len(str)
				if sv, ok := v.(string); ok && utf8.RuneCountInString(sv) > maxAttrBytes {
					t.Fatalf("%s: attribute %s has %d characters", s.Name, k, utf8.RuneCountInString(sv))
				}
			}
			if total > maxAttrBytes {
				t.Fatalf("%s: %d bytes of value attributes", s.Name, total)
			}
		}
		// Every call is a span received or counted by the profiler: a
		// loaded machine makes some shed (a capture buffer half full sheds
		// new traces) or lost at exit (the exit flush is bounded).
		a := readAccount(t, r.Stderr)
		if received := got["Str"] + got["Structs"] + got["Chain"] + got["Held"]; a.total() != 200200 || a.exported != received {
			t.Errorf("spans received %v; profiler %+v: want every span exported received, 200200 calls accounted for", got, a)
		}
		for _, s := range byName(r.Spans, "Hostile.exe!Acme.Hostile.Take.Str(String s)") {
			v, _ := s.Attrs["dotnet.arg.s"].(string)
			if n := utf8.RuneCountInString(v); n > maxString+8 || s.Attrs["dotnet.arg.s.length"] != int64(50_000_000) {
				t.Fatalf("100 MB string exported as %d characters, length attribute %v", n, s.Attrs["dotnet.arg.s.length"])
			}
		}
		for _, s := range byName(r.Spans, "Hostile.exe!Acme.Hostile.Take.Structs(Acme.Hostile.Tiny[] a)") {
			// Either its length, or (before the planner has read the
			// element type's layout, which the first calls can outrun) the
			// marker of a value not expanded.
			l, v := s.Attrs["dotnet.arg.a.length"], fmt.Sprint(s.Attrs["dotnet.arg.a"])
			if l != int64(0x7FFFFFC7) && l != int64(1<<30) && !strings.HasSuffix(v, "{…}") {
				t.Fatalf("huge array exported as %q, length %v", v, l)
			}
		}
	})
}

// References forged by unsafe code to point at readable memory that holds
// no object (random bytes, a type pointer to itself, into the middle of a
// string, misaligned), passed as arguments, held in fields and array
// elements, and returned. The runtime faults when asked about them; the
// profiler abandons those calls, shows the values as unreadable, and the
// app runs as without it.
func TestForgedReferences(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		plain := runApp(t, rt, "Torn", []string{"40"}, runOpts{})
		if plain.ExitCode != 0 || !strings.HasPrefix(plain.Stdout, "done ") {
			t.Fatalf("untraced: exit %d, stdout %q\n%s", plain.ExitCode, plain.Stdout, plain.Stderr)
		}
		for i := 0; i < 2; i++ {
			// Every call a span (CLROTEL_FOLD=off): the folding rule takes 250;
			// with its values: the run is one trace, past the value budget.
			r := runApp(t, rt, "Torn", []string{"40"}, runOpts{profiler: true, env: map[string]string{"CLROTEL_LOG_LEVEL": "info", "CLROTEL_FOLD": "off", "CLROTEL_MAX_VALUE_SPANS_PER_TRACE": "0"}})
			if r.ExitCode != 0 || r.Stdout != plain.Stdout {
				t.Fatalf("run %d: exit %d, stdout %q, untraced %q\n%s", i, r.ExitCode, r.Stdout, plain.Stdout, r.Stderr)
			}
			// 40 rounds of 7 forged references, plus 3 warm-up probes.
			takes := byName(r.Spans, "Torn.exe!Acme.Torn.Sink.Take(Object o)")
			unreadable := 0
			for _, s := range takes {
				if s.Attrs["dotnet.arg.o"] == "<unreadable>" {
					unreadable++
				}
			}
			held := 0
			for _, s := range byName(r.Spans, "Torn.exe!Acme.Torn.Sink.TakeHolder(Acme.Torn.Holder h)") {
				if s.Attrs["dotnet.arg.h"] == `Acme.Torn.Holder{Name="holder", Ref=<unreadable>}` {
					held++
				}
			}
			if len(takes) != 40*7+3 || unreadable < 40*5 || held < 40*5 {
				t.Errorf("run %d: %d Take spans (want %d), %d read as unreadable, %d holders with an unreadable field",
					i, len(takes), 40*7+3, unreadable, held)
			}
			if !strings.Contains(r.Stderr, "runtime calls about objects faulted and were abandoned") {
				t.Errorf("run %d: no guarded fault reported:\n%s", i, r.Stderr)
			}
		}
	})
}
