// Package cambient tests the profiler's C reader of Activity.Current
// (profiler/ambient.c, symlinked here with what it includes so that the go
// command hashes their contents) outside the runtime: it compiles the
// production C against a fake ICorProfilerInfo and hands it synthetic
// threads, execution contexts, AsyncLocal maps and Activities, hostile
// pointers included. Test-only: nothing imports it.
package cambient
