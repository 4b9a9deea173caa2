// Package csample tests the profiler's C sampling decision (profiler/sample.h,
// symlinked here so the go command hashes it) against the Go reference in
// package sampling, and the reclamation of replaced strategy blocks
// (profiler/strategy.c, symlinked too) under reader threads. Test-only:
// nothing imports it.
package csample
