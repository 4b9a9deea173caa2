package config

import "runtime"

// goProcs is the number of processors clrotel's Go side runs on unless
// GOMAXPROCS is set: one for the drainer, a locked thread busy while the
// app makes calls, and one for the runtime's threads that call into Go (the
// JIT callbacks that name, select and plan each method compiled). With one,
// such a thread waits for the drainer to be preempted, up to 10 ms a call:
// NRefactory's main thread waited 255 ms in a 1.3 s run, and ran at 2.48x
// untraced against 2.18x with two (docs/performance.md). More would let
// Go's scheduler wake and spin threads for the export and the collector
// among the app's own.
const goProcs = 2

// GoProcs keeps clrotel's Go side on goProcs processors unless GOMAXPROCS
// is set, and returns the number in force.
func GoProcs(lookup func(string) (string, bool)) int {
	if _, set := lookup("GOMAXPROCS"); set {
		return runtime.GOMAXPROCS(0)
	}
	runtime.GOMAXPROCS(goProcs)
	return goProcs
}
