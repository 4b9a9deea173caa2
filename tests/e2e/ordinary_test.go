package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/clrotel/clrotel/otlpsink"
)

// TestOrdinaryCode runs code nobody wrote to stress the profiler, the kind
// that crashed .NET 8 with capture on (issue 13): an enum whose member
// names are longer than any fixed name buffer, fields and arguments of
// common BCL types, and methods of generic structs shared by their
// reference-type instantiations. With capture on and off the app prints
// and exits as without the profiler, every call is accounted for, no
// ordinary value is <unreadable>, and no runtime call on an object faults.
func TestOrdinaryCode(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		want := runApp(t, rt, "Ordinary", []string{"4"}, runOpts{})
		if want.ExitCode == 0 || !strings.Contains(want.Stdout, "total ") {
			t.Fatalf("untraced run: exit %d\n%s%s", want.ExitCode, want.Stdout, want.Stderr)
		}
		for _, capture := range []string{"on", "off"} {
			t.Run("capture="+capture, func(t *testing.T) {
				r := runApp(t, rt, "Ordinary", []string{"4"}, runOpts{profiler: true, env: map[string]string{
					"CLROTEL_CAPTURE": capture, "CLROTEL_LOG_LEVEL": "info",
				}})
				if r.ExitCode != want.ExitCode || r.Stdout != want.Stdout {
					t.Fatalf("traced run differs: exit %d (want %d)\nstdout:\n%s\nwant:\n%s\nstderr:\n%s", r.ExitCode, want.ExitCode, r.Stdout, want.Stdout, r.Stderr)
				}
				if strings.Contains(r.Stderr, "faulted") {
					t.Errorf("runtime calls on ordinary objects faulted:\n%s", r.Stderr)
				}
				a := readAccount(t, r.Stderr)
				if a.exported != len(r.Spans) || a.failed+a.lost+a.dropped != 0 {
					t.Errorf("account %+v, %d spans received", a, len(r.Spans))
				}
				for _, s := range r.Spans {
					for k, v := range s.Attrs {
						if str, ok := v.(string); ok && strings.Contains(str, "<unreadable>") {
							t.Errorf("%s: %s = %s", s.Name, k, str)
						}
					}
				}
				if capture == "on" {
					checkOrdinaryValues(t, r.Spans)
				}
			})
		}
	})
}

func checkOrdinaryValues(t *testing.T, spans []otlpsink.Span) {
	t.Helper()
	find := func(part string) []otlpsink.Span {
		var out []otlpsink.Span
		for _, s := range spans {
			if strings.Contains(s.Name, part) {
				out = append(out, s)
			}
		}
		if len(out) == 0 {
			t.Fatalf("no span %s in\n%s", part, dumpSpans(spans))
		}
		return out
	}
	// The `this` of Holder<Item> (shared code) is the struct, read through
	// the plan of the exact instantiation the frame names: from the second
	// call on at the latest, its fields show.
	gets := find("Acme.Ordinary.Holder<Acme.Ordinary.Item>.Get()")
	last := fmt.Sprint(gets[len(gets)-1].Attrs["dotnet.this"])
	if !strings.Contains(last, "Id=42") || !strings.Contains(last, `Name="pen"`) {
		t.Errorf("Holder<Item>.Get() this = %s", last)
	}
	// A type parameter fixed to a value type in shared code (Pair<Int32,
	// __Canon>) is read as that value type, not as a reference.
	ctor := find("Acme.Ordinary.Pair<Int32, String>..ctor(Int32 a, String b)")[0]
	if got := ctor.Attrs["dotnet.arg.a"]; got != int64(5) {
		t.Errorf("Pair ctor a = %#v, want 5", got)
	}
	if got := ctor.Attrs["dotnet.arg.b"]; got != "five" {
		t.Errorf("Pair ctor b = %#v, want five", got)
	}
	// The enum with long member names renders by name.
	place := find("Acme.Ordinary.Program.Place(")[0]
	if got := place.Attrs["dotnet.arg.v"]; got != "AnotherRatherLongMemberNameThatKeepsGoingForAWhileSoThatItWouldSpillOverTheStackFrame" {
		t.Errorf("Place v = %#v", got)
	}
}
