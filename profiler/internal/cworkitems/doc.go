// Package cworkitems tests the profiler's table of work items in flight
// (profiler/workitems.c, symlinked here with what it includes so that the go
// command hashes their contents) outside the runtime: items made and run,
// and collections that move, keep or forget them, reported as the runtime
// reports them. Test-only: nothing imports it.
package cworkitems
