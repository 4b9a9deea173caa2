package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// A type load the profiler causes while planning a traced method's values
// can run managed code on the same thread (here an AssemblyResolve
// handler). The runtime then asks the profiler about the handler's methods
// in the middle of its first question: the app must neither deadlock nor
// lose the traced method, whose argument is read through a parent class
// defined in the resolved assembly.
func TestTypeLoadRunsManagedCode(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		plain := runApp(t, rt, "Resolve", nil, runOpts{})
		if plain.ExitCode != 0 || !strings.Contains(plain.Stdout, "resolved ResolvePlugin") {
			t.Fatalf("untraced run: exit %d, stdout %q\n%s", plain.ExitCode, plain.Stdout, plain.Stderr)
		}
		r := runApp(t, rt, "Resolve", nil, runOpts{profiler: true, timeout: 30 * time.Second})
		if r.ExitCode != 0 || r.Stdout != plain.Stdout {
			t.Fatalf("traced run: exit %d, stdout %q, want %q\n%s", r.ExitCode, r.Stdout, plain.Stdout, r.Stderr)
		}
		take := byName(r.Spans, "Resolve.exe!Acme.Resolve.Calls.Take(Acme.Resolve.Derived d)")
		if len(take) != 2 {
			t.Fatalf("%d Take spans, want 2\n%s", len(take), dumpSpans(r.Spans))
		}
		if got := fmt.Sprint(take[1].Attrs["dotnet.arg.d.Id"], " ", take[1].Attrs["dotnet.return"]); got != "3 3" {
			t.Errorf("second Take: inherited field Id and return %q, want \"3 3\"\n%s", got, dumpSpans(take))
		}
	})
}
