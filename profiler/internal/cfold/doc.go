// Package cfold tests the profiler's C fold rule (profiler/fold.c and the
// rule's inline parts of profiler/capture.h, symlinked here so the go
// command hashes them) against its Go reference in package folding: which
// methods fold, which calls fold by their trace's span budget, and which
// folded methods are asked to be re-JIT-compiled without hooks.
// Test-only: nothing imports it.
package cfold
