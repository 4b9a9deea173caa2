// Package hookstate is the Go view of the state the C hooks share with Go:
// the slot table (each thread's capture ring, its state and its drops),
// the hooks' counters and the controls the drainer sets (shedding, the
// backlog), read and written through profiler/'s C layer.
//
// Its C functions and the slot table are defined in profiler/'s C files
// and declared here from their headers; they resolve only when
// libclrotel.so is linked. So no test binary of this package can link:
// what reads this state (package draining, translate, summary) is tested
// on fakes of its interfaces, and these types only translate between Go
// values and the C tables.
//
// What it must not do: decide anything, or make the hooks wait (the hooks
// never lock; Go reads their counters with atomic loads).
package hookstate
