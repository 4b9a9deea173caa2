// Package memo remembers answers that never change once known: the names,
// fields and classes the profiler reads from a loaded module's metadata
// and from the runtime, and verdicts derived from them.
//
// It owns only the remembering: what a key means and when an answer is
// stable is its caller's to decide. A Map is bounded by its caller's keys
// (a module's metadata rows) or by a limit past which answers are asked
// for again instead of kept, or past which it forgets them all and starts
// again (Renew); it evicts nothing else.
package memo
