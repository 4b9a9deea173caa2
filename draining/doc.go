// Package draining walks the hooks' thread slots for the drainer, the one
// consumer of every capture ring: each pass reads every live slot's ring
// in order, hands its records on, frees the slot of a thread that ended
// once its last record is read, and says from the fullest ring whether the
// span work is behind (shedding.Backlog); and at exit, how long the last
// drain may wait for a collector that is slow or gone (Finish). Its
// Drainer is the loop around the walk: shedding windows of its own CPU,
// the drops and tables reports, the spans left open at exit or abort.
//
// It must not read C memory itself: the slots, their rings and their
// release are the Slots interface's, the hooks' counters the Hooks
// interface's (profiler/ gives the C slot table and counters).
package draining
