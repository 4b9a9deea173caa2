package e2e

import (
	"testing"
	"time"
)

// A NullReferenceException begins as a SIGSEGV that the runtime turns into
// an exception on the thread's own stack, keeping its way back on the
// alternate signal stack. A thread that suspends the runtime meanwhile (a
// GC here; the profiler's ReJIT requests do the same) interrupts the
// faulting one with the runtime's activation signal, whose handler must not
// run on that alternate stack: the Go runtime makes it (SA_ONSTACK), and
// the profiler puts the runtime's own flags back (signals.c
// restore_activation). Before, the process spun until killed within a few
// thousand faults, on either runtime.
func TestFaultsWhileTheRuntimeSuspends(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		// About 4 s of faults on .NET Core 3.1, whose exception handling is
		// slower, and 1 s on .NET 8.
		n := "200000"
		if rt.Name == "net3.1" {
			n = "20000"
		}
		plain := runApp(t, rt, "Suspend", []string{n}, runOpts{})
		if plain.ExitCode != 0 {
			t.Fatalf("untraced: exit %d\n%s", plain.ExitCode, tail(plain.Stderr, 2000))
		}
		for round := 0; round < 3; round++ {
			traced := runApp(t, rt, "Suspend", []string{n}, runOpts{profiler: true, timeout: 90 * time.Second})
			if traced.ExitCode != 0 || traced.Stdout != plain.Stdout {
				t.Fatalf("round %d: traced exit %d, stdout %q; untraced %q\n%s", round, traced.ExitCode, traced.Stdout, plain.Stdout, tail(traced.Stderr, 2000))
			}
		}
	})
}
