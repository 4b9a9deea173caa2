// Command goempty is built by `make bench` with -buildmode=c-shared into a
// Go library that exports nothing: the runtime loads it (the Go runtime
// starts in its constructor) and finds no profiler in it. Its start-up row
// is what a profiler written in Go pays before it does anything.
//
// It must not export anything nor do any work: it measures the Go
// runtime's start alone.
package main
