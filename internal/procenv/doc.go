// Package procenv builds the environment of .NET processes that tests and
// benchmarks start: this process's, without anything that would attach a
// profiler, redirect export or change the runtime's behaviour.
//
// It owns only that cleaning. It must not add settings of its own: each
// test or benchmark sets what it measures on top.
package procenv
