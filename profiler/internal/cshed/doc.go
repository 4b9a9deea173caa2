// Package cshed tests the hook's load-shedding decision (profiler/shed.h
// and shed.c, symlinked here so the go command hashes them) against the
// limits package shedding computes. Test-only: nothing imports it.
package cshed
