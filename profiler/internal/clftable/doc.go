// Package clftable tests the C layer's lock-free table (profiler/lftable.h,
// symlinked here so that the go command hashes its contents): lookups,
// bounded probing with the full inserts counted, removal, and inserts and
// lookups from many threads at once (make csan runs it under the address
// and undefined-behaviour sanitizers). Test-only: nothing imports it.
package clftable
