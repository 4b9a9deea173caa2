// Package csgen writes random but valid C# programs for differential
// testing of the profiler, in the manner of Csmith for C compilers.
//
// Generate(seed) returns one program as text: the same seed always gives
// the same text (math/rand with a fixed source, no map iteration, no
// clock). The program compiles with Debian's mcs (-langversion:7.2, the
// default references) and, on CoreCLR with invariant globalization, prints
// a checksum of every value it computed, and exits with a code derived
// from it. Its output depends only on the seed and the runtime: no clock,
// no hash code of an object or string, no thread timing, no unordered
// iteration, floating-point values mixed by their bits.
//
// A program is a set of units, each a static class with a Run method
// that Main calls in turn. Units are chosen at random from the feature
// list (type shapes, generics, inheritance, parameter forms, delegates,
// LINQ, iterators, async (generic too), exceptions, recursion, threads, BCL values,
// and Csmith-like arithmetic functions); values of common BCL types and
// of the program's own types come from one table, so any feature can
// take or hold any of them. Program.Features lists what a program uses.
//
// The package owns the text of the programs only. It must not run them,
// know about the profiler, or depend on anything but the standard
// library; the harness (tests/e2e, cmd/csgen-campaign) compiles and runs
// them.
package csgen
