// Command goempty is built by `make bench` with -buildmode=c-shared into a
// Go library that exports nothing: the runtime loads it (the Go runtime
// starts in its constructor) and finds no profiler in it. Its start-up row
// is what a profiler written in Go pays before it does anything.
package main

import "C"

func main() {}
