// Package cgraph checks that the C layer of the profiler has no loop
// between its files: neither in the include graph (which header includes
// which) nor in the call graph (which .c or .S file uses a function or a
// variable another one defines with external linkage).
//
// The call graph is read from each C file as the compiler sees it (cc -E,
// macros expanded), so a reference made through a header's macro or
// static inline function counts for the file that uses it. It holds tests
// and this reader only; nothing imports it.
package cgraph
